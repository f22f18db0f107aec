// Test cases and collections as v2 shows them, from the flaky-tests store: each repository with test data
// is a collection of its tests. The store keeps a test's current status, when it began and its failures,
// so a test's status history is that one change, and its runs are its failures.
import type { V2 } from '../../../src/wire/v2/index.js';
import type { StoredTest, TestCaseRecords } from '../../flaky-tests/store.js';
import { repoKeyOf } from '../../../src/queue-model/index.js';
import { repositoryIdOf, shortIdOf } from '../ids.js';
import { iso } from './time.js';

export interface TestCaseEntry {
  records: TestCaseRecords;
  test: Readonly<StoredTest>;
  quarantined: boolean;
}

export function collectionIdOf(records: TestCaseRecords): string {
  return shortIdOf(`collection:${repoKeyOf(records.repo)}`);
}

export function collectionView(records: TestCaseRecords, createdAt: number): V2<'TestCollection'> {
  return {
    id: collectionIdOf(records),
    name: `${records.repo.owner}/${records.repo.name}`,
    description: `The tests of ${records.repo.host}/${records.repo.owner}/${records.repo.name}`,
    testCaseCount: records.tests.length,
    quarantineEnabled: records.quarantining,
    autoQuarantineEnabled: records.autoQuarantine,
    createdAt: iso(createdAt),
    updatedAt: iso(createdAt),
  };
}

function lastFailureAt(test: Readonly<StoredTest>): number | undefined {
  return test.failures.reduce<number | undefined>(
    (last, f) => (last === undefined || f.at > last ? f.at : last),
    undefined,
  );
}

export function metricsView(test: Readonly<StoredTest>): V2<'TestCaseMetrics'> {
  const failures = test.failures.length;
  const last = lastFailureAt(test);
  return {
    failureRate: test.failureRateLast7d,
    prsImpacted: test.pullRequestsImpactedLast7d,
    // Runs that passed are not kept: the failure rate says how many runs the failures were out of.
    runCount: test.failureRateLast7d > 0 ? Math.round(failures / test.failureRateLast7d) : failures,
    failureCount: failures,
    durationP95Ms: null,
    lastRunAt: last === undefined ? null : iso(last),
    lastFailureAt: last === undefined ? null : iso(last),
  };
}

export function testCaseSummaryView(entry: TestCaseEntry, withMetrics: boolean): V2<'TestCaseSummary'> {
  const { test, records } = entry;
  return {
    id: test.id,
    testCollectionId: collectionIdOf(records),
    repoId: repositoryIdOf(records.repo),
    name: test.name,
    parentName: test.parent ?? '',
    className: test.classname ?? '',
    file: test.filePath ?? '',
    target: '',
    variant: test.variant,
    crossVariantId: null,
    codeowners: [...test.codeowners],
    status: test.status,
    statusSince: test.statusChangedAt,
    quarantineState: entry.quarantined ? 'quarantined' : 'notQuarantined',
    labels: [],
    ...(withMetrics ? { metrics: metricsView(test) } : {}),
  };
}

function overrideView(test: Readonly<StoredTest>): V2<'QuarantineOverride'> | null {
  if (test.quarantineOverride === 'UNSPECIFIED') return null;
  return {
    mode: test.quarantineOverride === 'ALWAYS_QUARANTINE' ? 'alwaysQuarantine' : 'neverQuarantine',
    reason: null,
    createdAt: test.quarantinedAt ?? test.statusChangedAt,
  };
}

export function testCaseView(entry: TestCaseEntry, withMetrics: boolean): V2<'TestCase'> {
  const { test } = entry;
  const first = test.failures.reduce((min, f) => Math.min(min, f.at), Date.parse(test.statusChangedAt));
  const last = lastFailureAt(test);
  return {
    ...testCaseSummaryView(entry, withMetrics),
    quarantineOverride: overrideView(test),
    activeMonitors: [],
    firstSeenAt: iso(first),
    lastFailureAt: last === undefined ? null : iso(last),
  };
}

export function statusHistoryOf(test: Readonly<StoredTest>): V2<'StatusHistoryEntry'>[] {
  if (test.status === 'healthy') return [];
  return [
    {
      id: `${test.id}:status`,
      fromStatus: 'healthy',
      toStatus: test.status,
      activeMonitors: [],
      startedAt: test.statusChangedAt,
    },
  ];
}

/** The test's failures as its runs, newest first. */
export function testRunsOf(entry: TestCaseEntry): V2<'TestRun'>[] {
  return [...entry.test.failures]
    .sort((a, b) => b.at - a.at)
    .map((failure, index) => ({
      id: `${entry.test.id}:run:${failure.at}:${index}`,
      conclusion: 'failure',
      branch: 'unknown',
      isPullRequest: false,
      sha: 'unknown',
      quarantineState: entry.quarantined ? 'quarantined' : 'notQuarantined',
      statusAtRunTime: entry.test.status,
      startedAt: iso(failure.at),
      endedAt: iso(failure.at),
      pullRequest: null,
      buildUrl: null,
      workflow: null,
      jobName: null,
    }));
}

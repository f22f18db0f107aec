// list-unhealthy-tests: every flaky and broken test of the repository. Each status is its own listing,
// fetched at the same time as the other; within a listing pages follow one another. The result is the
// counts, a report file with every test, a summary sorted by impact, and the fail-on threshold. Each test
// is read, rendered for the summary and written out for both report files, JSON and CSV (secrets
// hidden), as its page arrives, while the next page is on its way: after the last page, only sorting and
// joining are left.
import { plural } from '../../report/words.js';
import { listedIn, nameOf, say, words, type Words } from '../../words.js';
import type { ApiResponse } from '../../api/client.js';
import type { UnhealthyStatus } from '../../../wire/index.js';
import { stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { InputError } from '../../errors.js';
import { quoted } from '../../inputs.js';

import { LISTED_IN_DETAILS, rawResponse, repoSlug } from '../common.js';
import type { Operation, OperationContext, OutputValue } from '../types.js';
import { followPages } from './pages.js';
import { reportItem, writeListReportFile } from './report-file.js';
import { csvLine, writeCsvReportFile } from './report-csv.js';
import { REPOSITORY_NOT_FOUND, adviseOnNotFound, flakyRequestBase } from './requests.js';
import { byImpact, listedTest, readTest } from './tests.js';
import type { TestListDetails } from './details.js';
import type { FailOn, FlakyTestsSettings } from './inputs.js';
import {
  reportedTest,
  summarizeUnhealthy,
  TeamCounts,
  type ReportedTest,
  type UnhealthyCounts,
} from './unhealthy-summary.js';

interface ListedTest {
  view: ReportedTest;
  /** The test as the service sent it, as the report file spells it (UTF-8). */
  reportItem: Buffer;
  /** Its row of the CSV report (UTF-8). */
  csvLine: Buffer;
  listedAs: UnhealthyStatus;
}

/** The tests of every listing, and what is counted over them, kept up as each test arrives. */
interface Listed {
  /** Most impactful first. */
  tests: ListedTest[];
  teams: TeamCounts;
  counts: UnhealthyCounts;
}

export const listUnhealthyTests: Operation<FlakyTestsSettings> = async (op) => {
  const { statuses, failOn, maxUnhealthy } = op.settings;
  if (op.settings.badgeFile) await checkBadgeFile(op.settings.badgeFile);
  const now = Date.now();
  const { tests, teams, counts, last } = await fetchUnhealthyTests(op, statuses, now);
  const reportFile = await writeReport(op, statuses, counts, tests);
  const csvFile = await writeCsvReportFile(
    op,
    'unhealthy-tests.csv',
    tests.map((test) => test.csvLine),
  );
  (op.log.outcome ?? op.log.info)(
    `${plural(counts.unhealthy, 'unhealthy test')} in ${repoSlug(op.context.repo)}; every one is in report-file (JSON) and report-csv-file (CSV).`,
  );
  const failure = thresholdFailure(failOn, maxUnhealthy, counts);
  const { summary, listing } = summarizeUnhealthy(repoSlug(op.context.repo), {
    tests: tests.map((test) => test.view),
    teams,
    counts,
    failOn,
    maxUnhealthy,
    failure: failure && say(failure, op.wording),
    reportFile,
    csvFile,
    now,
  });
  if (listing.shown < listing.total || listing.brief) {
    const columns = listing.brief ? ' without the reason and variant columns' : '';
    op.log.info(
      `The summary lists the first ${listing.shown} of ${listing.total} tests${columns}; the report files have every one.`,
    );
  }
  const outputs: Record<string, OutputValue> = {
    response: rawResponse(last),
    'unhealthy-count': counts.unhealthy,
    'flaky-count': counts.flaky ?? '',
    'broken-count': counts.broken ?? '',
    'quarantined-count': counts.quarantined,
    'report-file': reportFile,
    'report-csv-file': csvFile,
  };
  if (op.settings.badgeFile) {
    await writeBadge(op.settings.badgeFile, counts, failure !== undefined);
    outputs['badge-file'] = op.settings.badgeFile;
  }
  const details: TestListDetails = {
    kind: 'test-list',
    listing: 'unhealthy',
    repo: repoSlug(op.context.repo),
    tests: tests.slice(0, LISTED_IN_DETAILS).map((test) => listedTest(test.view)),
    total: tests.length,
    counts,
    nowMs: last?.serverTimeMs ?? Date.now(),
  };
  return { outputs, summary, failure, details };
};

async function fetchUnhealthyTests(
  op: OperationContext<FlakyTestsSettings>,
  statuses: UnhealthyStatus[],
  now: number,
): Promise<Listed & { last?: ApiResponse }> {
  const { pageSize, maxPages } = op.settings;
  const base = flakyRequestBase(op);
  const stop = new AbortController();
  let last: ApiResponse | undefined;
  const teams = new TeamCounts(now - 24 * 3600 * 1000);
  const counts: UnhealthyCounts = {
    unhealthy: 0,
    flaky: statuses.includes('FLAKY') ? 0 : undefined,
    broken: statuses.includes('BROKEN') ? 0 : undefined,
    quarantined: 0,
  };
  // A test listed twice (the data changed between two pages, its status maybe too) counts once, as it
  // was first listed.
  const listedIds = new Set<string>();
  const count = (test: ListedTest) => {
    counts.unhealthy++;
    if (test.listedAs === 'FLAKY') counts.flaky!++;
    else counts.broken!++;
    if (test.view.quarantined) counts.quarantined++;
    teams.add(test.view);
  };
  const listings = statuses.map(async (status) => {
    const listedTests: ListedTest[] = [];
    let listed = 0;
    try {
      const { pages } = await followPages<'listUnhealthyTests'>({
        label: `list-unhealthy-tests (${status})`,
        take: (raw) => {
          listed++;
          const view = reportedTest(readTest(raw));
          if (view.id && listedIds.has(view.id)) return;
          if (view.id) listedIds.add(view.id);
          const test = {
            view,
            reportItem: reportItem(op, raw),
            csvLine: csvLine(op, view),
            listedAs: status,
          };
          listedTests.push(test);
          count(test);
        },
        pageSize,
        maxPages,
        fetchPage: (page_query, onAnswer) =>
          op.client
            .call('listUnhealthyTests', { ...base, page_query, status }, { onAnswer })
            .catch(adviseOnNotFound(REPOSITORY_NOT_FOUND)),
        onPage: (response) => (last = response),
        stop: stop.signal,
      });
      // The page that shows the list counts it already: in a terminal the line would say it twice.
      (op.log.outcome ?? op.log.info)(`${status}: ${plural(listed, 'test')} on ${plural(pages, 'page')}.`);
      return listedTests;
    } catch (error) {
      stop.abort();
      throw error;
    }
  });
  // Wait for every listing to settle (a failed one stops the others), then report the first failure.
  const settled = await Promise.allSettled(listings);
  const failed = settled.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
  // A stable sort: tests of equal impact stay in the order they were listed, statuses in their order.
  const tests = settled
    .flatMap((result) => (result.status === 'fulfilled' ? result.value : []))
    .sort(byImpactOf);
  return { tests, teams, counts, last };
}

function byImpactOf(a: ListedTest, b: ListedTest): number {
  return byImpact(a.view, b.view);
}

/** The fail-on check: one line naming the count, the threshold and where the tests are listed. */
function thresholdFailure(failOn: FailOn, maxUnhealthy: number, counts: UnhealthyCounts): Words | undefined {
  if (failOn === 'none') return undefined;
  const [count, what] =
    failOn === 'any'
      ? [counts.unhealthy, 'unhealthy (flaky or broken)']
      : failOn === 'flaky'
        ? [counts.flaky ?? 0, 'flaky']
        : [counts.broken ?? 0, 'broken'];
  if (count <= maxUnhealthy) return undefined;
  return words`${nameOf('fail-on')} ${failOn}: ${plural(count, `${what} test`)}, more than ${nameOf('max-unhealthy')} (${maxUnhealthy}). ${listedIn('report-file')}.`;
}

function writeReport(
  op: OperationContext<FlakyTestsSettings>,
  statuses: UnhealthyStatus[],
  counts: UnhealthyCounts,
  tests: ListedTest[],
): Promise<string> {
  const content = {
    statuses,
    counts: {
      unhealthy: counts.unhealthy,
      flaky: counts.flaky ?? null,
      broken: counts.broken ?? null,
      quarantined: counts.quarantined,
    },
  };
  const items = tests.map((test) => test.reportItem);
  return writeListReportFile(op, 'unhealthy-tests.json', content, 'tests', items);
}

/** A badge in shields.io's endpoint format (https://img.shields.io/endpoint?url=...), for a README. */
/** Where the badge goes, checked before the service is asked: not a directory, in one that exists. */
async function checkBadgeFile(path: string): Promise<void> {
  const [itself, folder] = await Promise.all([
    stat(path).catch(() => undefined),
    stat(dirname(resolve(path))).catch(() => undefined),
  ]);
  const problem = itself?.isDirectory()
    ? 'is a directory'
    : folder?.isDirectory()
      ? undefined
      : 'is in a directory that does not exist';
  if (problem) {
    throw new InputError(
      'badge-file',
      `${quoted(path)} ${problem}`,
      'Set it to the path of a file in a directory that exists, e.g. unhealthy-badge.json.',
    );
  }
}

async function writeBadge(path: string, counts: UnhealthyCounts, failed: boolean): Promise<void> {
  const parts = [
    counts.broken !== undefined ? `${counts.broken} broken` : '',
    counts.flaky !== undefined ? `${counts.flaky} flaky` : '',
  ].filter(Boolean);
  const badge = {
    schemaVersion: 1,
    label: 'unhealthy tests',
    message: counts.unhealthy ? parts.join(', ') : 'none',
    color: failed ? 'red' : counts.broken ? 'orange' : counts.unhealthy ? 'yellow' : 'brightgreen',
  };
  await writeFile(path, `${JSON.stringify(badge)}\n`, 'utf8');
}

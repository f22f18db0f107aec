// Test collections and test cases, from the flaky-tests store: lists with their filters, one by id, a
// test's status history and runs, and linking a ticket to a test.
import type { V2 } from '../../../src/wire/v2/index.js';
import type { V2Context, V2Handlers } from '../call.js';
import { V2Error } from '../errors.js';
import {
  collectionIdOf,
  collectionView,
  statusHistoryOf,
  testCaseSummaryView,
  testCaseView,
  testRunsOf,
  type TestCaseEntry,
} from '../views/test-case.js';
import { testCaseListOf } from './test-case-list.js';
import {
  globMatches,
  refuseBranchesWithPullRequestOnly,
  requirePeriodWhereNeeded,
} from './test-case-rules.js';

type Routes =
  | 'testCollections.list'
  | 'testCollections.create'
  | 'testCollections.get'
  | 'testCases.get'
  | 'testCases.list'
  | 'testCases.listStatusHistory'
  | 'testCases.listTestRuns'
  | 'testCases.linkTicket';

export function entriesOf({ flakyTests }: V2Context): TestCaseEntry[] {
  return flakyTests.testCaseRecords().flatMap((records) => records.tests.map((t) => ({ records, ...t })));
}

function entryById(context: V2Context, id: string): TestCaseEntry {
  const entry = entriesOf(context).find((e) => e.test.id === id);
  if (!entry) throw new V2Error(404, 'TEST_CASE_NOT_FOUND', `No test case has the id ${id}`);
  return entry;
}

function collectionsOf(context: V2Context): V2<'TestCollection'>[] {
  const fromRepositories = context.flakyTests.testCaseRecords().map((records) => {
    const id = context.directory.repositoryId(records.repo);
    return collectionView(records, context.directory.repositoryById(id).firstSeenAt);
  });
  return [...fromRepositories, ...context.testCollections.all()];
}

function within(at: string, after: string | undefined, before: string | undefined): boolean {
  const ms = Date.parse(at);
  return (
    (after === undefined || ms >= Date.parse(after)) && (before === undefined || ms < Date.parse(before))
  );
}

export const testCaseHandlers: Pick<V2Handlers, Routes> = {
  'testCollections.list': (call, context) => {
    const q = call.query.q?.toLowerCase();
    const collections = collectionsOf(context).filter(
      (c) => q === undefined || c.name.toLowerCase().includes(q),
    );
    return call.page(
      collections.reverse(),
      (c) => c.id,
      (c) => c,
    );
  },
  'testCollections.create': (call, context) => context.testCollections.create(call.body),
  'testCollections.get': (call, context) => {
    const found = collectionsOf(context).find((c) => c.id === call.path.id);
    if (!found)
      throw new V2Error(404, 'TEST_COLLECTION_NOT_FOUND', `No test collection has the id ${call.path.id}`);
    return found;
  },
  'testCases.get': (call, context) => {
    requirePeriodWhereNeeded(call.query);
    return testCaseView(entryById(context, call.path.testCaseId), call.query.include === 'metrics');
  },
  'testCases.list': (call, context) => {
    requirePeriodWhereNeeded(call.query);
    const entries = testCaseListOf(entriesOf(context), call.query);
    return call.page(
      entries,
      (e) => e.test.id,
      (e) => testCaseSummaryView(e, call.query.include === 'metrics'),
    );
  },
  'testCases.listStatusHistory': (call, context) => {
    const { test } = entryById(context, call.path.testCaseId);
    const { startedAfter, startedBefore } = call.query;
    const history = statusHistoryOf(test).filter((h) => within(h.startedAt, startedAfter, startedBefore));
    return call.page(
      history,
      (h) => h.id,
      (h) => h,
    );
  },
  'testCases.listTestRuns': (call, context) => {
    refuseBranchesWithPullRequestOnly(call.query);
    const entry = entryById(context, call.path.testCaseId);
    const { conclusion, pullRequestOnly, quarantineState, startedAfter, startedBefore, branches } =
      call.query;
    const globs = branches?.split(',').map((b) => b.trim());
    const runs = testRunsOf(entry)
      .filter((run) => conclusion === undefined || run.conclusion === conclusion)
      .filter((run) => pullRequestOnly !== true || run.isPullRequest)
      .filter((run) => quarantineState === undefined || run.quarantineState === quarantineState)
      .filter((run) => globs === undefined || globs.some((glob) => globMatches(glob, run.branch)))
      .filter((run) => within(run.startedAt, startedAfter, startedBefore));
    return call.page(
      runs,
      (run) => run.id,
      (run) => run,
    );
  },
  'testCases.linkTicket': (call, context) =>
    linkTicket(context, call.path.testCaseId, call.body.externalTicketId),
};

function linkTicket(context: V2Context, testCaseId: string, ticketId: string): V2<'Ticket'> {
  // A test has one ticket: linking another replaces it, linking the same again changes nothing.
  const entry = entryById(context, testCaseId);
  context.flakyTests.linkTicketToTestCase({
    repo: { ...entry.records.repo },
    test_case_id: testCaseId,
    external_ticket_id: ticketId,
  });
  const url = entry.test.ticketUrl!;
  return {
    id: `${collectionIdOf(entry.records)}-${encodeURIComponent(ticketId)}`,
    provider: url.includes('linear.app') ? 'linear' : url.includes('asana') ? 'asana' : 'jiraCloud',
    key: ticketId,
    url,
    title: `Flaky test: ${entry.test.name}`,
    status: 'Open',
    assignee: null,
    syncedAt: new Date(context.engine.clock.now()).toISOString(),
  };
}

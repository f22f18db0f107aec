// The flaky-tests endpoints over v2's test cases: the unhealthy tests (testCases.list by status, with the
// last 7 days' metrics), the failing tests (by last failure, newest first), the quarantined tests (by
// quarantineState), each kept to the run's repository; a test's details; linking a ticket. v2's test cases
// have no web address and no failure messages, so a report over v2 names each test without a link and
// without its most common failures.
import type {
  FailingTest,
  Page,
  QuarantinedTest,
  QUARANTINED_TEST_STATUSES,
  RequestOf,
  UnhealthyTest,
} from '../../../wire/index.js';
import { toV1, type V2 } from '../../../wire/v2/index.js';
import type { WireAnswerOf } from '../typed-answers.js';
import { writeOnce } from './unknown-outcome.js';
import type { V2Session } from './session.js';
import type { Translations } from './translation.js';

const STATUS_V1: Record<V2<'TestStatus'>, (typeof QUARANTINED_TEST_STATUSES)[number]> = {
  healthy: 'HEALTHY',
  flaky: 'FLAKY',
  broken: 'BROKEN',
};

/** One page of the flaky or broken tests, as v1 listed them. */
async function listUnhealthy(
  s: V2Session,
  payload: RequestOf<'listUnhealthyTests'>,
): Promise<WireAnswerOf<'listUnhealthyTests'>> {
  const repositoryId = await s.ids.repositoryId(payload.repo);
  const { page_size, page_token } = payload.page_query;
  const status = payload.status.toLowerCase() as V2<'TestStatus'>;
  const { data } = await s.v2.call('testCases.list', {
    query: {
      status,
      include: 'metrics',
      period: '7d',
      limit: page_size,
      ...(page_token ? { cursor: page_token } : {}),
    },
  });
  const tests = data.data.filter((test) => test.repoId === repositoryId);
  return { tests: tests.map(unhealthyTestV1), page: pageV1(tests.length, data) };
}

function unhealthyTestV1(test: V2<'TestCaseSummary'>): UnhealthyTest {
  return {
    id: test.id,
    name: test.name,
    variant: test.variant,
    status: { value: test.status, ...(test.statusSince ? { timestamp: test.statusSince } : {}) },
    ...(test.file ? { file_path: test.file } : {}),
    ...(test.parentName ? { parent: test.parentName } : {}),
    ...(test.className ? { classname: test.className } : {}),
    codeowners: test.codeowners,
    pull_requests_impacted_last_7d: test.metrics?.prsImpacted ?? 0,
    quarantined: test.quarantineState === 'quarantined',
  };
}

/**
 * One page of the tests that failed between start_time and end_time. v2 lists tests by their last failure,
 * newest first, so the walk stops at the first test whose last failure is before the window; a test whose
 * last failure is after end_time is counted too (it may not have failed inside the window).
 */
async function listFailing(
  s: V2Session,
  payload: RequestOf<'listFailingTests'>,
): Promise<WireAnswerOf<'listFailingTests'>> {
  const repositoryId = await s.ids.repositoryId(payload.repo);
  const { page_size, page_token } = payload.page_query;
  const { data } = await s.v2.call('testCases.list', {
    query: {
      sort: 'lastFailureAt',
      direction: 'desc',
      include: 'metrics',
      period: '7d',
      limit: page_size,
      ...(page_token ? { cursor: page_token } : {}),
    },
  });
  const start = Date.parse(payload.start_time);
  const failedSince = (test: V2<'TestCaseSummary'>) => Date.parse(test.metrics?.lastFailureAt ?? '') >= start;
  const inWindow = data.data.filter(failedSince);
  const tests = inWindow.filter((test) => test.repoId === repositoryId);
  const more = inWindow.length === data.data.length ? data : { hasMore: false, nextCursor: null };
  return { tests: tests.map(failingTestV1), page: pageV1(tests.length, more) };
}

function failingTestV1(test: V2<'TestCaseSummary'>): FailingTest {
  const rate = test.metrics?.failureRate;
  return { ...unhealthyTestV1(test), ...(rate === undefined ? {} : { failure_rate_last_7d: rate }) };
}

/** A test's details: the test case with its failure rates over the last 7 days and the last day. */
async function testDetails(
  s: V2Session,
  payload: RequestOf<'getTestDetails'>,
): Promise<WireAnswerOf<'getTestDetails'>> {
  const path = { testCaseId: payload.test_id };
  const [week, day] = await Promise.all([
    s.v2.call('testCases.get', { path, query: { include: 'metrics', period: '7d' } }),
    s.v2.call('testCases.get', { path, query: { include: 'metrics', period: '1d' } }),
  ]);
  const dayRate = day.data.metrics?.failureRate;
  return {
    test: {
      ...failingTestV1(week.data),
      ...(dayRate === undefined ? {} : { failure_rate_last_24h: dayRate }),
    },
  };
}

/** v1's page of a v2 list: the cursor as the next page's token; an empty list has no page, as over v1. */
function pageV1(rows: number, list: { hasMore: boolean; nextCursor: string | null }): Page {
  const next = list.hasMore && list.nextCursor ? list.nextCursor : '';
  return {
    total_rows: rows,
    total_pages: next ? 2 : rows ? 1 : 0,
    page_index: 0,
    next_page_token: next,
    prev_page_token: '',
    last_page_token: '',
  };
}

async function listQuarantined(
  s: V2Session,
  payload: RequestOf<'listQuarantinedTests'>,
): Promise<WireAnswerOf<'listQuarantinedTests'>> {
  const repositoryId = await s.ids.repositoryId(payload.repo);
  const { page_size, page_token } = payload.page_query;
  const { data } = await s.v2.call('testCases.list', {
    query: {
      quarantineState: 'quarantined',
      limit: page_size,
      ...(page_token ? { cursor: page_token } : {}),
    },
  });
  const tests = data.data.filter((test) => test.repoId === repositoryId);
  return {
    quarantined_tests: await inBatches(tests, (test) => quarantinedTestV1(s, test)),
    page: pageV1(tests.length, data),
  };
}

/**
 * One quarantined test as v1 listed it. A list's test case does not say who quarantined it: its own read
 * does (an override a person set, else a monitor's automatic quarantine).
 */
async function quarantinedTestV1(s: V2Session, test: V2<'TestCaseSummary'>): Promise<QuarantinedTest> {
  const { data } = await s.v2.call('testCases.get', { path: { testCaseId: test.id } });
  const override = data.quarantineOverride?.mode === 'alwaysQuarantine' ? data.quarantineOverride : null;
  const quarantinedAt = override?.createdAt ?? test.statusSince ?? '';
  return {
    name: test.name,
    parent: test.parentName || null,
    file: test.file || null,
    classname: test.className || null,
    status: toV1(STATUS_V1, test.status),
    codeowners: test.codeowners,
    quarantine_setting: override ? 'ALWAYS_QUARANTINE' : 'AUTO_QUARANTINE',
    quarantined_at: quarantinedAt,
    status_last_updated_at: test.statusSince ?? quarantinedAt,
    test_case_id: test.id,
    variant: test.variant,
  };
}

/** `work` over every item, a few at a time (the organization's 100 requests a second are shared). */
async function inBatches<T, R>(items: T[], work: (item: T) => Promise<R>, size = 4): Promise<R[]> {
  const results: R[] = [];
  for (let at = 0; at < items.length; at += size) {
    results.push(...(await Promise.all(items.slice(at, at + size).map(work))));
  }
  return results;
}

async function linkTicket(
  s: V2Session,
  payload: RequestOf<'linkTicketToTestCase'>,
): Promise<WireAnswerOf<'linkTicketToTestCase'>> {
  const request = {
    path: { testCaseId: payload.test_case_id },
    body: { externalTicketId: payload.external_ticket_id },
  };
  // Linking the same ticket again changes nothing, so a lost answer is simply asked again.
  await writeOnce(() => s.v2.call('testCases.linkTicket', request), {
    name: 'linkTicketToTestCase',
    log: s.log,
    wasDone: () => Promise.resolve(false),
  });
  return {};
}

/** How v2 answers the flaky-tests endpoints (service-client.ts gathers every area's rows). */
export const FLAKY_TEST_TRANSLATIONS = {
  listUnhealthyTests: listUnhealthy,
  listFailingTests: listFailing,
  getTestDetails: testDetails,
  listQuarantinedTests: listQuarantined,
  linkTicketToTestCase: linkTicket,
} satisfies Translations;

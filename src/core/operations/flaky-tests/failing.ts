// list-failing-tests: the tests that failed in a window of at most 7 days (start-time inclusive,
// end-time exclusive; settings default and check the window before any request).
import type { ApiResponse } from '../../api/client.js';
import type { FailingTest } from '../../../wire/index.js';
import { unreachable } from '../../errors.js';
import { filledColumns } from '../../report/filled-columns.js';
import { Markdown } from '../../report/markdown.js';
import { plural } from '../../report/words.js';
import { LISTED_IN_DETAILS, rawResponse, repoLink, repoSlug } from '../common.js';
import type { Operation } from '../types.js';
import { followPages } from './pages.js';
import { writeReportFile } from './report-file.js';
import { REPOSITORY_NOT_FOUND, adviseOnNotFound, flakyRequestBase } from './requests.js';
import {
  firstRows,
  byImpact,
  listedTest,
  cell,
  percent,
  readTest,
  testLink,
  type TestView,
} from './tests.js';
import type { FlakyTestsSettings } from './inputs.js';

interface FailingTestView extends TestView {
  /** Undefined when the service did not say (v2 lists one period's rate). */
  failureRate7d?: number;
  failureRate24h?: number;
  mostCommonFailure: string;
}

export const listFailingTests: Operation<FlakyTestsSettings> = async (op) => {
  const { pageSize, maxPages, startTime, endTime } = op.settings;
  // The operation's settings always set the window (inputs.ts); the types only do not say so.
  if (!startTime || !endTime) unreachable('list-failing-tests ran without its window');
  const base = flakyRequestBase(op);
  let last: ApiResponse | undefined;
  const { items } = await followPages({
    label: 'list-failing-tests',
    pageSize,
    maxPages,
    fetchPage: (page_query, onAnswer) =>
      op.client
        .call(
          'listFailingTests',
          { ...base, start_time: startTime, end_time: endTime, page_query },
          { onAnswer },
        )
        .catch(adviseOnNotFound(REPOSITORY_NOT_FOUND)),
    onPage: (response) => (last = response),
  });
  const tests = items
    .map((raw) => ({ raw, view: readFailingTest(raw) }))
    .sort((a, b) => (b.view.failureRate7d ?? 0) - (a.view.failureRate7d ?? 0) || byImpact(a.view, b.view));
  const reportFile = await writeReportFile(op, 'failing-tests.json', {
    start_time: startTime,
    end_time: endTime,
    count: tests.length,
    tests: tests.map((test) => test.raw),
  });
  const { repo } = op.context;
  const summary = new Markdown()
    .heading(
      tests.length
        ? `❌ ${plural(tests.length, 'test')} failed in ${repoSlug(repo)} between ${minuteOf(startTime)} and ${minuteOf(endTime)}`
        : `✅ No test failed in ${repoSlug(repo)} between ${minuteOf(startTime)} and ${minuteOf(endTime)}`,
    )
    .paragraph(`Repository ${repoLink(repo)}; the window's end is excluded.`);
  if (tests.length) {
    const table = filledColumns(
      FAILING_HEADERS,
      firstRows(tests, ({ view }) => failingRow(view)),
    );
    summary
      .paragraph('Sorted by failure rate over the last 7 days.')
      .table(table.headers, table.rows, 'in report-file', tests.length);
  } else {
    summary.paragraph('No test failed in this window.');
  }
  return {
    outputs: { response: rawResponse(last), 'failing-count': tests.length, 'report-file': reportFile },
    summary,
    details: {
      kind: 'test-list',
      listing: 'failing',
      repo: repoSlug(repo),
      tests: tests.slice(0, LISTED_IN_DETAILS).map(({ view }) => listedTest(view)),
      total: tests.length,
      nowMs: last?.serverTimeMs ?? Date.now(),
    },
  };
};

const FAILING_HEADERS = [
  'Test',
  'Variant',
  'Status',
  'Failure rate 24h',
  'Failure rate 7d',
  'Most common failure',
  'PRs impacted (7d)',
];

function failingRow(view: FailingTestView): string[] {
  const shown = (value: number | undefined) => (value === undefined ? '' : percent(value));
  return [
    testLink(view),
    cell(view.variant),
    cell(view.status),
    shown(view.failureRate24h),
    shown(view.failureRate7d),
    cell(view.mostCommonFailure),
    String(view.pullRequestsImpacted),
  ];
}

/** A failure rate as the service gave it; undefined when it gave none. */
function knownRate(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function readFailingTest(raw: FailingTest): FailingTestView {
  const first = raw.most_common_failures?.[0];
  return {
    ...readTest(raw),
    failureRate7d: knownRate(raw.failure_rate_last_7d),
    failureRate24h: knownRate(raw.failure_rate_last_24h),
    mostCommonFailure: first ? `${first.summary} (${first.occurrence_count}×)` : '',
  };
}

/** "2026-11-16 13:03 UTC" for an ISO time; anything else as given. */
function minuteOf(time: string): string {
  const ms = Date.parse(time);
  return Number.isNaN(ms) ? time : `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

// Flaky tests in a terminal: the quarantine gate's verdict in one line and each failed test with its
// verdict, file and owners; the listings (unhealthy, quarantined, failing) as a count and a table.
import {
  type CheckedFailure,
  formatDaysSince,
  plural,
  type TestListDetails,
  type TestResultsDetails,
  VERDICT_LABELS,
} from '../../core/index.js';
import type { Cell, Column, Page } from './page.js';
import type { Tone } from './style.js';

const ROWS_SHOWN = 25;

export function presentTestResults(page: Page, { gate }: TestResultsDetails): void {
  const failing = gate.failures.filter((failure) => failure.failsStep);
  const quarantined = gate.failures.filter((failure) => failure.verdict === 'quarantined');
  const total = gate.failures.length;
  const [line, tone] = gateOutcome(
    gate.outage,
    gate.onServiceError,
    total,
    failing.length,
    quarantined.length,
  );
  page.outcome(line, tone);
  page.facts([
    ['Ran', `${plural(gate.cases, 'test case')} in ${plural(gate.reports, 'report')}`],
    ['Passed on retry', gate.passedOnRetry || undefined],
    ['Fails the step', gate.failOnVerdicts.map((verdict) => VERDICT_LABELS[verdict]).join(', ')],
    ['Service', gate.outage ? { text: `not reached: ${gate.outage}`, tone: 'bad' } : undefined],
  ]);
  if (!total) return;
  // Those that fail the step first, the quarantined last.
  const ordered = [
    ...failing,
    ...gate.failures.filter((failure) => !failure.failsStep && failure.verdict !== 'quarantined'),
    ...quarantined,
  ];
  page.table(
    `Failed tests (${total})`,
    [
      { title: 'Test', max: 50 },
      { title: 'Verdict' },
      { title: 'Where', max: 40 },
      { title: 'Owners', max: 24 },
    ],
    ordered
      .slice(0, ROWS_SHOWN)
      .map((failure) => [
        testName(failure),
        verdictCell(failure),
        failure.test.line ? `${failure.test.file}:${failure.test.line}` : failure.test.file,
        failure.owners.join(', '),
      ]),
    total,
  );
}

function gateOutcome(
  outage: string | undefined,
  onServiceError: string,
  total: number,
  failing: number,
  quarantined: number,
): [string, Tone] {
  if (outage) {
    return [
      `${plural(total, 'failed test')} not checked: the flaky-tests service could not be reached`,
      onServiceError === 'fail' ? 'bad' : 'waiting',
    ];
  }
  if (!total) return ['No test failed', 'good'];
  if (failing)
    return [
      `${failing} of ${plural(total, 'failed test')} ${failing === 1 ? 'fails' : 'fail'} this step`,
      'bad',
    ];
  if (quarantined === total) return [`${plural(total, 'failed test')}, all quarantined`, 'good'];
  return [`${plural(total, 'failed test')}, none that fails this step (${quarantined} quarantined)`, 'good'];
}

function testName({ test }: CheckedFailure): string {
  return test.classname && !test.name.includes(test.classname)
    ? `${test.classname} › ${test.name}`
    : test.name;
}

function verdictCell(failure: CheckedFailure): Cell {
  if (failure.verdict === 'unchecked') return { text: 'not checked', tone: 'waiting' };
  const tone: Tone = failure.failsStep ? 'bad' : failure.verdict === 'quarantined' ? 'muted' : 'waiting';
  return { text: VERDICT_LABELS[failure.verdict], tone };
}

const LISTING_WORDS: Record<TestListDetails['listing'], string> = {
  unhealthy: 'unhealthy',
  quarantined: 'quarantined',
  failing: 'failing',
};

export function presentTestList(page: Page, details: TestListDetails): void {
  const { listing, total, counts } = details;
  const words = LISTING_WORDS[listing];
  if (!total) {
    page.outcome(`No ${words} test in ${details.repo}`, 'good');
    return;
  }
  const split =
    listing === 'unhealthy' && counts
      ? `: ${[counts.flaky !== undefined && `${counts.flaky} flaky`, counts.broken !== undefined && `${counts.broken} broken`, `${counts.quarantined} quarantined`].filter(Boolean).join(', ')}`
      : '';
  page.outcome(
    `${plural(total, 'test')} ${words} in ${details.repo}${split}`,
    listing === 'quarantined' ? 'waiting' : 'bad',
  );
  const columns: Column[] = [
    { title: 'Test', max: 50 },
    { title: 'Status' },
    { title: listing === 'quarantined' ? 'Quarantined' : 'Since', align: 'right' },
    {
      title: listing === 'quarantined' ? 'File' : 'PRs (7d)',
      align: listing === 'quarantined' ? 'left' : 'right',
      max: 40,
    },
    { title: 'Owners', max: 24 },
  ];
  page.table(
    listing === 'unhealthy' ? 'Most PRs impacted first' : 'Tests',
    columns,
    details.tests.slice(0, ROWS_SHOWN).map((test) => [
      test.variant ? `${test.name} [${test.variant}]` : test.name,
      { text: test.status, tone: statusTone(test.status) },
      // In days, as the nightly report's summary says it: "22 days", not "549h 19m".
      test.since ? formatDaysSince(test.since, details.nowMs) : '',
      listing === 'quarantined' ? (test.file ?? '') : (test.pullRequestsImpacted ?? ''),
      test.owners.join(', '),
    ]),
    total,
  );
}

function statusTone(status: string): Tone {
  const lower = status.toLowerCase();
  if (lower === 'broken') return 'bad';
  if (lower === 'flaky') return 'waiting';
  if (lower === 'healthy') return 'good';
  return 'plain';
}

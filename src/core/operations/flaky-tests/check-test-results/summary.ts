// The gate's job summary: the outcome in one line, what failed the step in its own table, a chart of the
// failures per owning team (the checkout's CODEOWNERS), the rest collapsed.
import { Markdown, escapeMarkdown } from '../../../report/markdown.js';
import { plural } from '../../../report/words.js';
import { CHART_COLOURS, horizontalBarChart } from '../../../report/chart.js';
import type { OperationContext } from '../../types.js';
import { cell, owners, testLink } from '../tests.js';
import type { CheckTestResultsSettings, OnServiceError } from './inputs.js';
import type { TestCaseResult } from './results.js';
import { VERDICT_LABELS, type Verdict } from './verdicts.js';

export interface CheckedFailure {
  test: TestCaseResult;
  verdict: Verdict | 'unchecked';
  failsStep: boolean;
  owners: string[];
  /** The service's page for the test, when it knows one (for its link). */
  htmlUrl?: string;
}

export interface GateOutcome {
  cases: number;
  reports: number;
  passedOnRetry: number;
  failures: CheckedFailure[];
  outage?: string;
  onServiceError: OnServiceError;
  failOnVerdicts: Verdict[];
  quarantinedKnown?: number;
  codeOwnersSource?: string;
}

const ROWS_SHOWN = 25;
const MAX_TEAMS = 8;

export function summarizeGate(
  op: OperationContext<CheckTestResultsSettings>,
  outcome: GateOutcome,
): Markdown {
  const { failures, outage } = outcome;
  const failing = failures.filter((failure) => failure.failsStep);
  const quarantined = failures.filter((failure) => failure.verdict === 'quarantined');
  const others = failures.filter((failure) => !failure.failsStep && failure.verdict !== 'quarantined');
  const summary = new Markdown().heading(headline(outcome, failing.length, quarantined.length));
  const ran = `${plural(outcome.cases, 'test case')} in ${plural(outcome.reports, 'report')}${outcome.passedOnRetry ? `; ${outcome.passedOnRetry} passed on a retry` : ''}.`;
  if (outage) {
    summary.paragraph(
      `**The flaky-tests service could not be reached**, so no failure was checked against the quarantine (on-service-error: \`${outcome.onServiceError}\`). ${escapeMarkdown(outage)}`,
    );
  } else if (failures.length) {
    const counts = (['quarantined', 'known-flaky', 'failing-on-target', 'new'] as const)
      .map((verdict) => [verdict, failures.filter((failure) => failure.verdict === verdict).length] as const)
      .filter(([, count]) => count > 0)
      .map(([verdict, count]) => `${count} ${VERDICT_LABELS[verdict]}`);
    const decided = failing.length
      ? `\`fail-on-verdict: ${outcome.failOnVerdicts.join(',')}\` failed this step.`
      : `Nothing in \`fail-on-verdict: ${outcome.failOnVerdicts.join(',')}\` failed.`;
    summary.paragraph(
      `${decided} Of ${plural(failures.length, 'failed test')}: ${counts.join(', ')}. ${ran}`,
    );
  } else {
    summary.paragraph(ran);
  }
  const chart = teamChart(failures);
  if (chart) summary.mermaid(chart);
  if (failing.length) {
    summary
      .heading(`Failed this step (${failing.length})`, 3)
      .table(HEADERS, failing.slice(0, ROWS_SHOWN).map(row), 'in report-file', failing.length);
  }
  if (others.length) {
    const title = outage ? `Not checked (${others.length})` : `Not failing this step (${others.length})`;
    summary
      .heading(title, 3)
      .table(HEADERS, others.slice(0, ROWS_SHOWN).map(row), 'in report-file', others.length);
  }
  if (quarantined.length) {
    summary.details(
      `Quarantined: ${plural(quarantined.length, 'failure')} kept from failing the step`,
      new Markdown()
        .table(HEADERS, quarantined.slice(0, ROWS_SHOWN).map(row), 'in report-file', quarantined.length)
        .toString(),
    );
  }
  return summary;
}

function headline(outcome: GateOutcome, failing: number, quarantined: number): string {
  const total = outcome.failures.length;
  if (outcome.outage) {
    return outcome.onServiceError === 'fail'
      ? `❌ ${plural(total, 'failed test')} not checked: the flaky-tests service could not be reached`
      : `⚠️ ${plural(total, 'failed test')} not checked: the flaky-tests service could not be reached (passed with a warning)`;
  }
  if (!total) return `✅ No test failed`;
  if (failing)
    return `❌ ${failing} of ${plural(total, 'failed test')} ${failing === 1 ? 'fails' : 'fail'} this step`;
  if (quarantined === total)
    return `✅ ${plural(total, 'failed test')}, ${total === 1 ? 'quarantined' : 'all quarantined'}`;
  return `✅ ${plural(total, 'failed test')}, none that fails this step (${quarantined} quarantined)`;
}

const HEADERS = ['Test', 'Verdict', 'Owner', 'File', 'Message'];

function row(failure: CheckedFailure): string[] {
  const { test, htmlUrl } = failure;
  const name =
    test.classname && !test.name.includes(test.classname) ? `${test.classname} › ${test.name}` : test.name;
  return [
    testLink({ name, id: '', htmlUrl: htmlUrl || undefined }),
    failure.verdict === 'unchecked' ? 'not checked' : escapeMarkdown(VERDICT_LABELS[failure.verdict]),
    owners(failure.owners),
    cell(test.line ? `${test.file}:${test.line}` : test.file),
    cell(test.message),
  ];
}

/** Failures per owning team: all of a team's failures, with those that fail the step drawn over them. */
function teamChart(failures: CheckedFailure[]): string {
  if (failures.length < 2 || !failures.some((failure) => failure.owners.length)) return '';
  const byTeam = new Map<string, { all: number; failing: number }>();
  for (const failure of failures) {
    const team = failure.owners[0] ?? '(no owner)';
    const counts = byTeam.get(team) ?? { all: 0, failing: 0 };
    counts.all++;
    if (failure.failsStep) counts.failing++;
    byTeam.set(team, counts);
  }
  const teams = [...byTeam].sort(([a, x], [b, y]) => y.all - x.all || a.localeCompare(b)).slice(0, MAX_TEAMS);
  return horizontalBarChart({
    title: 'Failed tests by owning team (red: fail this step, amber: do not)',
    categories: teams.map(([team]) => team),
    series: [
      { values: teams.map(([, c]) => c.all), colour: CHART_COLOURS.warning },
      { values: teams.map(([, c]) => c.failing), colour: CHART_COLOURS.failure },
    ],
    valueLabel: 'tests',
    countWords: (i) => `${teams[i]![1].failing} of ${teams[i]![1].all}`,
  });
}

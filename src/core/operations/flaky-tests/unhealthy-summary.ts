// The nightly report's job summary, read top down in three screens: the outcome in one line, a chart of
// the unhealthy tests per owning team, the tests that tripped fail-on in their own table, the top tests
// by pull requests impacted, and every test collapsed. The collapsed table degrades in stages so that
// the summary stays under the platform's 1 MiB: first the detail columns go, then rows, with a line that
// says the full data is in report-file.
import { SUMMARY_BYTE_BUDGET, Markdown, escapeMarkdown } from '../../report/markdown.js';
import { overlaidBarChart } from '../../report/chart.js';
import { repoSlug } from '../common.js';
import type { OperationContext } from '../types.js';
import type { FailOn, FlakyTestsSettings } from './inputs.js';
import { TEST_TABLE_HEADERS, owners, testLink, testTableRow, ticketLink, type TestView } from './tests.js';

export interface UnhealthyCounts {
  unhealthy: number;
  /** undefined when that status was not fetched (test-status left it out) */
  flaky?: number;
  broken?: number;
  quarantined: number;
}

/** A line of a markdown table, and its size in UTF-8. */
interface TableLine {
  text: string;
  bytes: number;
}

/** A test's line in the collapsed table of every test, in each of its stages (markdown, escaped). */
export interface TestLines {
  full: TableLine;
  brief: TableLine;
}

/**
 * A test with what the summary shows of it, made as its page arrived (while the next one is on its way),
 * so that the summary at the end only counts and picks.
 */
export type ReportedTest = TestView & { lines: TestLines; team: string };

export function reportedTest(test: TestView): ReportedTest {
  const full = testTableRow(test);
  // Not `{ ...test, lines, team }`: V8 gives objects made by a spread with more fields after it a shape
  // whose fields read several times slower, and sorting a report reads them some fifteen times a test.
  return Object.assign({}, test, {
    lines: { full: tableLine(full), brief: tableLine(briefRow(test, full)) },
    team: teamOf(test),
  });
}

/** Unhealthy tests per owning team (the first of each test's codeowners), counted as they arrive. */
export class TeamCounts {
  readonly byTeam = new Map<string, { all: number; broken: number }>();

  add(test: ReportedTest): void {
    let counts = this.byTeam.get(test.team);
    if (!counts) this.byTeam.set(test.team, (counts = { all: 0, broken: 0 }));
    counts.all++;
    if (test.status === 'broken') counts.broken++;
  }
}

export interface ReportInput {
  /** Most impactful first. */
  tests: ReportedTest[];
  /** Of the same tests. */
  teams: TeamCounts;
  counts: UnhealthyCounts;
  failOn: FailOn;
  maxUnhealthy: number;
  failure?: string;
  reportFile: string;
  /** For "3 days": the time of the report. */
  now: number;
}

const TOP_ROWS = 10;
const MAX_TEAMS = 8;
/** Room kept for the lines after the collapsed table and the host's own additions. */
const RESERVED_BYTES = 4 * 1024;

/** The collapsed table's stages, from the fullest to the fewest rows (cells are cut, so some always fit). */
export type DetailStage = 'full' | 'no-detail-columns' | 'fewer-rows';

export function summarizeUnhealthy(
  op: OperationContext<FlakyTestsSettings>,
  report: ReportInput,
): { summary: Markdown; stage: DetailStage } {
  const { tests, counts, failOn, failure } = report;
  const summary = new Markdown().heading(outcomeLine(op, counts, failure !== undefined));
  summary.paragraph(thresholdLine(report));
  if (!tests.length) return { summary: summary.paragraph('No flaky or broken tests.'), stage: 'full' };

  const chart = teamChart(report.teams);
  if (chart) summary.paragraph(chart);

  const tripped = failure ? tests.filter((test) => tripsFailOn(test, failOn)) : [];
  if (tripped.length) {
    summary.heading(`${statusTitle(failOn)} (${tripped.length}): why this step failed`, 3).table(
      ['Test', 'Owner', `${sinceLabel(failOn)} since`, 'PRs hit (7d)', 'Quarantined', 'Ticket'],
      tripped.slice(0, TOP_ROWS).map((test) => topRow(test, report.now)),
      'in report-file and below',
      tripped.length,
    );
  }
  const rest = tripped.length ? tests.filter((test) => !tripsFailOn(test, failOn)) : tests;
  if (rest.length) {
    const title = tripped.length
      ? `${restTitle(failOn)}: top ${TOP_ROWS} by PRs impacted`
      : `Top ${TOP_ROWS} by PRs impacted`;
    summary.heading(title, 3).table(
      ['Test', 'Status', 'Owner', 'Since', 'PRs hit (7d)', 'Quarantined', 'Ticket'],
      rest.slice(0, TOP_ROWS).map((test) => {
        const [name, ...cells] = topRow(test, report.now);
        return [name!, escapeMarkdown(test.status), ...cells];
      }),
      'below',
      rest.length,
    );
  }
  const stage = allTests(summary, report);
  return { summary, stage };
}

function outcomeLine(
  op: OperationContext<FlakyTestsSettings>,
  counts: UnhealthyCounts,
  failed: boolean,
): string {
  const parts = [
    counts.broken !== undefined ? `${counts.broken} broken` : '',
    counts.flaky !== undefined ? `${counts.flaky} flaky` : '',
  ].filter(Boolean);
  const icon = failed ? '❌' : counts.unhealthy ? '⚠️' : '✅';
  return `${icon} ${parts.join(' · ')} tests in ${repoSlug(op.context.repo)}`;
}

function thresholdLine(report: ReportInput): string {
  const { counts, failOn, maxUnhealthy, failure } = report;
  const quarantined = `${counts.quarantined} of the ${counts.unhealthy} are quarantined.`;
  const notFetched = [counts.flaky === undefined ? 'flaky' : '', counts.broken === undefined ? 'broken' : '']
    .filter(Boolean)
    .map((status) => ` ${status[0]!.toUpperCase()}${status.slice(1)} tests: not fetched (test-status).`)
    .join('');
  if (failure) {
    const count =
      failOn === 'any' ? counts.unhealthy : failOn === 'flaky' ? (counts.flaky ?? 0) : (counts.broken ?? 0);
    const what = failOn === 'any' ? 'unhealthy' : failOn;
    return `\`fail-on: ${failOn}\` failed this step: ${count} ${what} tests, allowed ${maxUnhealthy}. ${quarantined}${notFetched}`;
  }
  const threshold = failOn === 'none' ? '' : ` Within \`fail-on: ${failOn}\` (allowed ${maxUnhealthy}).`;
  return `${quarantined}${threshold}${notFetched}`;
}

function tripsFailOn(test: TestView, failOn: FailOn): boolean {
  return failOn === 'any' || test.status === failOn;
}

function statusTitle(failOn: FailOn): string {
  return failOn === 'any' ? 'Unhealthy' : failOn === 'broken' ? 'Broken' : 'Flaky';
}

function restTitle(failOn: FailOn): string {
  return failOn === 'broken' ? 'Flaky' : failOn === 'flaky' ? 'Broken' : 'Others';
}

function sinceLabel(failOn: FailOn): string {
  return failOn === 'broken' ? 'Failing' : failOn === 'flaky' ? 'Flaky' : 'Unhealthy';
}

function topRow(test: TestView, now: number): string[] {
  return [
    testLink(test),
    owners(test.codeowners.slice(0, 1)),
    since(test.statusSince, now),
    String(test.pullRequestsImpacted),
    test.quarantined ? 'yes' : 'no',
    ticketLink(test.ticketUrl) || 'none',
  ];
}

function since(timestamp: string | undefined, now: number): string {
  const at = timestamp ? Date.parse(timestamp) : NaN;
  if (Number.isNaN(at)) return '';
  const days = Math.floor((now - at) / (24 * 3600 * 1000));
  return days <= 0 ? 'today' : days === 1 ? '1 day' : `${days} days`;
}

/** The team a test counts for in the chart: the first of its codeowners, without the organization. */
function teamOf(test: TestView): string {
  return (test.codeowners[0] ?? '(no owner)').replace(/^@[^/]+\//, '');
}

/** Unhealthy tests per owning team, broken drawn over the total. */
function teamChart(teams: TeamCounts): string {
  const ranked = [...teams.byTeam].sort(([a, x], [b, y]) => y.all - x.all || a.localeCompare(b));
  const shown = ranked.slice(0, MAX_TEAMS);
  const others = ranked.slice(MAX_TEAMS);
  if (others.length) {
    shown.push([
      `${others.length} other teams`,
      others.reduce((sum, [, c]) => ({ all: sum.all + c.all, broken: sum.broken + c.broken }), {
        all: 0,
        broken: 0,
      }),
    ]);
  }
  return overlaidBarChart({
    title: 'Unhealthy tests by owning team (dark - broken)',
    categories: shown.map(([team]) => team),
    series: [{ values: shown.map(([, c]) => c.all) }, { values: shown.map(([, c]) => c.broken) }],
    yLabel: 'tests',
  });
}

/** Every test, collapsed, in the fullest stage that fits the rest of the budget. */
function allTests(summary: Markdown, report: ReportInput): DetailStage {
  const { tests, reportFile } = report;
  const budget = SUMMARY_BYTE_BUDGET - summary.byteLength() - RESERVED_BYTES;
  const title = `All ${tests.length} tests (also in report-file)`;
  const full = fittingTable(TEST_TABLE_HEADERS, tests, (test) => test.lines.full, budget);
  if (full.shown === tests.length) {
    summary.details(title, full.markdown());
    return 'full';
  }
  // Reason and variant are the wordiest columns: without them most tables fit.
  const brief = fittingTable(BRIEF_HEADERS, tests, (test) => test.lines.brief, budget);
  const where = `The full data, every test with every field, is in report-file (\`${escapeMarkdown(reportFile)}\`; upload it as an artifact).`;
  if (brief.shown === tests.length) {
    summary.details(title, brief.markdown());
    return 'no-detail-columns';
  }
  summary
    .details(title, `${brief.markdown()}\n\n_${tests.length - brief.shown} more in report-file._`)
    .paragraph(where);
  return 'fewer-rows';
}

const BRIEF_HEADERS = ['Test', 'Status', 'Owner', 'PRs impacted (7d)', 'Quarantined', 'Ticket'];

/** The brief row takes the cells it shares with the full row (TEST_TABLE_HEADERS) from it, made once. */
function briefRow(test: TestView, full: string[]): string[] {
  const [link, , , , , impacted, quarantined, ticket] = full;
  return [
    link!,
    escapeMarkdown(test.status),
    owners(test.codeowners.slice(0, 1)),
    impacted!,
    quarantined!,
    ticket!,
  ];
}

function tableLine(cells: string[]): TableLine {
  const text = `| ${cells.join(' | ')} |`;
  return { text, bytes: Buffer.byteLength(text) };
}

/** As many rows as fit in `budget` bytes: the table as markdown, made only when asked for. */
function fittingTable(
  headers: string[],
  tests: ReportedTest[],
  lineOf: (test: ReportedTest) => TableLine,
  budget: number,
): { markdown: () => string; shown: number } {
  const head = [tableLine(headers), tableLine(headers.map(() => '---'))];
  let bytes = head[0]!.bytes + head[1]!.bytes + 1 + 200;
  let shown = 0;
  for (const test of tests) {
    bytes += lineOf(test).bytes + 1;
    if (bytes > budget) break;
    shown++;
  }
  const markdown = () => [...head, ...tests.slice(0, shown).map(lineOf)].map((line) => line.text).join('\n');
  return { markdown, shown };
}

// The nightly report's job summary, whose first screen answers "what should my team fix first": the
// outcome in one line, what changed since yesterday, the unhealthy tests per owning team (a chart and the
// same numbers as a table), the tests that tripped fail-on, the top tests by pull requests impacted, and
// where the full list is. Every section is cut to its head, so that the summary stays within
// UNHEALTHY_SUMMARY_BYTES however many tests the organization has; the report files hold every test.
import { formatDaysSince } from '../../report/duration.js';
import { filledColumns } from '../../report/filled-columns.js';
import { Markdown, escapeMarkdown } from '../../report/markdown.js';
import { CHART_COLOURS, horizontalBarChart } from '../../report/chart.js';
import { plural } from '../../report/words.js';
import type { FailOn } from './inputs.js';
import { cell, owners, testLink, ticketLink, type TestView } from './tests.js';
import { listingStage, type ListingStage } from './unhealthy-listing.js';

/** A summary a person opens, far below GitHub's 1 MiB past which the host drops the whole summary. */
export const UNHEALTHY_SUMMARY_BYTES = 200 * 1024;

export interface UnhealthyCounts {
  unhealthy: number;
  /** undefined when that status was not fetched (test-status left it out) */
  flaky?: number;
  broken?: number;
  quarantined: number;
}

/** A test with the team it counts for in the chart. */
export type ReportedTest = TestView & { team: string };

export function reportedTest(test: TestView): ReportedTest {
  // Not `{ ...test, team }`: V8 gives objects made by a spread with more fields after it a shape whose
  // fields read several times slower, and sorting a report reads them some fifteen times a test.
  return Object.assign({}, test, { team: teamOf(test) });
}

/** Unhealthy tests per owning team, and those that took their status lately, counted as they arrive. */
export class TeamCounts {
  readonly byTeam = new Map<string, { all: number; broken: number }>();
  /** Tests that turned flaky or broken in the day before `recentSinceMs`, by status. */
  readonly recent = { flaky: 0, broken: 0 };
  /** Whether the service said when any test took its status. */
  sawStatusTimes = false;

  constructor(private readonly recentSinceMs = Number.NaN) {}

  add(test: ReportedTest): void {
    let counts = this.byTeam.get(test.team);
    if (!counts) this.byTeam.set(test.team, (counts = { all: 0, broken: 0 }));
    counts.all++;
    if (test.status === 'broken') counts.broken++;
    const since = test.statusSince ? Date.parse(test.statusSince) : Number.NaN;
    if (Number.isNaN(since)) return;
    this.sawStatusTimes = true;
    if (since >= this.recentSinceMs && (test.status === 'broken' || test.status === 'flaky'))
      this.recent[test.status]++;
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
  /** Where every test is: the JSON report file and the same tests as CSV. */
  reportFile: string;
  csvFile: string;
  /** For "3 days": the time of the report. */
  now: number;
}

const TOP_ROWS = 10;
/** A name a person reads at a glance; the collapsed list below has it whole. */
const HEADLINE_NAME_CHARS = 100;
const TOP_HEADERS = ['Test', 'Status', 'Owner', 'Since', 'PRs hit (7d)', 'Quarantined', 'Ticket'];
const MAX_TEAMS = 8;

export function summarizeUnhealthy(
  repoSlug: string,
  report: ReportInput,
): { summary: Markdown; listing: ListingStage } {
  const { tests, counts, failOn, failure } = report;
  const summary = new Markdown().heading(outcomeLine(repoSlug, counts, failure !== undefined));
  summary.paragraph([thresholdLine(report), changedLine(report.teams)].filter(Boolean).join(' '));
  if (!tests.length) {
    summary.paragraph('No flaky or broken tests.');
    return { summary, listing: { shown: 0, total: 0, brief: false } };
  }
  teamSection(summary, report.teams);

  const tripped = failure ? tests.filter((test) => tripsFailOn(test, failOn)) : [];
  if (tripped.length) {
    const title = `${statusTitle(failOn)} (${tripped.length}): why this step failed`;
    topTable(summary.heading(title, 3), tripped, report.now);
  }
  const rest = tripped.length ? tests.filter((test) => !tripsFailOn(test, failOn)) : tests;
  if (rest.length) {
    const title = tripped.length
      ? `${restTitle(failOn)} (${rest.length}): top ${TOP_ROWS} by PRs impacted`
      : `Top ${TOP_ROWS} by PRs impacted`;
    topTable(summary.heading(title, 3), rest, report.now);
  }
  return { summary, listing: listingStage(summary, report, UNHEALTHY_SUMMARY_BYTES) };
}

function outcomeLine(repoSlug: string, counts: UnhealthyCounts, failed: boolean): string {
  const parts = [
    counts.broken !== undefined ? `${counts.broken} broken` : '',
    counts.flaky !== undefined ? `${counts.flaky} flaky` : '',
  ].filter(Boolean);
  const icon = failed ? '❌' : counts.unhealthy ? '⚠️' : '✅';
  return `${icon} ${parts.join(' · ')} tests in ${repoSlug}`;
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

/** What changed in the last day, from when the service says each test took its status; '' when it never says. */
function changedLine(teams: TeamCounts): string {
  if (!teams.sawStatusTimes) return '';
  const { broken, flaky } = teams.recent;
  if (!broken && !flaky) return '**Since yesterday:** no test turned broken or flaky.';
  const parts = [
    broken ? `${plural(broken, 'test')} turned broken` : '',
    flaky ? `${plural(flaky, 'test')} turned flaky` : '',
  ];
  return `**Since yesterday:** ${parts.filter(Boolean).join(', ')}.`;
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

/** The first tests of a section, most impactful first; columns no shown test fills are left out. */
function topTable(summary: Markdown, tests: ReportedTest[], now: number): void {
  const first = tests.slice(0, TOP_ROWS);
  const rows = first.map((test) => [
    testLink(test, HEADLINE_NAME_CHARS),
    escapeMarkdown(test.status),
    owners(test.codeowners.slice(0, 1)),
    formatDaysSince(test.statusSince, now),
    String(test.pullRequestsImpacted),
    test.quarantined ? 'yes' : 'no',
    ticketLink(test.ticketUrl),
  ]);
  // A section of one status does not repeat it on every row.
  const oneStatus = new Set(first.map((test) => test.status)).size === 1;
  const shown = filledColumns(
    TOP_HEADERS,
    rows.map((row) => (oneStatus ? row.map((cell, index) => (index === 1 ? '' : cell)) : row)),
  );
  summary.table(shown.headers, shown.rows, 'in the report files', tests.length);
}

/** The team a test counts for in the chart: the first of its codeowners, without the organization. */
function teamOf(test: TestView): string {
  return (test.codeowners[0] ?? '(no owner)').replace(/^@[^/]+\//, '');
}

/** Unhealthy tests per owning team: a chart, broken drawn over the total, and the same numbers as a table. */
function teamSection(summary: Markdown, teams: TeamCounts): void {
  const ranked = [...teams.byTeam].sort(([a, x], [b, y]) => y.all - x.all || a.localeCompare(b));
  const shown = ranked.slice(0, MAX_TEAMS);
  const others = ranked.slice(MAX_TEAMS);
  if (others.length) {
    const sum = others.reduce(
      (total, [, c]) => ({ all: total.all + c.all, broken: total.broken + c.broken }),
      {
        all: 0,
        broken: 0,
      },
    );
    shown.push([`${others.length} other teams`, sum]);
  }
  summary.mermaid(
    horizontalBarChart({
      title: 'Unhealthy tests by owning team (red: broken, amber: flaky)',
      categories: shown.map(([team]) => team),
      series: [
        { values: shown.map(([, c]) => c.all), colour: CHART_COLOURS.warning },
        { values: shown.map(([, c]) => c.broken), colour: CHART_COLOURS.failure },
      ],
      valueLabel: 'tests',
      countWords: (i) => `${shown[i]![1].broken} of ${shown[i]![1].all}`,
    }),
  );
  summary.table(
    ['Team', 'Broken', 'Flaky', 'All'],
    shown.map(([team, c]) => [cell(team), String(c.broken), String(c.all - c.broken), String(c.all)]),
  );
}

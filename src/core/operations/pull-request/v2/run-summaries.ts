// The summaries of verification runs: a list (the latest first, each with its outcome, when and how
// long) and one run (its outcome, the first failing required check, every check required first).
import type { V2 } from '../../../../wire/v2/index.js';
import { formatDuration, timeSince } from '../../../report/duration.js';
import { filledColumns } from '../../../report/filled-columns.js';
import { Markdown, codeSpan, escapeMarkdown, link } from '../../../report/markdown.js';
import { plural } from '../../../report/words.js';
import { missingRequired, type RunCheck } from './checks.js';
import { requiredFromWords, runStatusWords } from './words.js';

type Run = V2<'VerificationRun'>;

const RUN_ICONS: Record<string, string> = {
  succeeded: '✅',
  failed: '❌',
  cancelled: '🚫',
  inProgress: '🕒',
};

function icon(status: string): string {
  return RUN_ICONS[status] ?? '❔';
}

/** "12m ago"; '' when the time is not one. */
export function ago(timestamp: unknown, nowMs: number): string {
  const since = timeSince(timestamp, nowMs);
  return since === 'just now' || !since ? since : `${since} ago`;
}

/** How long a run took, or has been running: "took 4m 30s", "running for 2m". */
function runTime(run: Run, nowMs: number): string {
  const start = Date.parse(run.createdAt);
  if (Number.isNaN(start)) return '';
  if (run.status === 'inProgress') return `running for ${formatDuration(nowMs - start)}`;
  const end = Date.parse(run.updatedAt);
  return Number.isNaN(end) ? '' : `took ${formatDuration(end - start)}`;
}

const prList = (prs: { number: number }[]) => prs.map((pr) => `#${pr.number}`).join(', ');

/** A run as a person reads it, in plain text: the summary escapes it, a terminal shows it. */
export interface RunRow {
  id: string;
  /** v2's status value: inProgress, failed, cancelled, succeeded. */
  status: string;
  outcome: string;
  bisection: boolean;
  started: string;
  time: string;
  testedPrs: string;
  failedChecks: string;
}

export function runRows(runs: Run[], nowMs: number): RunRow[] {
  return runs.map((run) => ({
    id: run.id,
    status: run.status,
    outcome: runStatusWords(run.status),
    bisection: run.isBisection,
    started: ago(run.createdAt, nowMs),
    time: runTime(run, nowMs),
    testedPrs: prList(run.testedPullRequests),
    failedChecks: run.checks
      .filter((c) => c.status === 'completed' && ['failure', 'timeout', 'cancelled'].includes(c.conclusion))
      .map((c) => c.name.slice(0, 100))
      .join(', '),
  }));
}

/**
 * "The latest verification run of PR #7 failed (started 3m ago; 2 runs)", or that there is none yet. Our own
 * words around `whose`, which the caller gives as the text or the markdown it needs.
 */
export function runsHeading(
  runs: Run[],
  whose: string,
  status: string | undefined,
  nowMs: number,
  hasMore: boolean,
): string {
  const filter = status ? `${runStatusWords(status)} ` : '';
  const latest = runs[0];
  if (!latest) return `No ${filter}verification runs of ${whose} yet`;
  const count = `${plural(runs.length, `${filter}run`)}${hasMore ? ' shown, more exist' : ''}`;
  const when = ago(latest.createdAt, nowMs);
  const predicate = RUN_PREDICATES[latest.status] ?? runStatusWords(latest.status);
  return `The latest verification run of ${whose} ${predicate} (${when ? `started ${when}; ` : ''}${count})`;
}

/** A run's status as the verb of a sentence, where its word alone does not read as one. */
const RUN_PREDICATES: Record<string, string> = {
  inProgress: 'is in progress',
  cancelled: 'was cancelled',
};

/** The runs' summary (runRows's, the latest first) under a heading of markdown (runsHeading's). */
export function runsSummary(rows: RunRow[], headingMarkdown: string): Markdown {
  const summary = new Markdown().headingMarkdown(
    `${rows[0] ? icon(rows[0].status) : '🧪'} ${headingMarkdown}`,
  );
  if (!rows.length) return summary;
  const table = filledColumns(
    ['Run', 'Outcome', 'Started', 'Time', 'Tested PRs', 'Failed checks'],
    rows.map((row) => [
      `${codeSpan(row.id.slice(0, 40))}${row.bisection ? ' (bisection)' : ''}`,
      `${icon(row.status)} ${escapeMarkdown(row.outcome)}`,
      escapeMarkdown(row.started),
      escapeMarkdown(row.time),
      escapeMarkdown(row.testedPrs),
      escapeMarkdown(row.failedChecks),
    ]),
  );
  return summary.table(table.headers, table.rows);
}

export function runSummary(run: Run, checks: RunCheck[], nowMs: number): Markdown {
  const summary = new Markdown().headingMarkdown(
    `${icon(run.status)} Verification run ${escapeMarkdown(runStatusWords(run.status))}: ${codeSpan(run.testBranch || run.id)}`,
  );
  const when = [ago(run.createdAt, nowMs) && `started ${ago(run.createdAt, nowMs)}`, runTime(run, nowMs)];
  summary.paragraph(
    escapeMarkdown(
      `${[...when, `testing ${prList(run.testedPullRequests)}`].filter(Boolean).join(', ')}${run.isBisection ? ' (a bisection run)' : ''}.`,
    ),
  );
  const failed = checks.find((check) => check.failed);
  if (failed) {
    const what = failed.required ? 'The required check' : 'The check';
    const open = failed.url ? ` ${link('Open the failed check →', failed.url)}` : '';
    summary.alert(
      'CAUTION',
      `${what} **${escapeMarkdown(failed.name)}** concluded **${escapeMarkdown(failed.result)}**.${open}`,
    );
  }
  const missing = missingRequired(run);
  if (missing.length) summary.paragraph(`**Not reported yet:** ${escapeMarkdown(missing.join(', '))}.`);
  if (checks.length) {
    summary.table(
      ['Check', 'Required', 'Result'],
      checks.map((check) => [
        check.url ? link(check.name, check.url) : escapeMarkdown(check.name),
        check.required ? 'yes' : 'no',
        `${check.failed ? '❌' : check.result === 'SUCCESS' ? '✅' : ''} ${escapeMarkdown(check.result)}`.trim(),
      ]),
    );
  }
  return summary.details('Everything the run reported', runDetails(run));
}

function runDetails(run: Run): string {
  const targets = run.impactedTargets?.all;
  const rows: [string, string][] = [
    ['Run', run.id],
    ['Required statuses', run.requiredStatuses.join(', ') || 'none'],
    ['Required statuses from', requiredFromWords(run.requiredStatusesSource)],
    ['Dependent PRs', prList(run.dependentPullRequests) || 'none'],
    [
      'Impacted targets',
      targets ? (targets.impactsAllTargets ? 'all' : String(targets.totalImpactedTargets)) : '',
    ],
    ['Test branch sha', run.testBranchSha],
  ];
  return new Markdown()
    .table(
      ['Field', 'Value'],
      rows
        .filter(([, value]) => value)
        .map(([key, value]) => [escapeMarkdown(key), escapeMarkdown(value.slice(0, 500))]),
    )
    .toString()
    .trim();
}

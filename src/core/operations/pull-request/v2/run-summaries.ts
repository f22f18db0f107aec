// The summaries of verification runs: a list (the latest first, each with its outcome, when and how
// long) and one run (its outcome, the first failing required check, every check required first).
import type { V2 } from '../../../../wire/v2/index.js';
import { formatDuration, timeSince } from '../../../report/duration.js';
import { Markdown, codeSpan, escapeMarkdown, link, withoutEmptyColumns } from '../../../report/markdown.js';
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

export function runsSummary(
  runs: Run[],
  whose: string,
  status: string | undefined,
  nowMs: number,
  hasMore: boolean,
): Markdown {
  const filter = status ? ` ${runStatusWords(status)}` : '';
  const latest = runs[0];
  if (!latest) return new Markdown().headingMarkdown(`🧪 No${filter} verification runs of ${whose} yet`);
  const count = `${plural(runs.length, `${filter.trim() ? `${filter.trim()} ` : ''}run`)}${hasMore ? ' shown, more exist' : ''}`;
  const summary = new Markdown().headingMarkdown(
    `${icon(latest.status)} The latest verification run of ${whose} ${escapeMarkdown(runStatusWords(latest.status))} ${escapeMarkdown(ago(latest.createdAt, nowMs) || '')} (${count})`,
  );
  const table = withoutEmptyColumns(
    ['Run', 'Outcome', 'Started', 'Time', 'Tested PRs', 'Failed checks'],
    runs.map((run) => {
      const failed = run.checks.filter(
        (c) => c.status === 'completed' && ['failure', 'timeout', 'cancelled'].includes(c.conclusion),
      );
      return [
        `${codeSpan(run.id.slice(0, 40))}${run.isBisection ? ' (bisection)' : ''}`,
        `${icon(run.status)} ${escapeMarkdown(runStatusWords(run.status))}`,
        escapeMarkdown(ago(run.createdAt, nowMs)),
        escapeMarkdown(runTime(run, nowMs)),
        escapeMarkdown(prList(run.testedPullRequests)),
        escapeMarkdown(failed.map((c) => c.name.slice(0, 100)).join(', ')),
      ];
    }),
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

// The summary of a PR in the queue, read in five seconds: the outcome in one line with an icon, what
// happened (time in queue, runs, steps back, pauses), a timeline of its states, the failing checks with
// links and what to do, then everything else collapsed.
import { TERMINAL_PR_STATES, type PrState } from '../../../wire/index.js';
import { HEADING_CHARS, clip } from '../../report/clip.js';
import { filled } from '../../report/filled.js';
import { Markdown, codeSpan, escapeCell, escapeMarkdown, link } from '../../report/markdown.js';
import { formatDuration } from '../../report/duration.js';
import { gantt, type GanttBar, type GanttStyle } from '../../report/mermaid.js';
import { pullRequestUrl, requirePrNumber, stateOutput } from '../common.js';
import type { OperationContext } from '../types.js';
import type { PullRequestSettings } from './inputs.js';
import { shortSha, shortTestBranch } from './lookup.js';
import { describeBlockers, notReadyBlockers } from './readiness.js';
import type { Transition } from './v2/history-report.js';
import type { PrReport } from './wait.js';
import { dispatchWords } from './v2/dispatch.js';
import { ACTION_WORDING, codeNameIn, operationIn, type Wording } from '../../words.js';

const ICONS: Record<PrReport['outcome'], string> = {
  merged: '✅',
  tests_passed: '✅',
  failed: '❌',
  // Not red: a cancel is a person's or a push's doing, not a failure.
  cancelled: '⏹️',
  timed_out: '⏳',
  in_queue: '🕒',
  not_submitted: '❔',
};

/** The outcome in a few words: "Merged after 1h 47m", "Still waiting at position 3 of 12". */
export function outcomeWords(report: PrReport): string {
  const state = report.entry?.state ? stateOutput(report.entry.state) : '';
  const place = atPlace(report);
  switch (report.outcome) {
    case 'merged':
      return headingSaysTime(report) ? `Merged after ${formatDuration(queueTime(report))}` : 'Merged';
    case 'tests_passed':
      return 'Tests passed';
    case 'failed': {
      const check = report.testRun?.failing[0];
      return `Failed in the merge queue${check ? ` (${check.name} ${check.conclusion.toLowerCase()})` : ''}`;
    }
    case 'cancelled':
      return 'Cancelled in the merge queue';
    case 'timed_out':
      return `Still waiting${place || (state ? ` (${state})` : '')}`;
    case 'not_submitted':
      return 'Not in the merge queue';
    default:
      return state === 'NOT_READY' ? 'Not ready' : `${state}${place}`;
  }
}

/** The outcome as one line of plain text (the log, a notification, a PR comment). */
export function outcomeLine(report: PrReport, prLabel: string): string {
  return `${outcomeWords(report)}: ${prLabel}`;
}

export function placeInLine(report: PrReport): string {
  const dispatch = report.line?.dispatch;
  if (dispatch) return dispatchWords(dispatch);
  const position = report.line?.position;
  return position === undefined ? '' : `position ${position} of ${report.line!.length}`;
}

/** The place after a state: " at position 3 of 12" (v1's line), " (directly behind #12)" (v2's order). */
export function atPlace(report: PrReport): string {
  const place = placeInLine(report);
  if (!place) return '';
  return report.line?.dispatch ? ` (${place})` : ` at ${place}`;
}

/**
 * The one reason in words, for the `reason` output and the failure line; without the checks' addresses
 * (`withUrls: false`) where the checks are links of their own (a notification, a PR comment).
 */
export function reasonOf(report: PrReport, targetBranch?: string, withUrls = true): string {
  const number = typeof report.entry?.prNumber === 'number' ? report.entry.prNumber : undefined;
  const pr = number === undefined ? 'The PR' : `PR #${number}`;
  switch (report.outcome) {
    case 'failed': {
      const checks = report.testRun?.failing ?? [];
      if (checks.length) {
        const url = (c: { url?: string }) => (withUrls && c.url ? ` (${c.url})` : '');
        return `${pr} failed: ${checks.map((c) => `${c.name} concluded ${c.conclusion}${url(c)}`).join('; ')}.`;
      }
      const stepBack = report.stepBacks.at(-1);
      return `${pr} failed${stepBack ? ` after stepping back (${stepBack})` : ''}; the service named no failing check.`;
    }
    case 'cancelled':
      return `${pr} was cancelled: ${cancelledBy(report)}.`;
    case 'timed_out': {
      const blockers = notReadyBlockers(report.entry, targetBranch);
      const state = report.entry?.state ? stateOutput(report.entry.state) : 'not in the queue';
      const place = atPlace(report);
      const why = blockers.length
        ? `: ${describeBlockers(blockers)}`
        : report.line?.queueState === 'paused'
          ? ': the queue is paused'
          : '';
      return `${pr} is still ${state}${place} after ${formatDuration(report.waitedMs)}${why}.`;
    }
    case 'in_queue': {
      const blockers = notReadyBlockers(report.entry, targetBranch);
      return blockers.length ? `${pr} is not ready: ${describeBlockers(blockers)}.` : '';
    }
    case 'not_submitted':
      return `${pr} was never submitted to this queue.`;
    default:
      return '';
  }
}

/** What to do next, in one sentence of markdown, naming operations and inputs as the host does. */
function nextStep(report: PrReport, targetBranch?: string, wording: Wording = ACTION_WORDING): string {
  const run = (operation: string) => operationIn(wording, operation);
  const raiseTimeout = `raise ${codeNameIn(wording, 'wait-timeout-minutes')}`;
  switch (report.outcome) {
    case 'failed':
      return `fix what the failing check reports and submit the PR again (${run('submit-pull-request')}); if the check is flaky, submitting again tests it as it is.`;
    case 'cancelled':
      return escapeMarkdown(cancelledNextStep(report));
    case 'timed_out': {
      const blockers = notReadyBlockers(report.entry, targetBranch);
      if (blockers.length) return `${escapeMarkdown(blockers.map((b) => b.fix).join('; '))}.`;
      if (report.line?.queueState === 'paused') {
        return `the queue is paused: ask its admins to resume it (${run('resume-queue')}), or ${raiseTimeout}.`;
      }
      return `${raiseTimeout}, or look again later with ${run('get-submitted-pull-request')}.`;
    }
    case 'not_submitted':
      return `submit it with ${run('submit-pull-request')}.`;
    case 'in_queue': {
      const blockers = notReadyBlockers(report.entry, targetBranch);
      return blockers.length ? `${escapeMarkdown(blockers.map((b) => b.fix).join('; '))}.` : '';
    }
    default:
      return '';
  }
}

export function prSummary(
  op: OperationContext<PullRequestSettings>,
  report: PrReport,
  extraFacts: [string, unknown][] = [],
): Markdown {
  const number = requirePrNumber(op.context);
  const title = filled(report.entry?.prTitle) ? ` ${clip(filled(report.entry?.prTitle), HEADING_CHARS)}` : '';
  const prLink = link(`#${number}${title}`, pullRequestUrl(op.context.repo, number));
  const branch = op.context.targetBranch ?? '';
  const summary = new Markdown().headingMarkdown(
    `${outcomeIcon(report)} ${escapeMarkdown(clip(outcomeWords(report), HEADING_CHARS))}: ${prLink} → ${codeSpan(branch)}`,
  );
  const story = storyLine(report);
  if (story) summary.paragraph(story);
  if (report.outcome === 'failed') failureBlock(summary, report);
  if (report.outcome === 'cancelled')
    summary.alert('NOTE', escapeMarkdown(`Cancelled: ${cancelledBy(report)}.`));
  const step = nextStep(report, op.context.targetBranch, op.wording);
  if (step) summary.paragraph(`**What now:** ${step}`);
  if (report.headShaMismatch) summary.alert('WARNING', escapeMarkdown(report.headShaMismatch));
  const bars = timelineBars(report);
  // A chart of steps that all happened at once (a PR just submitted, read from v2's history) shows nothing.
  const instant = bars.length > 1 && bars.every((bar) => bar.endMs <= bars[0]!.startMs);
  if (
    (bars.length > 1 && !instant) ||
    (bars.length === 1 && !bars[0]!.style?.endsWith('milestone') && report.endedMs > report.startedMs)
  ) {
    summary.mermaid(gantt(`PR ${number} in the merge queue for ${branch} (times UTC)`, `PR ${number}`, bars));
  }
  summary.factsAcross(headlineFacts(report));
  summary.details('Everything the queue reported', detailFacts(op, report, extraFacts));
  return summary;
}

function storyLine(report: PrReport): string {
  const parts: string[] = [];
  const runs = report.transitions.filter((t) => t.state === 'testing').length;
  if (runs) parts.push(`tested ${runs === 1 ? 'once' : runs === 2 ? 'twice' : `${runs} times`}`);
  if (report.stepBacks.length) {
    const times = report.stepBacks.length === 1 ? 'once' : `${report.stepBacks.length} times`;
    parts.push(`sent back ${times} (${escapeMarkdown(report.stepBacks.join('; '))})`);
  }
  if (report.pausedMs > 0) parts.push(`waited ${formatDuration(report.pausedMs)} while the queue was paused`);
  // The heading already says how long a merged PR was in the queue: the story says only how it went.
  if (headingSaysTime(report)) return parts.length ? `${sentence(parts.join(', '))}.` : '';
  const waited = report.endedMs - report.startedMs;
  if (!waited && !parts.length) {
    // A cancel is told once, in its own note below.
    if (report.outcome === 'cancelled') return '';
    const reason = reasonOf(report);
    return reason ? escapeMarkdown(reason) : '';
  }
  return `**${formatDuration(queueTime(report))}** in the queue${parts.length ? `: ${parts.join(', ')}` : ''}.`;
}

function headingSaysTime(report: PrReport): boolean {
  return report.outcome === 'merged' && report.transitions.length > 1;
}

function sentence(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

/**
 * From the first state seen (or its stateChangedAt) to the state that ended it, as the chart draws it;
 * to the last look while it is still in the queue. (The last look may come a poll interval later.)
 */
export function queueTime(report: PrReport): number {
  const first = report.transitions[0]?.atMs ?? report.startedMs;
  const last = report.transitions.at(-1);
  const end = last && ENDING_STATES.has(last.state) ? last.atMs : report.endedMs;
  return Math.max(0, end - first);
}

const ENDING_STATES = new Set(['merged', 'failed', 'cancelled']);

/** Who or what cancelled the PR, as the service said; what is known when it did not say. */
export function cancelledBy(report: PrReport): string {
  if (report.cancellation?.words) return report.cancellation.words;
  if (report.headShaMismatch)
    return 'the service did not say why; the queue has a newer head sha, so most likely a push';
  return 'the service did not say by whom or why (API v1 does not tell; v2 names the person or the push)';
}

/** What to do after a cancel, by what caused it: a push, a closed PR, a person, the queue. */
export function cancelledNextStep(report: PrReport): string {
  const cause = report.cancellation?.cause ?? (report.headShaMismatch ? 'push' : 'unknown');
  switch (cause) {
    case 'push':
      return 'the PR changed while in the queue: submit it again once its new head is ready.';
    case 'closed':
      return 'nothing, unless the PR is reopened; then submit it again.';
    case 'queue':
      return 'make the PR ready (see why above), then submit it again.';
    default:
      return 'nothing if that was meant; otherwise submit it again when it is ready.';
  }
}

function failureBlock(summary: Markdown, report: PrReport): void {
  const checks = report.testRun?.failing ?? [];
  const first = checks[0];
  const branch = report.testRun?.testBranch;
  if (first) {
    const where = branch ? ` on test branch ${codeSpan(shortTestBranch(branch))}` : '';
    const open = first.url
      ? ` ${link('Open the failed check →', first.url).replace(/^\[/, '**[').replace(/\)$/, ')**')}`
      : '';
    summary.alert(
      'CAUTION',
      `${first.required === false ? 'The check' : 'The required check'} **${escapeMarkdown(first.name)}** concluded **${escapeMarkdown(first.conclusion)}**${where}.${open}`,
    );
    summary.table(
      ['Check', 'Conclusion', 'Link'],
      checks.map((c) => [
        escapeMarkdown(c.name),
        `❌ ${escapeMarkdown(c.conclusion)}`,
        c.url ? link('logs', c.url) : '-',
      ]),
    );
  } else {
    summary.alert('CAUTION', escapeMarkdown(reasonOf(report)));
  }
}

function headlineFacts(report: PrReport): [string, unknown][] {
  const entry = report.entry;
  const facts: [string, unknown][] = [];
  if (entry?.state) facts.push(['State', stateOutput(entry.state)]);
  facts.push(...placeFacts(report));
  if (report.line?.queueState) facts.push(['Queue', report.line.queueState]);
  const ended = ['merged', 'tests_passed', 'failed', 'cancelled'].includes(report.outcome);
  if (!ended && entry?.stateChangedAt && report.transitions.length) {
    const last = report.transitions[report.transitions.length - 1]!;
    facts.push(['In this state', formatDuration(report.endedMs - last.atMs)]);
  }
  if (typeof entry?.prSha === 'string' && filled(entry.prSha)) {
    facts.push([
      'Head sha',
      { markdown: `${codeSpan(shortSha(entry.prSha))}${report.headShaMismatch ? ' ⚠️ not this run’s' : ''}` },
    ]);
  }
  if (entry?.priorityName !== undefined || entry?.priorityValue !== undefined) {
    facts.push(['Priority', `${entry?.priorityName ?? ''} (${entry?.priorityValue ?? ''})`]);
  }
  return facts;
}

/** Where it is in line: v1's approximate position, or what v2's dispatch order says. */
function placeFacts(report: PrReport): [string, unknown][] {
  const dispatch = report.line?.dispatch;
  const place = placeInLine(report);
  if (!dispatch) return place ? [['In line', `${place} (approximate)`]] : [];
  const list = (numbers: number[]) => numbers.map((n) => `#${n}`).join(', ');
  const facts: [string, unknown][] = [];
  if (dispatch.batch) facts.push(['Tested with', list(dispatch.batch.with) || 'alone']);
  else facts.push(['Directly ahead', list(dispatch.directlyAhead) || 'nothing: next to be tested']);
  if (dispatch.heldBy.length)
    facts.push(['Held by', `${list(dispatch.heldBy)} (failed, blame being worked out)`]);
  if (dispatch.predictedBatch !== undefined) facts.push(['Predicted batch', dispatch.predictedBatch]);
  return facts;
}

function detailFacts(
  op: OperationContext<PullRequestSettings>,
  report: PrReport,
  extraFacts: [string, unknown][],
): string {
  const entry = report.entry;
  const rows: [string, unknown][] = [['Target branch', op.context.targetBranch], ...extraFacts];
  if (entry) {
    for (const [name, value] of [
      ['Title', entry.prTitle],
      ['Author', entry.prAuthor],
      ['Base branch', entry.prBaseBranch],
    ] as const) {
      if (filled(value)) rows.push([name, value]);
    }
    if (typeof entry.prSha === 'string' && filled(entry.prSha)) rows.push(['Head sha (full)', entry.prSha]);
    const readiness = entry.readiness;
    if (readiness) {
      rows.push(
        ['Base branch matches', readiness.doesBaseBranchMatch ? 'yes' : 'no'],
        ['Mergeability on GitHub', readiness.gitHubMergeability],
        [
          'Impacted targets',
          !readiness.requiresImpactedTargets
            ? 'not required'
            : readiness.hasImpactedTargets
              ? 'uploaded'
              : 'missing for the current head sha',
        ],
      );
    }
    rows.push(['Last test run', entry.verifiedByTestRun ?? 'none yet']);
  }
  const table = new Markdown().table(
    ['Field', 'Value'],
    rows
      .filter(([, value]) => value !== undefined && value !== '')
      .map(([key, value]) => [escapeMarkdown(key), escapeCell(value)]),
  );
  if (report.transitions.length > 1) timelineTable(table, report);
  return table.toString().trim();
}

/**
 * Each state the PR was in and for how long; a final state (merged, failed, cancelled) lasts no time, and
 * the notes' column shows only when a state has one.
 */
function timelineTable(table: Markdown, report: PrReport): void {
  const { transitions } = report;
  const withNotes = transitions.some((t) => t.note);
  const lasted = (t: Transition, i: number) => {
    const end = transitions[i + 1]?.atMs;
    if (end === undefined && TERMINAL_PR_STATES.includes(t.state as PrState)) return '';
    return formatDuration((end ?? report.endedMs) - t.atMs);
  };
  table.table(
    withNotes ? ['State', 'For', 'Note'] : ['State', 'For'],
    transitions.map((t, i) => {
      const row = [escapeMarkdown(stateOutput(t.state)), escapeMarkdown(lasted(t, i))];
      return withNotes ? [...row, escapeMarkdown(t.note ?? '')] : row;
    }),
  );
}

const STYLES: Record<string, GanttStyle> = {
  testing: 'active',
  pending_failure: 'crit',
  tests_passed: 'done',
  merged: 'done-milestone',
  failed: 'crit-milestone',
  cancelled: 'milestone',
};

const LABELS: Record<string, string> = {
  not_ready: 'Not ready',
  pending: 'Pending',
  testing: 'Testing',
  tests_passed: 'Tests passed',
  pending_failure: 'Failed, waiting for PRs ahead',
  merged: 'Merged',
  failed: 'Failed',
  cancelled: 'Cancelled',
  not_in_queue: 'Not in the queue',
};

export function timelineBars(report: PrReport): GanttBar[] {
  return report.transitions.map((t: Transition, i) => {
    const end = report.transitions[i + 1]?.atMs ?? report.endedMs;
    let label = LABELS[t.state] ?? stateOutput(t.state);
    if (t.state === 'testing' && t.testRunId) label += ` (run ${t.testRunId.slice(0, 8)})`;
    if (t.note) label += ` (${shortNote(t.note)})`;
    return { label, startMs: t.atMs, endMs: end, style: barStyle(t.state, report.transitions[i + 1]?.state) };
  });
}

/** A test run that ended in a failure is drawn red, not blue as a run still going. */
function barStyle(state: string, next: string | undefined): GanttStyle {
  if (state === 'testing' && (next === 'failed' || next === 'pending_failure')) return 'crit';
  return STYLES[state] ?? '';
}

function shortNote(note: string): string {
  const urgent = /urgent PR #(\d+)/.exec(note);
  if (urgent) return `sent back by urgent ${urgent[1]}`;
  if (note.includes('head sha')) return 'head sha changed';
  if (note.includes('failed')) return 'a PR ahead failed';
  return 'sent back';
}

export function outcomeIcon(report: PrReport): string {
  return ICONS[report.outcome];
}

// get-queue-entry-history (v2 only): every state the PR's queue entry went through, when, why in words,
// who caused it and which verification run; a summary led by where it is now.
import type { V2 } from '../../../../wire/v2/index.js';
import { realClock } from '../../../clock.js';
import { formatDuration } from '../../../report/duration.js';
import { filledColumns } from '../../../report/filled-columns.js';
import { Markdown, codeSpan, escapeMarkdown, link } from '../../../report/markdown.js';
import { pullRequestUrl, rawResponse, repoSlug, requirePrNumber } from '../../common.js';
import type { Operation, OperationContext } from '../../types.js';
import type { PullRequestSettings } from '../inputs.js';
import { pullRequestIdOf, requireV2 } from './access.js';
import { ago } from './run-summaries.js';
import { actorWords, reasonWords, stateOutputOf, stateWords } from './words.js';

type Step = V2<'QueueEntryStateTransition'>;

const ICONS: Record<string, string> = { merged: '✅', testsPassed: '✅', failed: '❌', cancelled: '🚫' };
const MAX_STEPS = 1000;

export const getQueueEntryHistory: Operation<PullRequestSettings> = async (op) => {
  const access = requireV2(op);
  const id = await pullRequestIdOf(op, access);
  const steps: Step[] = [];
  let text = '';
  let serverTimeMs: number | undefined;
  for await (const { data, response } of access.v2.pages('pullRequests.queueEntryHistory', {
    path: { id },
  })) {
    steps.push(...data.data);
    text ||= rawResponse(response);
    serverTimeMs = response.serverTimeMs;
    if (steps.length >= MAX_STEPS) break;
  }
  const now = serverTimeMs ?? (op.clock ?? realClock).now();
  const last = steps.at(-1);
  const told: HistoryWords = {
    heading: historyHeading(steps, now),
    story: steps.length ? storyOf(steps) : '',
    steps: stepRows(steps, now),
  };
  return {
    outputs: {
      response: text,
      count: steps.length,
      state: stateOutputOf(last?.state),
      reason: reasonWords(last?.reason),
      'times-sent-back': steps.filter((step, i) => isStepBack(step, i, steps)).length,
      transitions: JSON.stringify(steps.map(transitionOutput)),
    },
    summary: historySummary(op, last, told),
    details: {
      kind: 'queue-entry-history',
      repo: repoSlug(op.context.repo),
      branch: op.context.targetBranch ?? '',
      prNumber: requirePrNumber(op.context),
      ...told,
    },
  };
};

function transitionOutput(step: Step) {
  return {
    state: stateOutputOf(step.state),
    changedAt: step.changedAt,
    reason: step.reason ?? null,
    why: reasonWords(step.reason),
    by: actorWords(step.actor),
    verificationRunId: step.verificationRunId ?? null,
  };
}

const IN_TESTING = new Set(['testing', 'testsPassed', 'pendingFailure']);
const SENT_BACK = new Set([
  'TESTS_RESTARTED_BY_USER',
  'TESTS_RESTARTED_BY_API_REQUEST',
  'MANUAL_PUSH_TO_TARGET_BRANCH',
  'PREREQUISITE_MERGE_ITEM_FAILED',
  'PREREQUISITE_MERGE_ITEM_CANCELLED',
  'PREREQUISITE_MERGE_ITEM_MANUALLY_MERGED',
  'SKIP_THE_LINE_INTERRUPTED',
  'BISECTION_REQUIRED',
]);

/** A return to pending after testing began: the PR lost its run and is tested again. */
export function isStepBack(step: Step, index: number, steps: readonly Step[]): boolean {
  if (step.state !== 'pending') return false;
  return IN_TESTING.has(steps[index - 1]?.state ?? '') || SENT_BACK.has(step.reason ?? '');
}

/** "a PR it was tested on top of failed, by @octocat"; '' when the service gave no reason. */
export function whyWords(step: Step): string {
  const why = reasonWords(step.reason);
  const by = actorWords(step.actor);
  return [why, by && `by ${by}`].filter(Boolean).join(', ');
}

const ENDED = new Set(['merged', 'failed', 'cancelled']);

/** Where the PR is now, in words: "Testing for 4m (an API call asked for it)"; '' before its first step. */
function historyHeading(steps: Step[], nowMs: number): string {
  const last = steps.at(-1);
  if (!last) return '';
  const lastAt = Date.parse(last.changedAt);
  const when = ENDED.has(last.state)
    ? ago(last.changedAt, nowMs)
    : Number.isNaN(lastAt)
      ? ''
      : `for ${formatDuration(nowMs - lastAt)}`;
  const why = whyWords(last);
  return `${capitalized(stateWords(last.state))}${when ? ` ${when}` : ''}${why ? ` (${why})` : ''}`;
}

/** A step as a person reads it, in plain text: the summary escapes it, a terminal shows it. */
export interface HistoryStepRow {
  /** In words: "tests passed". */
  state: string;
  /** As outputs spell it: TESTS_PASSED. */
  stateOutput: string;
  when: string;
  /** How long the PR stayed in it; '' for a last step that ended the PR's time in the queue. */
  lasted: string;
  why: string;
  by: string;
  runId: string;
}

function stepRows(steps: Step[], nowMs: number): HistoryStepRow[] {
  const ended = ENDED.has(steps.at(-1)?.state ?? '');
  return steps.map((step, i) => {
    const next = steps[i + 1] ? Date.parse(steps[i + 1]!.changedAt) : ended ? NaN : nowMs;
    const at = Date.parse(step.changedAt);
    return {
      state: stateWords(step.state),
      stateOutput: stateOutputOf(step.state),
      when: ago(step.changedAt, nowMs),
      lasted: Number.isNaN(next) || Number.isNaN(at) ? '' : formatDuration(next - at),
      why: reasonWords(step.reason),
      by: actorWords(step.actor),
      runId: step.verificationRunId ?? '',
    };
  });
}

/** The history in plain words, made once for the summary and the terminal page. */
interface HistoryWords {
  /** Where the PR is now (historyHeading's); '' when it was never in the queue. */
  heading: string;
  story: string;
  steps: HistoryStepRow[];
}

/** The summary: where the PR is now, its story, then each step; `last` is the last step, if any. */
function historySummary(op: OperationContext<unknown>, last: Step | undefined, told: HistoryWords): Markdown {
  const number = requirePrNumber(op.context);
  const target = `${link(`#${number}`, pullRequestUrl(op.context.repo, number))} → ${codeSpan(op.context.targetBranch ?? '')}`;
  if (!last) return new Markdown().headingMarkdown(`❔ Never in the merge queue: ${target}`);
  const summary = new Markdown().headingMarkdown(
    `${escapeMarkdown(`${ICONS[last.state] ?? '🕒'} ${told.heading}`)}: ${target}`,
  );
  summary.paragraph(escapeMarkdown(told.story));
  const table = filledColumns(
    ['State', 'When', 'For', 'Why', 'By', 'Run'],
    told.steps.map((row) => [
      escapeMarkdown(row.state),
      escapeMarkdown(row.when),
      escapeMarkdown(row.lasted),
      escapeMarkdown(row.why),
      escapeMarkdown(row.by),
      row.runId ? codeSpan(row.runId.slice(0, 40)) : '',
    ]),
  );
  return summary.table(table.headers, table.rows);
}

function storyOf(steps: Step[]): string {
  const first = Date.parse(steps[0]!.changedAt);
  const lastAt = Date.parse(steps.at(-1)!.changedAt);
  const runs = steps.filter((s) => s.state === 'testing').length;
  const back = steps.filter((s, i) => isStepBack(s, i, steps));
  const span = !Number.isNaN(first) && lastAt > first ? ` over ${formatDuration(lastAt - first)}` : '';
  const parts: string[] = [];
  if (runs) parts.push(`tested ${runs === 1 ? 'once' : runs === 2 ? 'twice' : `${runs} times`}`);
  if (back.length) {
    const reasons = [...new Set(back.map(whyWords).filter(Boolean))];
    parts.push(
      `sent back ${back.length === 1 ? 'once' : `${back.length} times`}${reasons.length ? ` (${reasons.join('; ')})` : ''}`,
    );
  }
  const head = `${steps.length} step${steps.length === 1 ? '' : 's'}${span}`;
  return `${head}${parts.length ? `: ${parts.join(', ')}` : ''}.`;
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

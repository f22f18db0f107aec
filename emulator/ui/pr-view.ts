// A pull request as the page shows it: its facts as the emulator knows them (null where nobody said),
// its state and reason in words beside their codes, how long it has been in its state, and its run.
import type { PrState, QueueState } from '../../src/wire/index.js';
import {
  type MergeQueueEngine,
  reasonInWords,
  type HistoryEvent,
  type Submission,
  type TestRun,
  testRunUrl,
} from '../../src/queue-model/index.js';

const STATE_WORDS: Record<PrState, string> = {
  not_ready: 'not ready',
  pending: 'waiting',
  testing: 'testing',
  tests_passed: 'passed, to merge',
  pending_failure: 'failing, confirming',
  merged: 'merged',
  failed: 'failed',
  cancelled: 'cancelled',
};

const QUEUE_STATE_WORDS: Record<QueueState, string> = {
  running: 'running',
  paused: 'paused',
  draining: 'draining',
  switching_modes: 'switching modes',
};

/** A code and its words: the page shows the words and keeps the code for hovering. */
export interface Worded {
  code: string;
  words: string;
}

export const stateInWords = (state: PrState): Worded => ({ code: state, words: STATE_WORDS[state] ?? state });
export const queueStateInWords = (state: QueueState): Worded => ({
  code: state,
  words: QUEUE_STATE_WORDS[state] ?? state,
});
const reasonOf = (code: string | null): Worded | null => (code ? { code, words: reasonInWords(code) } : null);

export interface HistoryEntry {
  at: string;
  from: Worded | null;
  to: Worded;
  reason: Worded | null;
}

export type PrStateEvent = Extract<HistoryEvent, { kind: 'pr_state' }>;

export function historyEntry(event: PrStateEvent): HistoryEntry {
  return {
    at: new Date(event.at).toISOString(),
    from: event.from ? stateInWords(event.from) : null,
    to: stateInWords(event.to),
    reason: reasonOf(event.reason),
  };
}

/** A test run named as the engine knows it: its short id, its test branch and where CI shows it. */
export function runView(run: TestRun) {
  return {
    id: run.id,
    name: run.id.slice(0, 8),
    branch: run.branch,
    url: testRunUrl(run),
    kind: run.kind,
    status: run.status,
    prNumbers: run.tested.map((s) => s.prNumber),
    dependentPrs: run.dependentPrs,
  };
}

export function prView(
  engine: MergeQueueEngine,
  submission: Submission,
  place: number | null,
  history: HistoryEntry[],
) {
  const info = engine.core.infoOf(submission);
  const { host, owner, name } = submission.queue.repo;
  return {
    prNumber: submission.prNumber,
    url: `https://${host}/${owner}/${name}/pull/${submission.prNumber}`,
    title: info.title ?? null,
    author: info.author ?? null,
    sha: info.headSha ?? null,
    place,
    state: stateInWords(submission.state),
    since: new Date(submission.stateChangedAt).toISOString(),
    reason: reasonOf(submission.reason),
    priorityName: submission.priorityName,
    run: submission.run ? runView(submission.run) : null,
    history,
  };
}

export type PrView = ReturnType<typeof prView>;

// What the page shows, as one JSON snapshot: the clock, each queue (titled host/owner/name) with its line
// in order, the PRs waiting to enter it, the latest finished ones, its runs, and the flaky tests.
import {
  type MergeQueueEngine,
  ACTIVE_STATES,
  type QueueRecord,
  type Submission,
} from '../../src/queue-model/index.js';
import type { FlakyTestStore } from '../flaky-tests/store.js';
import { historyEntry, prView, queueStateInWords, runView, type HistoryEntry } from './pr-view.js';

/** Whether virtual time follows real time (`timeScale`) and whether that is paused. */
export interface TimeControl {
  timeScale: number | undefined;
  paused: boolean;
}

const FINISHED_SHOWN = 10;
const HISTORY_PER_PR = 8;
const HISTORY_SCANNED = 5_000;

export function snapshotOf(engine: MergeQueueEngine, flakyTests: FlakyTestStore, time: TimeControl) {
  return {
    now: engine.clock.iso(),
    timeScale: time.timeScale ?? null,
    paused: time.paused,
    queues: engine.queues().map((queue) => queueView(engine, queue)),
    flaky: flakyTests.summary(),
  };
}

function queueView(engine: MergeQueueEngine, queue: QueueRecord) {
  const line = engine.scheduler.order(queue);
  const waiting = [...queue.live].filter((s) => !ACTIVE_STATES.has(s.state) || !s.admitted);
  const concluded = queue.submissions.filter((s) => s.concludedAt !== null);
  const finished = concluded.sort((a, b) => b.concludedAt! - a.concludedAt!).slice(0, FINISHED_SHOWN);
  const history = recentHistory(engine, queue, [...line, ...waiting, ...finished]);
  const view = (s: Submission, place: number | null) => prView(engine, s, place, history.get(s.id) ?? []);
  const { host, owner, name } = queue.repo;
  return {
    key: queue.key,
    title: `${host}/${owner}/${name}`,
    repoRef: queue.repo,
    branch: queue.branch,
    state: queueStateInWords(queue.state),
    mode: queue.mode,
    concurrency: queue.settings.concurrency,
    batch: queue.settings.batch,
    line: line.map((s, index) => view(s, index + 1)),
    waiting: waiting.map((s) => view(s, null)),
    finished: finished.map((s) => view(s, null)),
    finishedCounts: countsByState(concluded),
    runs: [...queue.liveRuns].map(runView),
  };
}

/** How many finished PRs merged, failed and were cancelled. */
function countsByState(concluded: Submission[]): Record<string, number> {
  const counts: Record<string, number> = { merged: 0, failed: 0, cancelled: 0 };
  for (const s of concluded) counts[s.state] = (counts[s.state] ?? 0) + 1;
  return counts;
}

/** The last state changes of each shown submission, oldest first, from the recent end of the history. */
function recentHistory(
  engine: MergeQueueEngine,
  queue: QueueRecord,
  shown: Submission[],
): Map<string, HistoryEntry[]> {
  const ids = new Set(shown.map((s) => s.id));
  const history = new Map<string, HistoryEntry[]>();
  const events = engine.history;
  for (let i = events.length - 1; i >= Math.max(0, events.length - HISTORY_SCANNED); i--) {
    const event = events[i]!;
    if (event.kind !== 'pr_state' || event.queueKey !== queue.key || !ids.has(event.submissionId)) continue;
    const list = history.get(event.submissionId) ?? [];
    history.set(event.submissionId, list);
    if (list.length < HISTORY_PER_PR) list.unshift(historyEntry(event));
  }
  return history;
}

// What the page shows, as one JSON snapshot: the clock, each queue's line in order (with runs, batches
// and each PR's recent history), the PRs out of line, and the flaky tests.
import type { MergeQueueEngine } from '../merge-queue/engine/engine.js';
import { ACTIVE_STATES } from '../merge-queue/engine/core.js';
import { UNKNOWN, type QueueRecord, type Submission } from '../merge-queue/engine/types.js';
import type { FlakyTestStore } from '../flaky-tests/store.js';

/** Whether virtual time follows real time (`timeScale`) and whether that is paused. */
export interface TimeControl {
  timeScale: number | undefined;
  paused: boolean;
}

const CONCLUDED_SHOWN = 10;
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
  const waiting = [...queue.live].filter((s) => !ACTIVE_STATES.has(s.state));
  const concluded = queue.submissions
    .filter((s) => s.concludedAt !== null)
    .sort((a, b) => b.concludedAt! - a.concludedAt!)
    .slice(0, CONCLUDED_SHOWN);
  const shown = [...line, ...waiting, ...concluded];
  const numbers = new Set(shown.map((s) => s.prNumber));
  const history: Record<number, { at: string; from: string | null; to: string; reason: string | null }[]> =
    {};
  const events = engine.history;
  for (let i = events.length - 1; i >= Math.max(0, events.length - HISTORY_SCANNED); i--) {
    const event = events[i]!;
    if (event.kind !== 'pr_state' || event.queueKey !== queue.key || !numbers.has(event.prNumber)) continue;
    const list = (history[event.prNumber] ??= []);
    if (list.length < HISTORY_PER_PR)
      list.unshift({
        at: new Date(event.at).toISOString(),
        from: event.from,
        to: event.to,
        reason: event.reason,
      });
  }
  return {
    key: queue.key,
    repo: `${queue.repo.owner}/${queue.repo.name}`,
    repoRef: queue.repo,
    branch: queue.branch,
    state: queue.state,
    mode: queue.mode,
    concurrency: queue.settings.concurrency,
    batch: queue.settings.batch,
    line: line.map((s) => prView(engine, s)),
    others: [...waiting, ...concluded].map((s) => prView(engine, s)),
    runs: [...queue.liveRuns].map((run) => ({
      id: run.id,
      kind: run.kind,
      status: run.status,
      prNumbers: run.tested.map((s) => s.prNumber),
      dependentPrs: run.dependentPrs,
    })),
    history,
  };
}

function prView(engine: MergeQueueEngine, submission: Submission) {
  const info = engine.core.infoOf(submission);
  return {
    prNumber: submission.prNumber,
    title: info.title ?? UNKNOWN,
    author: info.author ?? UNKNOWN,
    sha: info.headSha ?? UNKNOWN,
    state: submission.state,
    reason: submission.reason,
    priorityName: submission.priorityName,
    runId: submission.run?.id ?? null,
  };
}

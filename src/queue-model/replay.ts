// A headless replay: one queue on the virtual clock, PRs arriving at given times, a pluggable CI model,
// metrics streamed out of the engine's events and nothing of a concluded PR kept (no history, concluded
// submissions and runs dropped as it goes), and the overload guard watching the line.
import { VirtualClock } from './clock.js';
import type { CiModel } from './ci-model.js';
import { MergeQueueEngine } from './engine.js';
import { OverloadGuard, type Stability } from './overload.js';
import { MetricsCollector, type ReplayMetrics } from './replay-metrics.js';
import type { HistoryEvent, QueueRecord, QueueSettingsState } from './types.js';

const HOUR_MS = 3_600_000;
const REPO = { host: 'github.com', owner: 'replay', name: 'replay' } as const;
const BRANCH = 'main';
/** Concluded submissions are dropped every this many conclusions. */
const COMPACT_EVERY = 512;

export interface ReplayArrival {
  /** Milliseconds since the epoch, virtual. Arrivals with the same time are submitted in the given order. */
  at: number;
  prNumber: number;
}

export interface ReplayInput {
  /** The queue's settings (the engine's names); what is not given is a new queue's default. */
  settings: Partial<QueueSettingsState>;
  /** In time order. */
  arrivals: readonly ReplayArrival[];
  /** Builds the CI model on the replay's clock. */
  ci: (clock: VirtualClock) => CiModel;
  /** The engine's own seed (ids and shas). */
  seed: number;
  isCulprit: (prNumber: number) => boolean;
  /** How long after failing a clean PR is submitted again; undefined: never. */
  resubmitAfterMs?: number;
}

export interface ReplayOutcome extends Stability {
  metrics: ReplayMetrics;
}

export function replay(input: ReplayInput): ReplayOutcome {
  const first = input.arrivals[0]?.at ?? 0;
  const last = input.arrivals.at(-1)?.at ?? first;
  const clock = new VirtualClock(first);
  const ci = input.ci(clock);
  const engine = new MergeQueueEngine({ clock, seed: input.seed, ci, keepHistory: false });
  const queue = engine.createQueue(REPO, BRANCH);
  Object.assign(queue.settings, input.settings);
  if (input.settings.bisectionConcurrency !== undefined) queue.bisectionConcurrencySet = true;

  const metrics = new MetricsCollector(input.isCulprit, (runId) => ci.queuedMs?.(runId) ?? 0);
  const counts = { arrived: 0, left: 0, sinceCompaction: 0 };
  engine.core.onEvent((event) => {
    metrics.observe(event);
    if (!isConclusion(event)) return;
    const comesBack = event.to === 'failed' && resubmitLater(engine, input, metrics, event.prNumber);
    if (!comesBack) counts.left++;
    if (++counts.sinceCompaction >= COMPACT_EVERY) {
      counts.sinceCompaction = 0;
      compact(engine, queue);
    }
  });

  const guard = new OverloadGuard(floorOf(queue.settings), first, last);
  const middle = Math.floor((input.arrivals.length - 1) / 2);
  let atLast: Stability | undefined;
  scheduleArrivals(engine, input.arrivals, (index) => {
    counts.arrived++;
    if (index === middle) guard.middle(counts.arrived, counts.left);
    if (index === input.arrivals.length - 1)
      atLast = guard.verdict(counts.arrived, counts.left, queue.live.size);
  });
  const stopped = run(engine, queue, guard, first, () => atLast === undefined);
  const stability = stopped || !atLast ? guard.verdict(counts.arrived, counts.left, queue.live.size) : atLast;
  return { ...stability, metrics: metrics.metrics() };
}

/** Submits each arrival at its time (then calls `submitted` with its index), one timer at a time (a year of PRs is not a year of timers). */
function scheduleArrivals(
  engine: MergeQueueEngine,
  arrivals: readonly ReplayArrival[],
  submitted: (index: number) => void,
): void {
  let next = 0;
  const submitDue = () => {
    const now = engine.clock.now();
    while (next < arrivals.length && arrivals[next]!.at <= now) {
      engine.submitPullRequest(REPO, BRANCH, arrivals[next]!.prNumber);
      submitted(next++);
    }
    if (next < arrivals.length) engine.clock.at(arrivals[next]!.at, submitDue);
  };
  if (arrivals.length > 0) engine.clock.at(arrivals[0]!.at, submitDue);
}

/** Advances to each timer in turn, sampling the line every hour; true when the guard stopped it. */
function run(
  engine: MergeQueueEngine,
  queue: QueueRecord,
  guard: OverloadGuard,
  start: number,
  arriving: () => boolean,
): boolean {
  const clock = engine.clock;
  let stop = false;
  const sample = (at: number) => {
    clock.at(at, () => {
      stop = guard.sample(at, queue.live.size);
      if (!stop && (arriving() || queue.live.size > 0)) sample(at + HOUR_MS);
    });
  };
  sample(start + HOUR_MS);
  for (let next = clock.nextTimerAt(); next !== undefined && !stop; next = clock.nextTimerAt()) {
    clock.advance(next - clock.now());
  }
  return stop;
}

function resubmitLater(
  engine: MergeQueueEngine,
  input: ReplayInput,
  metrics: MetricsCollector,
  prNumber: number,
): boolean {
  if (input.resubmitAfterMs === undefined || input.isCulprit(prNumber)) {
    metrics.forget(prNumber);
    return false;
  }
  engine.clock.after(input.resubmitAfterMs, () => engine.submitPullRequest(REPO, BRANCH, prNumber));
  return true;
}

function isConclusion(event: HistoryEvent): event is Extract<HistoryEvent, { kind: 'pr_state' }> {
  return (
    event.kind === 'pr_state' && (event.to === 'merged' || event.to === 'failed' || event.to === 'cancelled')
  );
}

/** Drops what no rule reads again: concluded submissions, their PRs' records, and finished runs. */
function compact(engine: MergeQueueEngine, queue: QueueRecord): void {
  queue.submissions = queue.submissions.filter((s) => queue.live.has(s));
  for (const [prNumber, submission] of queue.latestByPr) {
    if (queue.live.has(submission)) continue;
    queue.latestByPr.delete(prNumber);
    engine.core.pullRequests.delete(`github.com/${REPO.owner}/${REPO.name}#${prNumber}`);
  }
  for (const [id, run] of queue.runs) {
    if (run.status !== 'in_progress' && !queue.liveRuns.has(run)) queue.runs.delete(id);
  }
}

/** A line this long is normal: every slot busy twice over, a batch filling behind each, and a few more. */
function floorOf(settings: QueueSettingsState): number {
  const batch = settings.batch ? settings.batchingMinSize : 1;
  return 2 * settings.concurrency * batch + 5;
}

// Fitting what the engine cannot know from a history file: arrivals (each PR's first ready time, in
// recorded order), each PR's verdict (culprit: it ended failed; clean: it merged), a flake rate per PR
// tested (from failed runs whose every PR later merged: a batch of n has n chances to flake), each PR's
// CI duration (pr-durations.ts), and how soon people re-submit a PR that failed. Also what actually
// happened, as the backtest's `recorded`.
import { perBatch, percentile, round, type ReplayMetrics } from '../../../queue-model/replay-metrics.js';
import type { EntryRecord, QueueHistory, RunRecord } from './history-file.js';
import { likeliestShare } from './all-of-n.js';
import { durationOf, fitPrDurations, type PrDurationFit } from './pr-durations.js';
import type { ReplayScenario } from './synthetic.js';

const MINUTE_MS = 60_000;
const DEFAULT_RESUBMIT_MS = 15 * MINUTE_MS;

export interface FittedQueue {
  scenario: ReplayScenario;
  /** The chance that one clean PR fails a run it is tested in anyway. */
  flakeRate: number;
  durations: PrDurationFit;
  resubmitAfterMs: number;
  prs: number;
  failedRuns: number;
  firstAt: number;
  lastAt: number;
}

interface PrStory {
  number: number;
  readyAt: number;
  mergedAt: number | null;
  failed: boolean;
  /** Gaps between a failure and the next entry. */
  resubmitGaps: number[];
}

/**
 * Each PR's story: its first readiness, its merge, whether it ended failed; PRs only cancelled are left
 * out. PRs ready at the same time keep the order the queue had them in (`queueOrderOf(runs)`).
 */
export function storiesOf(entries: readonly EntryRecord[], runs: readonly RunRecord[]): PrStory[] {
  const byPr = new Map<number, EntryRecord[]>();
  for (const entry of entries) {
    const list = byPr.get(entry.number) ?? [];
    list.push(entry);
    byPr.set(entry.number, list);
  }
  const stories: PrStory[] = [];
  for (const [number, list] of byPr) {
    list.sort((a, b) => Date.parse(a.transitions[0]![1]) - Date.parse(b.transitions[0]![1]));
    const ready = list.flatMap((e) => e.transitions).find((t) => t[0] === 'pending');
    const last = list.at(-1)!.transitions.at(-1)!;
    if (!ready || last[0] === 'cancelled') continue;
    const gaps: number[] = [];
    for (let i = 1; i < list.length; i++) {
      const previous = list[i - 1]!.transitions.at(-1)!;
      if (previous[0] === 'failed')
        gaps.push(Date.parse(list[i]!.transitions[0]![1]) - Date.parse(previous[1]));
    }
    stories.push({
      number,
      readyAt: Date.parse(ready[1]),
      mergedAt: last[0] === 'merged' ? Date.parse(last[1]) : null,
      failed: last[0] === 'failed',
      resubmitGaps: gaps,
    });
  }
  const order = queueOrderOf(runs);
  const place = (story: PrStory) => order.get(story.number) ?? Number.MAX_SAFE_INTEGER;
  // Same ready time: the order the queue recorded (the file's order breaks what is left of the ties).
  return stories.sort((a, b) => a.readyAt - b.readyAt || place(a) - place(b));
}

/**
 * Each PR's place in the queue's recorded order: PRs by the first run that tested them (earliest
 * first) and, within a run, in the order it lists them, which is the queue's. The export writes PRs
 * newest first, so the file's order alone would replay a burst of PRs backwards.
 */
export function queueOrderOf(runs: readonly RunRecord[]): Map<number, number> {
  const byStart = [...runs].sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
  const order = new Map<number, number>();
  for (const run of byStart) {
    for (const number of run.tested) if (!order.has(number)) order.set(number, order.size);
  }
  return order;
}

export function fitQueue(history: QueueHistory, fitRuns: readonly RunRecord[] = history.runs): FittedQueue {
  const stories = storiesOf(history.entries, history.runs);
  const culprits = new Set(stories.filter((s) => s.failed).map((s) => s.number));
  const clean = new Set(stories.filter((s) => s.mergedAt !== null).map((s) => s.number));
  const executed = fitRuns.filter(ranInCi);
  const judged = executed.filter(
    (r) => r.status !== 'cancelled' && [...r.tested, ...r.dependent].every((n) => clean.has(n)),
  );
  const gaps = stories.flatMap((s) => s.resubmitGaps).sort((a, b) => a - b);
  return {
    scenario: { arrivals: stories.map((s) => ({ at: s.readyAt, prNumber: s.number })), culprits },
    flakeRate: perPrFlakeRate(judged),
    durations: fitPrDurations(executed),
    resubmitAfterMs: gaps.length > 0 ? percentile(gaps, 0.5) : DEFAULT_RESUBMIT_MS,
    prs: stories.length,
    failedRuns: executed.filter((r) => r.status === 'failed').length,
    firstAt: stories[0]?.readyAt ?? 0,
    lastAt: stories.at(-1)?.readyAt ?? 0,
  };
}

/** What happened, measured as a replay measures it. */
export function recordedMetrics(history: QueueHistory): ReplayMetrics {
  const stories = storiesOf(history.entries, history.runs);
  const waits = stories
    .filter((s) => s.mergedAt !== null)
    .map((s) => s.mergedAt! - s.readyAt)
    .sort((a, b) => a - b);
  const executed = history.runs.filter(ranInCi);
  const ciMs = executed.reduce((sum, r) => sum + durationOf(r), 0);
  const merged = waits.length;
  const perMerge = (value: number) => (merged === 0 ? 0 : round(value / merged, 2));
  const mergesByHour = new Map<number, number>();
  for (const s of stories) {
    if (s.mergedAt === null) continue;
    const hour = Math.floor(s.mergedAt / 3_600_000);
    mergesByHour.set(hour, (mergesByHour.get(hour) ?? 0) + 1);
  }
  return {
    merged,
    p50Minutes: round(percentile(waits, 0.5) / MINUTE_MS, 1),
    p90Minutes: round(percentile(waits, 0.9) / MINUTE_MS, 1),
    ciRunsPerMerge: perMerge(executed.length),
    ciMinutesPerMerge: perMerge(ciMs / MINUTE_MS),
    failed: stories.filter((s) => s.failed).length,
    innocentEvictions: 0,
    peakConcurrentRuns: peakConcurrent(executed),
    mergedPerHourAtPeak: Math.max(0, ...mergesByHour.values()),
    ciRuns: executed.length,
    ciMinutes: round(ciMs / MINUTE_MS, 1),
    isolationRunsPerFailedBatch: perBatch(
      executed.filter((r) => r.bisection).length,
      executed.filter((r) => !r.bisection && r.status === 'failed' && r.tested.length > 1).length,
    ),
  };
}

/** The likeliest chance that one clean PR flakes in a run, a run failing when any of its PRs does. */
function perPrFlakeRate(judged: readonly RunRecord[]): number {
  let held = 0;
  const flaked = new Map<number, number>();
  for (const run of judged) {
    const size = Math.max(1, run.tested.length);
    if (run.status === 'failed') flaked.set(size, (flaked.get(size) ?? 0) + 1);
    else held += size;
  }
  return 1 - likeliestShare(held, flaked);
}

/** A run CI executed: a failure the queue reused (skip-redundant) took no time and is not one. */
function ranInCi(run: RunRecord): boolean {
  return !(run.status === 'failed' && durationOf(run) === 0);
}

function peakConcurrent(runs: readonly RunRecord[]): number {
  const edges = runs.flatMap((r) => [
    [Date.parse(r.createdAt), 1],
    [Date.parse(r.finishedAt), -1],
  ]);
  edges.sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
  let running = 0;
  let peak = 0;
  for (const [, step] of edges) peak = Math.max(peak, (running += step!));
  return peak;
}

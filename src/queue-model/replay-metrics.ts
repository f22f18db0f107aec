// What a replay measures, streamed from the engine's events so that nothing of a concluded PR is kept:
// merges and their time in queue (from ready to merged, across re-submissions of the same PR), CI runs
// that executed and their minutes (cancelled runs included, time waiting for a runner not), innocent
// evictions, peak concurrent runs.
import type { HistoryEvent } from './types.js';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** The figures the planner compares settings by (its `M`), and what the table shows beside them. */
export interface ReplayMetrics {
  merged: number;
  p50Minutes: number;
  p90Minutes: number;
  ciRunsPerMerge: number;
  ciMinutesPerMerge: number;
  failed: number;
  /** PRs that broke nothing but were failed out of the queue (a flaky run, a timeout). */
  innocentEvictions: number;
  peakConcurrentRuns: number;
  /** The most merges in any one clock hour. */
  mergedPerHourAtPeak: number;
  ciRuns: number;
  ciMinutes: number;
  /** Bisection runs executed per failed batch (a failed main run of more than one PR); 0 without any. */
  isolationRunsPerFailedBatch: number;
}

export class MetricsCollector {
  private readonly readyAt = new Map<number, number>();
  private readonly runStartedAt = new Map<string, number>();
  private readonly waits: number[] = [];
  private readonly mergesByHour = new Map<number, number>();
  private failed = 0;
  private innocent = 0;
  private running = 0;
  private peakRunning = 0;
  private ciRuns = 0;
  private ciMs = 0;
  private isolationRuns = 0;
  private failedBatches = 0;

  /**
   * `isCulprit` tells a PR that breaks the build from one that does not (unknown: treat as culprit);
   * `queuedMs` how long a run waited for a runner (not CI minutes).
   */
  constructor(
    private readonly isCulprit: (prNumber: number) => boolean,
    private readonly queuedMs: (runId: string) => number = () => 0,
  ) {}

  observe(event: HistoryEvent): void {
    if (event.kind === 'run') this.observeRun(event);
    else this.observeState(event);
  }

  private observeRun(event: Extract<HistoryEvent, { kind: 'run' }>): void {
    if (event.status === 'in_progress') {
      this.runStartedAt.set(event.runId, event.startedAt);
      this.ciRuns++;
      if (event.runKind === 'bisection') this.isolationRuns++;
      this.running++;
      if (this.running > this.peakRunning) this.peakRunning = this.running;
      return;
    }
    if (event.status === 'failed' && event.runKind === 'main' && event.prNumbers.length > 1) {
      this.failedBatches++;
    }
    // A failure reused by skip-redundant never started: it is not a run and took no minutes.
    const startedAt = this.runStartedAt.get(event.runId);
    if (startedAt === undefined) return;
    this.runStartedAt.delete(event.runId);
    this.running--;
    this.ciMs += Math.max(0, event.at - startedAt - this.queuedMs(event.runId));
  }

  private observeState(event: Extract<HistoryEvent, { kind: 'pr_state' }>): void {
    // Time in queue runs from the PR's first readiness to its merge, whatever re-submissions came between.
    if (event.to === 'pending' && !this.readyAt.has(event.prNumber)) {
      this.readyAt.set(event.prNumber, event.at);
    } else if (event.to === 'merged') {
      const ready = this.readyAt.get(event.prNumber) ?? event.at;
      this.readyAt.delete(event.prNumber);
      this.waits.push(event.at - ready);
      const hour = Math.floor(event.at / HOUR_MS);
      this.mergesByHour.set(hour, (this.mergesByHour.get(hour) ?? 0) + 1);
    } else if (event.to === 'failed') {
      this.failed++;
      if (!this.isCulprit(event.prNumber)) this.innocent++;
    }
  }

  /** Forgets a PR that will not come back (it failed and is not re-submitted). */
  forget(prNumber: number): void {
    this.readyAt.delete(prNumber);
  }

  metrics(): ReplayMetrics {
    const merged = this.waits.length;
    const sorted = Float64Array.from(this.waits).sort();
    const perMerge = (value: number) => (merged === 0 ? 0 : round(value / merged, 2));
    return {
      merged,
      p50Minutes: round(percentile(sorted, 0.5) / MINUTE_MS, 1),
      p90Minutes: round(percentile(sorted, 0.9) / MINUTE_MS, 1),
      ciRunsPerMerge: perMerge(this.ciRuns),
      ciMinutesPerMerge: perMerge(this.ciMs / MINUTE_MS),
      failed: this.failed,
      innocentEvictions: this.innocent,
      peakConcurrentRuns: this.peakRunning,
      mergedPerHourAtPeak: Math.max(0, ...this.mergesByHour.values()),
      ciRuns: this.ciRuns,
      ciMinutes: round(this.ciMs / MINUTE_MS, 1),
      isolationRunsPerFailedBatch: perBatch(this.isolationRuns, this.failedBatches),
    };
  }
}

/** Isolation (bisection) runs per failed batch, to two places; 0 when no batch failed. */
export function perBatch(isolationRuns: number, failedBatches: number): number {
  return failedBatches === 0 ? 0 : round(isolationRuns / failedBatches, 2);
}

/** The nearest-rank percentile: a value that was observed (the 9th of 10 for p90); 0 when there is none. */
export function percentile(sorted: ArrayLike<number>, fraction: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.max(1, Math.ceil(fraction * sorted.length));
  return sorted[rank - 1]!;
}

export function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

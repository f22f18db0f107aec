// Reading the service's Prometheus text (format 0.0.4): parsed by prom2javascript, then folded into one
// row per queue (repo, branch, queue_type) and headline totals.
import {
  getMetricsFromIterator,
  type PromData,
  type PromHistogramData,
  type PromMetrics,
} from 'prom2javascript';

/** The metric names the service publishes. */
export const METRIC_NAMES = {
  depth: 'mq_depth_current',
  awaitingMergeability: 'mq_awaiting_mergeability',
  testing: 'mq_testing_slots_active',
  conclusions: 'mq_pr_conclusions_1h_total',
  restarts: 'mq_pr_restarts_1h_total',
  waitDuration: 'mq_pr_wait_duration_1h_seconds',
  testDuration: 'mq_pr_test_duration_1h_seconds',
  timeInQueue: 'mq_pr_time_in_queue_1h_seconds',
} as const;

export const CONCLUSIONS = ['merged', 'failed', 'cancelled'] as const;

export interface Durations {
  count: number;
  sumSeconds: number;
  /** Cumulative counts by upper bound in seconds (`le`), +Inf as Infinity. */
  buckets: Map<number, number>;
}

export interface Figures {
  depth: number;
  testing: number;
  awaitingMergeability: number;
  conclusions: Record<(typeof CONCLUSIONS)[number], number>;
  restarts: number;
  waitDuration: Durations;
  testDuration: Durations;
  timeInQueue: Durations;
}

export interface QueueFigures extends Figures {
  repo: string;
  branch: string;
  queueType: string;
}

export interface Scope {
  /** `owner/name`; every repository when absent. */
  repo?: string;
  /** Every branch when absent. */
  branch?: string;
}

/** Parses the text; throws with the parser's reason when it is not valid Prometheus text. */
export function parseMetricsText(text: string): Promise<PromMetrics> {
  return getMetricsFromIterator(text.split('\n')[Symbol.iterator]());
}

/** One row per queue in scope, ordered by repo, branch and queue type. */
export function figuresByQueue(metrics: PromMetrics, scope: Scope = {}): QueueFigures[] {
  const queues = new Map<string, QueueFigures>();
  const rowFor = (labels: Record<string, string>): QueueFigures | undefined => {
    const repo = labels.repo ?? '';
    const branch = labels.branch ?? '';
    if ((scope.repo && repo !== scope.repo) || (scope.branch && branch !== scope.branch)) return undefined;
    const queueType = labels.queue_type ?? '';
    const key = JSON.stringify([repo, branch, queueType]);
    let row = queues.get(key);
    if (!row) {
      row = { repo, branch, queueType, ...emptyFigures() };
      queues.set(key, row);
    }
    return row;
  };

  for (const sample of samples(metrics, METRIC_NAMES.depth)) {
    const row = rowFor(sample.labels);
    if (row) row.depth += sample.value;
  }
  for (const sample of samples(metrics, METRIC_NAMES.testing)) {
    const row = rowFor(sample.labels);
    if (row) row.testing += sample.value;
  }
  for (const sample of samples(metrics, METRIC_NAMES.awaitingMergeability)) {
    const row = rowFor(sample.labels);
    if (row) row.awaitingMergeability += sample.value;
  }
  for (const sample of samples(metrics, METRIC_NAMES.restarts)) {
    const row = rowFor(sample.labels);
    if (row) row.restarts += sample.value;
  }
  for (const sample of samples(metrics, METRIC_NAMES.conclusions)) {
    const row = rowFor(sample.labels);
    const conclusion = sample.labels.conclusion?.toLowerCase();
    if (row && isConclusion(conclusion)) row.conclusions[conclusion] += sample.value;
  }
  for (const field of ['waitDuration', 'testDuration', 'timeInQueue'] as const) {
    for (const histogram of histograms(metrics, METRIC_NAMES[field])) {
      const row = rowFor(histogram.labels);
      if (!row) continue;
      addHistogram(row[field], histogram);
    }
  }
  return [...queues.values()].sort(
    (a, b) =>
      a.repo.localeCompare(b.repo) ||
      a.branch.localeCompare(b.branch) ||
      a.queueType.localeCompare(b.queueType),
  );
}

/**
 * The figures of several queues added up. A bisection lane's depth counts PRs that its main queue counts
 * too, so depth adds up main queues only; its test runs are its own, so testing adds up every lane.
 */
export function total(rows: QueueFigures[]): Figures {
  const sum = emptyFigures();
  for (const row of rows) {
    if (row.queueType !== 'bisection') sum.depth += row.depth;
    sum.testing += row.testing;
    sum.awaitingMergeability += row.awaitingMergeability;
    sum.restarts += row.restarts;
    for (const conclusion of CONCLUSIONS) sum.conclusions[conclusion] += row.conclusions[conclusion];
    for (const field of ['waitDuration', 'testDuration', 'timeInQueue'] as const) {
      sum[field].count += row[field].count;
      sum[field].sumSeconds += row[field].sumSeconds;
      for (const [le, count] of row[field].buckets) {
        sum[field].buckets.set(le, (sum[field].buckets.get(le) ?? 0) + count);
      }
    }
  }
  return sum;
}

function emptyFigures(): Figures {
  return {
    depth: 0,
    testing: 0,
    awaitingMergeability: 0,
    conclusions: { merged: 0, failed: 0, cancelled: 0 },
    restarts: 0,
    waitDuration: emptyDurations(),
    testDuration: emptyDurations(),
    timeInQueue: emptyDurations(),
  };
}

function emptyDurations(): Durations {
  return { count: 0, sumSeconds: 0, buckets: new Map() };
}

function addHistogram(into: Durations, histogram: PromHistogramData): void {
  into.count += histogram.count;
  into.sumSeconds += histogram.sum ?? 0;
  for (const [bound, count] of Object.entries(histogram.buckets ?? {})) {
    const le = /^\+?inf$/i.test(bound) ? Infinity : Number(bound);
    if (Number.isNaN(le) || !Number.isFinite(count)) continue;
    into.buckets.set(le, (into.buckets.get(le) ?? 0) + count);
  }
}

export interface Quantile {
  /** The bucket the quantile falls in: its lower and upper bound in seconds (upper may be Infinity). */
  lowSeconds: number;
  highSeconds: number;
  /** Linear interpolation inside that bucket, as Prometheus's histogram_quantile does. */
  estimateSeconds: number;
}

/** The q-quantile (0..1) of a histogram; undefined when it has no observations. */
export function quantile(durations: Durations, q: number): Quantile | undefined {
  const bounds = [...durations.buckets.entries()].sort(([a], [b]) => a - b);
  const total = bounds.length ? bounds[bounds.length - 1]![1] : 0;
  if (!total) return undefined;
  const rank = q * total;
  let lower = 0;
  let below = 0;
  for (const [le, cumulative] of bounds) {
    if (cumulative >= rank) {
      if (!Number.isFinite(le)) return { lowSeconds: lower, highSeconds: Infinity, estimateSeconds: lower };
      const inBucket = cumulative - below;
      const share = inBucket > 0 ? (rank - below) / inBucket : 0;
      return { lowSeconds: lower, highSeconds: le, estimateSeconds: lower + (le - lower) * share };
    }
    lower = Number.isFinite(le) ? le : lower;
    below = cumulative;
  }
  return undefined;
}

/** Counts per bucket (not cumulative), for a chart. */
export function bucketCounts(
  durations: Durations,
): { lowSeconds: number; highSeconds: number; count: number }[] {
  const bounds = [...durations.buckets.entries()].sort(([a], [b]) => a - b);
  let lower = 0;
  let below = 0;
  return bounds.map(([le, cumulative]) => {
    const row = { lowSeconds: lower, highSeconds: le, count: Math.max(0, cumulative - below) };
    lower = le;
    below = cumulative;
    return row;
  });
}

function isConclusion(value: string | undefined): value is (typeof CONCLUSIONS)[number] {
  return (CONCLUSIONS as readonly (string | undefined)[]).includes(value);
}

function samples(metrics: PromMetrics, name: string): PromData[] {
  const family = metrics[name];
  if (!family || family.type === 'histogram' || family.type === 'summary') return [];
  return family.data as PromData[];
}

function histograms(metrics: PromMetrics, name: string): PromHistogramData[] {
  const family = metrics[name];
  return family?.type === 'histogram' ? (family.data as PromHistogramData[]) : [];
}

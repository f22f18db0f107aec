// Each PR's CI duration, fitted from runs. A run of several PRs lasts as long as its slowest PR (the
// emulator's CI, and a batch's build), so a batch run's duration is the longest of its PRs' and says
// little of each: a replay that gave a single-PR run a batch run's duration would run too slow. The
// fit keeps two things: a population of per-PR durations, deconvolved from runs of every size (a run of
// n PRs lasting at most x is n PRs each lasting at most x), and what the runs tell of each PR (a run of
// it alone gives its duration; a run of several an upper bound, and one of them lasting that long).
// A replay draws each PR's duration once per seed, consistent with that evidence, and a run lasts as
// long as the longest of its PRs'.
import { likeliestShare } from './all-of-n.js';
import { SeededRandom } from '../../../queue-model/random.js';
import type { RunRecord } from './history-file.js';
import { mix } from './synthetic.js';

const DEFAULT_DURATION_MS = 30 * 60_000;
/** Points of the population's distribution: enough for whole minutes over days, cheap to fit. */
const GRID_POINTS = 256;
/** Runs of one outcome needed before their own durations stand for it. */
const RUNS_PER_OUTCOME = 10;

/** A distribution over durations: `cdf[i]` is the share at most `ms[i]`, both ascending. */
export interface Population {
  ms: Float64Array;
  cdf: Float64Array;
}

export interface PrDurationFit {
  /** Durations of clean PRs. */
  population: Population;
  /** Durations of culprits alone (their own failed runs) when there are enough, else `population`. */
  culpritPopulation: Population;
  /** The shortest run each PR was in: its duration when alone, an upper bound otherwise. */
  bound: Map<number, number>;
  /** PRs that ran alone: their bound is their duration. */
  alone: Set<number>;
  /** Runs of several PRs: one of `prs` lasted `ms`. */
  longest: { prs: readonly number[]; ms: number }[];
}

interface Sized {
  size: number;
  ms: number;
}

/**
 * Fits from finished runs (cancelled ones stopped part-way). A PR's evidence is its passed runs, or its
 * failed ones when it never passed (a culprit): a failing run may stop early and say nothing of a pass.
 */
export function fitPrDurations(runs: readonly RunRecord[]): PrDurationFit {
  const finished = runs.filter((r) => r.status !== 'cancelled' && r.tested.length > 0);
  const passed = finished.filter((r) => r.status === 'succeeded');
  const passedPrs = new Set(passed.flatMap((r) => r.tested));
  const evidence = finished.filter(
    (r) => r.status === 'succeeded' || r.tested.every((pr) => !passedPrs.has(pr)),
  );
  const bound = new Map<number, number>();
  const alone = new Set<number>();
  for (const run of evidence) {
    const ms = durationOf(run);
    for (const pr of run.tested) bound.set(pr, Math.min(bound.get(pr) ?? Infinity, ms));
    if (run.tested.length === 1) alone.add(run.tested[0]!);
  }
  const longest = evidence
    .filter((r) => r.tested.length > 1)
    .map((r) => ({ prs: r.tested, ms: durationOf(r) }));
  const culpritRuns = finished.filter((r) => r.status === 'failed' && r.tested.length === 1);
  const population = deconvolve(sized(passed.length >= RUNS_PER_OUTCOME ? passed : finished));
  return {
    population,
    culpritPopulation: culpritRuns.length >= RUNS_PER_OUTCOME ? deconvolve(sized(culpritRuns)) : population,
    bound,
    alone,
    longest,
  };
}

/**
 * Each PR's duration for one seed: a PR that ran alone keeps its duration; in each run of several none
 * of whose PRs is known to have lasted that long, one of the PRs it bounds that tightly (drawn) did;
 * every other PR is drawn from the population below its bound (or from all of it, never seen).
 */
export function prDurationsFor(
  fit: PrDurationFit,
  prs: readonly number[],
  isCulprit: (pr: number) => boolean,
  seed: number,
): Map<number, number> {
  const known = new Map<number, number>();
  for (const pr of fit.alone) known.set(pr, fit.bound.get(pr)!);
  const pick = new SeededRandom(mix(seed, 0x10f6));
  for (const run of fit.longest) {
    if (run.prs.some((pr) => (known.get(pr) ?? -1) >= run.ms)) continue;
    const tight = run.prs.filter((pr) => !known.has(pr) && fit.bound.get(pr) === run.ms);
    if (tight.length > 0) known.set(tight[pick.int(tight.length)]!, run.ms);
  }
  const durations = new Map<number, number>();
  for (const pr of prs) {
    const ms = known.get(pr);
    if (ms !== undefined) {
      durations.set(pr, ms);
      continue;
    }
    const random = new SeededRandom(mix(seed, pr ^ 0x7a3d));
    const population = isCulprit(pr) ? fit.culpritPopulation : fit.population;
    durations.set(pr, drawBelow(population, fit.bound.get(pr) ?? Infinity, random.next()));
  }
  return durations;
}

/** A duration from `population` at most `limit` (`limit` itself when the population has none that short). */
export function drawBelow(population: Population, limit: number, uniform: number): number {
  const { ms, cdf } = population;
  if (ms.length === 0) return Number.isFinite(limit) ? limit : DEFAULT_DURATION_MS;
  const top = lastAtMost(ms, limit);
  if (top < 0 || cdf[top]! <= 0) return limit;
  const target = uniform * cdf[top]!;
  let lo = 0;
  let hi = top;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cdf[mid]! > target) hi = mid;
    else lo = mid + 1;
  }
  return ms[lo]!;
}

function lastAtMost(sorted: Float64Array, limit: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! <= limit) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

function sized(runs: readonly RunRecord[]): Sized[] {
  return runs.map((r) => ({ size: r.tested.length, ms: durationOf(r) })).sort((a, b) => a.ms - b.ms);
}

/**
 * The per-PR distribution F from runs that each last as long as their longest PR: at each point x, the
 * likeliest share of PRs done by x (all-of-n.ts), then made non-decreasing. Runs of one PR alone give the
 * empirical CDF.
 */
export function deconvolve(runs: readonly Sized[]): Population {
  const grid = gridOf(runs.map((r) => r.ms));
  const cdf = new Float64Array(grid.length);
  const going = new Map<number, number>();
  for (const run of runs) going.set(run.size, (going.get(run.size) ?? 0) + 1);
  let done = 0;
  let next = 0;
  let highest = 0;
  for (let i = 0; i < grid.length; i++) {
    while (next < runs.length && runs[next]!.ms <= grid[i]!) {
      const { size } = runs[next++]!;
      done += size;
      going.set(size, going.get(size)! - 1);
    }
    highest = Math.max(highest, likeliestShare(done, going));
    cdf[i] = highest;
  }
  return { ms: grid, cdf };
}

/** The distinct durations, or GRID_POINTS of their quantiles when there are more. */
function gridOf(sortedMs: readonly number[]): Float64Array {
  const distinct = [...new Set(sortedMs)];
  if (distinct.length <= GRID_POINTS) return Float64Array.from(distinct);
  const points = new Set<number>();
  for (let i = 1; i <= GRID_POINTS; i++) {
    points.add(sortedMs[Math.ceil((i / GRID_POINTS) * sortedMs.length) - 1]!);
  }
  return Float64Array.from([...points].sort((a, b) => a - b));
}

export function durationOf(run: RunRecord): number {
  return Date.parse(run.finishedAt) - Date.parse(run.createdAt);
}

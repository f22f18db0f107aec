// The recommendation: the candidate that best serves the objective, only when it beats the current
// settings by more than the seeds' spread (and the backtest's own error), stays stable, keeps merging as
// much, and stays within the runner cap. Otherwise a verdict that says why the settings stay.
import type { CandidateResult } from './evaluate.js';
import type { Objective } from './inputs.js';
import { configPatch, SETTING_NAMES, updateQueueBody, type PlanSettings } from './settings.js';
import { plural } from '../../report/words.js';

export interface Recommendation {
  settings: PlanSettings;
  /** The v2 config patch (PATCH /v2/merge-queues/{id}/config): printed, never sent. */
  patch: Partial<PlanSettings>;
  /** The same change as v1's updateQueue body: printed, never sent. */
  updateQueueBody: Record<string, unknown>;
  reason: string;
}

export interface Choice {
  recommendation: Recommendation | null;
  /** Why there is none; null when there is one. */
  verdict: string | null;
}

const OBJECTIVE_WORDS: Record<Objective, { what: string; unit: string }> = {
  p90: { what: 'p90 time in queue', unit: 'min' },
  p50: { what: 'median time in queue', unit: 'min' },
  'ci-minutes': { what: 'CI minutes per merged PR', unit: 'CI min' },
};
/** A candidate that merges fewer PRs than this share of the current settings' is not a better setting. */
const MERGES_KEPT = 0.99;

export interface ChoiceOptions {
  objective: Objective;
  runnerCap?: number;
  /** The most CI minutes per merged PR a recommended candidate may cost. */
  ciMinutesBudget?: number;
  modelError?: number;
}

/** ` within 8 runners and 45 CI minutes per merged PR (ci-minutes-budget)` */
function withinWords(options: ChoiceOptions): string {
  const limits = [
    ...(options.runnerCap ? [`${options.runnerCap} runners`] : []),
    ...(options.ciMinutesBudget !== undefined
      ? [`${fmt(options.ciMinutesBudget)} CI minutes per merged PR (ci-minutes-budget)`]
      : []),
  ];
  return limits.length > 0 ? ` within ${limits.join(' and ')}` : '';
}

export function choose(
  current: CandidateResult,
  others: readonly CandidateResult[],
  options: ChoiceOptions,
): Choice {
  const eligible = others.filter(
    (c) =>
      c.stable &&
      c.metrics.merged >= MERGES_KEPT * current.metrics.merged &&
      (options.runnerCap === undefined || c.metrics.peakConcurrentRuns <= options.runnerCap) &&
      (options.ciMinutesBudget === undefined || c.metrics.ciMinutesPerMerge <= options.ciMinutesBudget),
  );
  const words = OBJECTIVE_WORDS[options.objective];
  if (eligible.length === 0) {
    const within = withinWords(options);
    if (!current.stable) {
      return none(
        `keep your settings for now: their line grows without bound from day ${current.unstableSinceDay ?? 1}, and no candidate tried keeps up${within} either; try larger values (e.g. --vary concurrency=${4 * current.settings.concurrency},${8 * current.settings.concurrency})`,
      );
    }
    return none(`keep your settings: no other candidate stays stable${within} and merges as much`);
  }
  const best = eligible.reduce((a, b) => (mean(b.objectiveBySeed) < mean(a.objectiveBySeed) ? b : a));
  const gain = mean(current.objectiveBySeed) - mean(best.objectiveBySeed);
  const margin =
    Math.max(spread(current.objectiveBySeed), spread(best.objectiveBySeed)) + (options.modelError ?? 0);
  if (current.stable && !(gain > 0)) {
    return none(
      `keep your settings: no candidate beats them; the best tried (${changeOf(current.settings, best.settings)}) ${gain < 0 ? `makes the ${words.what} ${fmt(-gain)} ${words.unit} worse` : `leaves the ${words.what} as it is`}`,
    );
  }
  if (current.stable && !(gain > margin)) {
    return none(
      `keep your settings: the best candidate (${changeOf(current.settings, best.settings)}) changes the ${words.what} by ${fmt(-gain)} ${words.unit}, within the model's margin of ${fmt(margin)} ${words.unit} (seeds' spread${options.modelError ? ' plus the backtest error' : ''})`,
    );
  }
  const patch = configPatch(current.settings, best.settings);
  return {
    recommendation: {
      settings: best.settings,
      patch,
      updateQueueBody: updateQueueBody(patch),
      reason: reasonFor(current, best, gain, margin, options.objective),
    },
    verdict: null,
  };
}

function reasonFor(
  current: CandidateResult,
  best: CandidateResult,
  gain: number,
  margin: number,
  objective: Objective,
) {
  const words = OBJECTIVE_WORDS[objective];
  const from = mean(current.objectiveBySeed);
  const to = mean(best.objectiveBySeed);
  const cost = best.metrics.ciMinutesPerMerge - current.metrics.ciMinutesPerMerge;
  const why = current.stable
    ? `cuts the ${words.what} from ${fmt(from)} to ${fmt(to)} ${words.unit} (${fmt(gain)} better, beyond the margin of ${fmt(margin)})`
    : `keeps up with arrivals, which the current settings do not (their line grows from day ${current.unstableSinceDay ?? 1}); ${words.what} ${fmt(to)} ${words.unit}`;
  return `${changeOf(current.settings, best.settings)} ${why}, at ${cost >= 0 ? '+' : ''}${fmt(cost)} CI minutes per merged PR and a peak of ${plural(best.metrics.peakConcurrentRuns, 'concurrent run')}`;
}

/** `concurrency 1 -> 2, allowBatching false -> true` */
export function changeOf(from: PlanSettings, to: PlanSettings): string {
  const changes = SETTING_NAMES.filter((n) => from[n] !== to[n]).map((n) => `${n} ${from[n]} -> ${to[n]}`);
  return changes.length > 0 ? changes.join(', ') : 'the current settings';
}

function none(verdict: string): Choice {
  return { recommendation: null, verdict };
}

export function mean(values: readonly number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / Math.max(1, values.length);
}

export function spread(values: readonly number[]): number {
  return values.length === 0 ? 0 : Math.max(...values) - Math.min(...values);
}

function fmt(value: number): string {
  return String(Math.round(value * 10) / 10);
}

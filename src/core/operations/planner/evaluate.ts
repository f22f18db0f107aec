// Replaying one candidate: once per seed on the same PRs, then the arrivals x1.5 and x2 (first seed) to
// see how much headroom it leaves. Its metrics are the seeds' means; its band the seeds' range.
import type { CiModel } from '../../../queue-model/ci-model.js';
import type { VirtualClock } from '../../../queue-model/clock.js';
import { replay, type ReplayOutcome } from '../../../queue-model/replay.js';
import { round, type ReplayMetrics } from '../../../queue-model/replay-metrics.js';
import type { Objective } from './inputs.js';
import { between, type PlanPace } from './pace.js';
import { engineSettings, type PlanSettings } from './settings.js';
import { faster, type ReplayScenario } from './synthetic.js';

/** What a replay needs beside the settings: the PRs of a seed and the CI they meet. */
export interface QueueModel {
  scenario(seed: number): ReplayScenario;
  ci(seed: number, scenario: ReplayScenario, clock: VirtualClock): CiModel;
  /** How long after an innocent failure a PR is submitted again. */
  resubmitAfterMs: number;
}

export const HEADROOM_FACTORS = [1.5, 2] as const;

export interface CandidateResult {
  settings: PlanSettings;
  metrics: ReplayMetrics;
  stable: boolean;
  /** The first day the line kept growing, in the seed where it came soonest; null when stable. */
  unstableSinceDay: number | null;
  /** The seeds' lowest and highest p50 and p90. */
  band: { p50Minutes: [number, number]; p90Minutes: [number, number] };
  /** Whether it stays stable with arrivals that much faster. */
  headroom: { 'x1.5': boolean; x2: boolean };
  /** The objective's value in each seed. */
  objectiveBySeed: number[];
}

/** The candidates replayed (the current settings first) out of how many there were. */
export interface Replayed {
  results: CandidateResult[];
  total: number;
}

export async function evaluate(
  settings: PlanSettings,
  model: QueueModel,
  seeds: number,
  objective: Objective,
  pace: PlanPace = {},
): Promise<CandidateResult> {
  const outcomes: ReplayOutcome[] = [];
  for (let seed = 1; seed <= seeds; seed++) {
    await between(pace);
    outcomes.push(replayOnce(settings, model, seed, 1));
  }
  const headroom: boolean[] = [];
  for (const factor of HEADROOM_FACTORS) {
    await between(pace);
    headroom.push(replayOnce(settings, model, 1, factor).stable);
  }
  const days = outcomes.map((o) => o.unstableSinceDay).filter((d): d is number => d !== null);
  const p50s = outcomes.map((o) => o.metrics.p50Minutes);
  const p90s = outcomes.map((o) => o.metrics.p90Minutes);
  const result: CandidateResult = {
    settings,
    metrics: meanMetrics(outcomes.map((o) => o.metrics)),
    stable: outcomes.every((o) => o.stable),
    unstableSinceDay: days.length > 0 ? Math.min(...days) : null,
    band: {
      p50Minutes: [Math.min(...p50s), Math.max(...p50s)],
      p90Minutes: [Math.min(...p90s), Math.max(...p90s)],
    },
    headroom: { 'x1.5': headroom[0]!, x2: headroom[1]! },
    objectiveBySeed: outcomes.map((o) => objectiveOf(o.metrics, objective)),
  };
  return result;
}

function replayOnce(settings: PlanSettings, model: QueueModel, seed: number, factor: number): ReplayOutcome {
  const base = model.scenario(seed);
  const scenario = factor === 1 ? base : faster(base, factor);
  return replay({
    settings: engineSettings(settings),
    arrivals: scenario.arrivals,
    ci: (clock) => model.ci(seed, scenario, clock),
    seed,
    isCulprit: (pr) => scenario.culprits.has(pr),
    resubmitAfterMs: model.resubmitAfterMs,
  });
}

export function objectiveOf(metrics: ReplayMetrics, objective: Objective): number {
  if (objective === 'p50') return metrics.p50Minutes;
  if (objective === 'ci-minutes') return metrics.ciMinutesPerMerge;
  return metrics.p90Minutes;
}

function meanMetrics(all: ReplayMetrics[]): ReplayMetrics {
  const mean = (pick: (m: ReplayMetrics) => number, digits: number) =>
    round(all.reduce((sum, m) => sum + pick(m), 0) / all.length, digits);
  return {
    merged: mean((m) => m.merged, 1),
    p50Minutes: mean((m) => m.p50Minutes, 1),
    p90Minutes: mean((m) => m.p90Minutes, 1),
    ciRunsPerMerge: mean((m) => m.ciRunsPerMerge, 2),
    ciMinutesPerMerge: mean((m) => m.ciMinutesPerMerge, 2),
    failed: mean((m) => m.failed, 1),
    innocentEvictions: mean((m) => m.innocentEvictions, 1),
    peakConcurrentRuns: Math.max(...all.map((m) => m.peakConcurrentRuns)),
    mergedPerHourAtPeak: mean((m) => m.mergedPerHourAtPeak, 1),
    ciRuns: mean((m) => m.ciRuns, 1),
    ciMinutes: mean((m) => m.ciMinutes, 1),
    isolationRunsPerFailedBatch: mean((m) => m.isolationRunsPerFailedBatch, 2),
  };
}

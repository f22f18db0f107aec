// A plan from history: fit the model, replay the recorded settings (the backtest) and compare with what
// happened; only when it reproduces the history are candidates compared and one perhaps recommended.
// With 30 days or more it is out of sample (out-of-sample.ts).
import { SampledCi } from '../../../queue-model/sampled-ci.js';
import { SeededRandom } from '../../../queue-model/random.js';
import type { ReplayMetrics } from '../../../queue-model/replay-metrics.js';
import { evaluate, objectiveOf, type QueueModel } from './evaluate.js';
import { fitQueue, type FittedQueue } from './fit.js';
import { backtestSample } from './out-of-sample.js';
import type { QueueHistory } from './history-file.js';
import type { PlanQueueSettings } from './inputs.js';
import type { PlanPace } from './pace.js';
import { decide, replayCandidates } from './plan.js';
import { planReport, type PlanReport } from './report.js';
import { ordered, SETTING_KINDS, SETTING_NAMES, type PlanSettings } from './settings.js';
import { prDurationsFor } from './pr-durations.js';
import { mix, type ReplayScenario } from './synthetic.js';

export const MIN_PRS = 300;
export const MIN_FAILED_RUNS = 20;

/**
 * How close the replay must come: merges within 5% (or 2), times within 25% (or 10 min), CI runs per
 * merge within 25% (or 0.1), CI minutes per merge within 25% (or 1 min), isolation runs per failed
 * batch within 25% (or half a run: a month may hold only a handful of failed batches).
 */
export function fitProblems(recorded: ReplayMetrics, replayed: ReplayMetrics): string[] {
  const problems: string[] = [];
  const off = (name: string, a: number, b: number, share: number, floor: number, unit = '') => {
    if (Math.abs(a - b) > Math.max(floor, share * Math.abs(a)))
      problems.push(`${name} ${b}${unit} replayed against ${a}${unit} recorded`);
  };
  off('merged', recorded.merged, replayed.merged, 0.05, 2);
  off('p50', recorded.p50Minutes, replayed.p50Minutes, 0.25, 10, ' min');
  off('p90', recorded.p90Minutes, replayed.p90Minutes, 0.25, 10, ' min');
  off('CI runs per merge', recorded.ciRunsPerMerge, replayed.ciRunsPerMerge, 0.25, 0.1);
  off('CI minutes per merge', recorded.ciMinutesPerMerge, replayed.ciMinutesPerMerge, 0.25, 1, ' min');
  off(
    'isolation runs per failed batch',
    recorded.isolationRunsPerFailedBatch,
    replayed.isolationRunsPerFailedBatch,
    0.25,
    0.5,
  );
  return problems;
}

export async function planFromHistory(
  settings: PlanQueueSettings,
  history: QueueHistory,
  pace: PlanPace = {},
): Promise<PlanReport> {
  const current = recordedSettings(history);
  const fitted = fitQueue(history);
  const base = { synthetic: false, objective: settings.objective, seeds: settings.seeds };
  if (fitted.prs < MIN_PRS || fitted.failedRuns < MIN_FAILED_RUNS || !current) {
    const why = !current
      ? 'the history file holds no settings snapshot (export-queue-history writes one each run)'
      : `${fitted.prs} PRs and ${fitted.failedRuns} failed runs, and a fit needs at least ${MIN_PRS} PRs and ${MIN_FAILED_RUNS} failed runs`;
    return refusal(base, null, `not enough history: ${why}`);
  }
  const sample = backtestSample(history, fitted);
  const model = historyModel(sample.fitted, settings.runnerCap);
  const backtest = await evaluate(current, model, settings.seeds, settings.objective, pace);
  const recorded = sample.recorded;
  const replayed = backtest.metrics;
  const checked = { recorded, replayed, outOfSample: sample.outOfSample };
  const problems = fitProblems(recorded, replayed);
  if (problems.length > 0) {
    const where = sample.outOfSample
      ? ` (on the last third, from ${sample.outOfSample.checkedFrom}, fitted on the first two thirds)`
      : '';
    return refusal(
      base,
      checked,
      `the model does not reproduce your history${where}: ${problems.join('; ')}`,
    );
  }
  const modelError = Math.abs(
    objectiveOf(recorded, settings.objective) - objectiveOf(replayed, settings.objective),
  );
  const fullModel = historyModel(fitted, settings.runnerCap);
  const candidates = await replayCandidates(current, settings, fullModel, pace);
  const choice = decide(candidates, settings, modelError);
  return planReport({
    ...base,
    fit: true,
    backtest: checked,
    replayed: candidates,
    choice,
  });
}

function refusal(
  base: Pick<PlanReport, 'synthetic' | 'objective' | 'seeds'>,
  backtest: PlanReport['backtest'],
  verdict: string,
) {
  return planReport({
    ...base,
    fit: false,
    backtest,
    replayed: { results: [], total: 0 },
    choice: { recommendation: null, verdict },
  });
}

export function historyModel(fitted: FittedQueue, runnerCap: number | undefined): QueueModel {
  const bySeed = new Map<number, Map<number, number>>();
  const durationsOf = (seed: number, scenario: ReplayScenario) => {
    let durations = bySeed.get(seed);
    if (!durations) {
      const prs = scenario.arrivals.map((a) => a.prNumber);
      durations = prDurationsFor(fitted.durations, prs, (pr) => scenario.culprits.has(pr), seed);
      bySeed.set(seed, durations);
    }
    return durations;
  };
  return {
    scenario: () => fitted.scenario,
    ci: (seed, scenario, clock) => {
      const durations = durationsOf(seed, scenario);
      return new SampledCi({
        random: new SeededRandom(mix(seed, 0xc1)),
        duration: (pr) => durations.get(pr) ?? 0,
        flakeRate: fitted.flakeRate,
        flakePer: 'pr',
        isCulprit: (pr) => scenario.culprits.has(pr),
        runners: runnerCap,
        now: () => clock.now(),
      });
    },
    resubmitAfterMs: fitted.resubmitAfterMs,
  };
}

/** The latest snapshot's settings, each checked (a file is untrusted); undefined without a usable one. */
export function recordedSettings(history: QueueHistory): PlanSettings | undefined {
  const latest = [...history.settings].sort((a, b) => Date.parse(a.at) - Date.parse(b.at)).at(-1);
  if (!latest) return undefined;
  const given = latest.settings as unknown as Record<string, unknown>;
  for (const name of SETTING_NAMES) {
    const kind = SETTING_KINDS[name];
    const value = given[name];
    const ok =
      kind.type === 'boolean'
        ? typeof value === 'boolean'
        : kind.type === 'choice'
          ? kind.values.includes(value as string)
          : Number.isInteger(value) && (value as number) >= kind.min && (value as number) <= kind.max;
    if (!ok) return undefined;
  }
  return ordered(latest.settings);
}

// Planning: replay the candidates (the current settings first) through the queue model, choose, and
// report. Nothing here writes to the service: the patch it recommends is printed, never sent.
import { SampledCi } from '../../../queue-model/sampled-ci.js';
import { SeededRandom } from '../../../queue-model/random.js';
import { candidateSettings } from './candidates.js';
import { evaluate, type CandidateResult, type QueueModel } from './evaluate.js';
import type { PlanQueueSettings, SyntheticQueue } from './inputs.js';
import { choose } from './recommend.js';
import { planReport, type PlanReport } from './report.js';
import { newQueueSettings, type PlanSettings } from './settings.js';
import { mix, syntheticScenario, type ReplayScenario } from './synthetic.js';

/** How long after an innocent failure someone submits the PR again (synthetic; history fits its own). */
const SYNTHETIC_RESUBMIT_MS = 15 * 60_000;

export type Progress = (done: number, total: number) => void;

/** A synthetic plan: a new queue's defaults around which the candidates vary, never backtested. */
export function planSynthetic(
  settings: PlanQueueSettings,
  queue: SyntheticQueue,
  progress?: Progress,
): PlanReport {
  const model = syntheticModel(queue, settings.runnerCap);
  const candidates = replayCandidates(newQueueSettings(), settings, model, progress);
  const [current, ...others] = candidates;
  const choice = choose(current!, others, { objective: settings.objective, runnerCap: settings.runnerCap });
  return planReport({
    fit: true,
    synthetic: true,
    objective: settings.objective,
    seeds: settings.seeds,
    backtest: null,
    candidates,
    choice,
  });
}

export function replayCandidates(
  current: PlanSettings,
  settings: PlanQueueSettings,
  model: QueueModel,
  progress?: Progress,
): CandidateResult[] {
  const all = candidateSettings(current, settings.vary, settings.grid);
  return all.map((candidate, index) => {
    const result = evaluate(candidate, model, settings.seeds, settings.objective);
    progress?.(index + 1, all.length);
    return result;
  });
}

export function syntheticModel(queue: SyntheticQueue, runnerCap: number | undefined): QueueModel {
  const scenarios = new Map<number, ReplayScenario>();
  return {
    scenario(seed) {
      let scenario = scenarios.get(seed);
      if (!scenario) scenarios.set(seed, (scenario = syntheticScenario(queue, seed)));
      return scenario;
    },
    ci: (seed, scenario, clock) =>
      new SampledCi({
        random: new SeededRandom(mix(seed, 0xc1)),
        duration: queue.ciDuration,
        flakeRate: queue.flakeRate,
        isCulprit: (pr) => scenario.culprits.has(pr),
        runners: runnerCap,
        now: () => clock.now(),
      }),
    resubmitAfterMs: SYNTHETIC_RESUBMIT_MS,
  };
}

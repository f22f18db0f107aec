// Planning: replay the candidates (the current settings first) through the queue model, choose, and
// report. Nothing here writes to the service: the patch it recommends is printed, never sent.
import { SampledCi } from '../../../queue-model/sampled-ci.js';
import { SeededRandom } from '../../../queue-model/random.js';
import { candidateSettings } from './candidates.js';
import { evaluate, type CandidateResult, type QueueModel, type Replayed } from './evaluate.js';
import { budgetMinutes, type PlanQueueSettings, type SyntheticQueue } from './inputs.js';
import { PlanStopped, type PlanPace } from './pace.js';
import { choose, type Choice } from './recommend.js';
import { planReport, type PlanReport } from './report.js';
import { newQueueSettings, type PlanSettings } from './settings.js';
import { mix, syntheticScenario, type ReplayScenario } from './synthetic.js';

/** How long after an innocent failure someone submits the PR again (synthetic; history fits its own). */
const SYNTHETIC_RESUBMIT_MS = 15 * 60_000;

/** A synthetic plan: a new queue's defaults around which the candidates vary, never backtested. */
export async function planSynthetic(
  settings: PlanQueueSettings,
  queue: SyntheticQueue,
  pace: PlanPace = {},
): Promise<PlanReport> {
  const model = syntheticModel(queue, settings.runnerCap);
  const replayed = await replayCandidates(newQueueSettings(), settings, model, pace);
  const choice = decide(replayed, settings);
  return planReport({
    fit: true,
    synthetic: true,
    objective: settings.objective,
    seeds: settings.seeds,
    backtest: null,
    replayed,
    choice,
  });
}

/** Each candidate in turn; called off part-way, the ones replayed so far (at least the current settings). */
export async function replayCandidates(
  current: PlanSettings,
  settings: PlanQueueSettings,
  model: QueueModel,
  pace: PlanPace = {},
): Promise<Replayed> {
  const all = candidateSettings(current, settings.vary, settings.grid);
  const results: CandidateResult[] = [];
  try {
    for (const candidate of all) {
      results.push(await evaluate(candidate, model, settings.seeds, settings.objective, pace));
      pace.progress?.(results.length, all.length);
    }
  } catch (error) {
    if (!(error instanceof PlanStopped) || results.length === 0) throw error;
  }
  return { results, total: all.length };
}

/**
 * The recommendation, or why there is none; nothing is recommended from a plan stopped part-way. The
 * CI-minutes budget is set from the current settings' replayed cost unless given in minutes.
 */
export function decide(replayed: Replayed, settings: PlanQueueSettings, modelError?: number): Choice {
  const [current, ...others] = replayed.results;
  if (replayed.results.length < replayed.total) {
    return {
      recommendation: null,
      verdict: `stopped early: ${replayed.results.length} of ${replayed.total} candidates were replayed before the plan was called off (its time ran out or it was cancelled), and a recommendation needs them all; ask about one setting at a time, or run plan-queue-settings from the CLI`,
    };
  }
  return choose(current!, others, {
    objective: settings.objective,
    runnerCap: settings.runnerCap,
    ciMinutesBudget: budgetMinutes(settings.ciMinutesBudget, current!.metrics.ciMinutesPerMerge),
    modelError,
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

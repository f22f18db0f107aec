// plan_queue_settings: the queue's last days read from the API (v2) and replayed under other settings,
// or under one setting changed ("what if"), with the backtest that says whether the model can be
// trusted on this queue. Read-only: the patch it may recommend is returned, never sent.
import { z } from 'zod';
import { detailsOf, objectiveOf, OBJECTIVES, type PlanReport, SETTING_NAMES } from '../../core/index.js';
import { callSeconds, requireSuccess, ToolFailure, type ToolContext } from '../tool.js';

const TOP = 5;
/** Fewer seeds than the CLI's default: an agent waits on the answer (60 s at most). */
const MCP_SEEDS = '2';
/** The plan stops replaying this long before the call's time is up, to answer with what it has. */
const WRAP_UP_SECONDS = 10;

export const PLAN_DESCRIPTION =
  'Replays the merge queue’s last days (API v2) under other settings, or under one setting changed (whatIf), after checking that a replay of the recorded settings reproduces what happened. Returns the backtest, the best candidates and a recommendation only when one beats the current settings by more than the model’s error. Sends a progress notification per candidate replayed; when the time runs short it answers with the candidates replayed so far (partial, no recommendation). Read-only: nothing is changed; a recommended patch is returned, never sent.';

const metrics = z.object({
  merged: z.number(),
  p50Minutes: z.number(),
  p90Minutes: z.number(),
  ciRunsPerMerge: z.number(),
  ciMinutesPerMerge: z.number(),
  failed: z.number(),
  innocentEvictions: z.number(),
  peakConcurrentRuns: z.number(),
  mergedPerHourAtPeak: z.number(),
  ciRuns: z.number(),
  ciMinutes: z.number(),
  isolationRunsPerFailedBatch: z.number(),
});
const sampleWindow = z
  .object({ fittedUntil: z.string(), checkedFrom: z.string(), checkedPrs: z.number() })
  .nullable()
  .describe('With 30 days or more: fitted before the cut, checked on the last third after it.');

export const planArguments = {
  days: z.number().int().min(1).max(45).optional().describe('How many days back to read (default 45).'),
  objective: z.enum(OBJECTIVES).optional().describe('What a better setting shortens (default p90).'),
  whatIf: z
    .record(z.string(), z.union([z.number(), z.boolean(), z.string()]))
    .optional()
    .describe(`One setting and the value to try, by its v2 config name: ${SETTING_NAMES.join(', ')}.`),
};

export const planShape = {
  fit: z.boolean(),
  backtest: z.object({ recorded: metrics, replayed: metrics, outOfSample: sampleWindow }).nullable(),
  candidates: z
    .array(z.object({ settings: z.record(z.string(), z.unknown()), metrics, stable: z.boolean() }))
    .describe(`The current settings first, then the ${TOP} best by the objective.`),
  recommendation: z
    .object({
      settings: z.record(z.string(), z.unknown()),
      patch: z.record(z.string(), z.unknown()),
      reason: z.string(),
    })
    .nullable(),
  verdict: z.string().nullable(),
  partial: z
    .object({ replayed: z.number(), of: z.number() })
    .nullable()
    .describe('Set when the time ran out part-way: how many candidates were replayed, of how many.'),
};
type PlanResult = z.infer<z.ZodObject<typeof planShape>>;

export interface PlanArguments {
  days?: number;
  objective?: (typeof OBJECTIVES)[number];
  whatIf?: Record<string, number | boolean | string>;
}

export async function planQueue(
  tools: ToolContext,
  args: PlanArguments,
  progress: (step: number, message: string) => Promise<void>,
): Promise<PlanResult> {
  const whatIf = Object.entries(args.whatIf ?? {});
  if (whatIf.length > 1) throw new ToolFailure('whatIf takes one setting; ask again for each other one.');
  const inputs: Record<string, string> = {
    seeds: MCP_SEEDS,
    ...(args.days ? { days: String(args.days) } : {}),
    ...(args.objective ? { objective: args.objective } : {}),
    ...(whatIf[0] ? { vary: `${whatIf[0][0]}=${String(whatIf[0][1])}` } : {}),
  };
  let step = 0;
  const report = (message: string) => progress(step++, message).catch(() => undefined);
  void report('reading the queue’s history');
  const runner = tools.runner.calledOffBy(wrapUpSignal(tools)).reportingTo((line) => void report(line));
  const { result } = await runner.run('plan-queue-settings', inputs);
  const details = detailsOf(result);
  if (details?.kind !== 'queue-plan') {
    requireSuccess(whatIfNamed(result));
    throw new ToolFailure('plan-queue-settings gave no report.');
  }
  return answerOf(details.report);
}

/** A bad whatIf reaches the operation as its vary input: the agent gave whatIf, so its failure says whatIf. */
function whatIfNamed<T extends { failure?: string | null }>(result: T): T {
  const failure = result.failure ?? '';
  if (!failure.startsWith(VARY_FAILURE)) return result;
  const said = failure
    .slice(VARY_FAILURE.length)
    .replace('Use key=v1,v2,... with', 'Use { setting: value } with');
  return { ...result, failure: `whatIf: ${said}` };
}
const VARY_FAILURE = 'Argument vary: ';

/**
 * Aborts when the agent cancels, or some seconds before the call's time is up: the plan then stops
 * between two replays and answers with the candidates it has (a cancelled call's answer is dropped).
 */
function wrapUpSignal(tools: ToolContext): AbortSignal {
  const seconds = callSeconds(tools.options);
  const wrapUpMs = Math.max(seconds * 0.75, seconds - WRAP_UP_SECONDS) * 1000;
  return AbortSignal.any([tools.signal, AbortSignal.timeout(Math.ceil(wrapUpMs))]);
}

function answerOf(report: PlanReport): PlanResult {
  const [current, ...others] = report.candidates;
  const objective = (c: (typeof others)[number]) => objectiveOf(c.metrics, report.objective);
  const best = others
    .filter((c) => c.stable)
    .sort((a, b) => objective(a) - objective(b))
    .slice(0, TOP);
  return {
    fit: report.fit,
    backtest: report.backtest,
    candidates: (current ? [current, ...best] : []).map(({ settings, metrics: m, stable }) => ({
      settings: { ...settings },
      metrics: m,
      stable,
    })),
    recommendation: report.recommendation
      ? {
          settings: { ...report.recommendation.settings },
          patch: { ...report.recommendation.patch },
          reason: report.recommendation.reason,
        }
      : null,
    verdict: report.verdict ?? null,
    partial: report.partial ?? null,
  };
}

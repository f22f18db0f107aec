// A plan from a batching queue's history, asked what the queue would do without batching. A batch's CI
// run lasts as long as its slowest PR, so the history's run durations are longer than any one PR's: a
// replay that gave a single-PR run a batch run's duration would see the queue fall behind. The same PRs
// run on the emulator under both settings at once, one queue each; the no-batching candidate replayed
// from the batching history must agree with the emulator's no-batching queue within the backtest's own
// tolerance (merges 5% or 2, times 25% or 10 min).
import { beforeAll, describe, expect, it } from '@jest/globals';
import type { Scenario } from '../../emulator/scenario.js';
import {
  disagreements,
  historyPlanner,
  plannedPullRequests,
  type PlanMetrics,
  type PlanReport,
} from '../helpers/planner-history.js';
import { useEmulator } from '../helpers/emulator.js';

const START = Date.UTC(2026, 6, 6);
const BURST_SIZE = 4;
const BURST_GAP_MINUTES = 40;
const PRS = 332;
const END_MINUTES = (PRS / BURST_SIZE) * BURST_GAP_MINUTES + 900;
const iso = (minutes: number) => new Date(START + minutes * 60_000).toISOString();

const BATCHING = { concurrency: 4, batch: true, batchingMinSize: BURST_SIZE, batchingMaxWaitTimeMinutes: 5 };
const QUEUES = {
  'acme/batching-recorded': BATCHING,
  'acme/batching-off': { ...BATCHING, batch: false },
} as const;
type QueueName = keyof typeof QUEUES;

/** PR n: 20-40 minute CI; every 20th a culprit, every 25th flaky once; four at once every 40 minutes. */
function scenario(): Scenario {
  return {
    queues: Object.entries(QUEUES).map(([repo, settings]) => ({ repo, targetBranch: 'main', ...settings })),
    pullRequests: Object.keys(QUEUES).flatMap((repo) =>
      plannedPullRequests(repo, PRS, (i) => Math.floor(i / BURST_SIZE) * BURST_GAP_MINUTES),
    ),
  };
}

const emulator = useEmulator({ startTime: START, scenario: scenario() });
const planner = historyPlanner(emulator, { since: iso(-60), until: iso(END_MINUTES) });

let truth: { settings: Record<string, unknown>; metrics: PlanMetrics };
let report: PlanReport;

beforeAll(async () => {
  await emulator.control('POST', '/clock/advance', { minutes: END_MINUTES });
  for (const repo of Object.keys(QUEUES) as QueueName[]) await planner.exportHistory(repo);
  const off = await planner.plan('acme/batching-off', { seeds: '1', vary: 'concurrency=5' });
  truth = { settings: off.candidates[0]!.settings, metrics: off.backtest.recorded };
  report = await planner.plan('acme/batching-recorded', { seeds: '3', vary: 'allowBatching=false' });
}, 180_000); // two exports and two plans: minutes on a loaded machine

describe('a no-batching candidate replayed from a batching history', () => {
  it('the batching history is reproduced by its own backtest', () => {
    // The verdict names the figures the replay missed.
    expect(report.fit ? 'fit' : report.verdict).toBe('fit');
  });

  it('agrees with the emulator running the same PRs without batching', () => {
    const candidate = report.candidates.find(
      (c) => JSON.stringify(c.settings) === JSON.stringify(truth.settings),
    );
    expect(candidate).toBeDefined();
    expect(candidate!.stable).toBe(true);
    expect(disagreements(candidate!.metrics, truth.metrics, ['merged', 'p50Minutes', 'p90Minutes'])).toEqual(
      [],
    );
  });
});

// The test a skeptic asks for: does a candidate's replay say what the queue would really do under that
// setting? The same PRs (arrivals, CI durations, culprits, a flake) run on the emulator under four
// settings at once, one queue each. The plan from the first queue's history replays the other three as
// candidates; each candidate's figures must agree with what the emulator recorded under that setting,
// within the tolerance the backtest itself uses (merges 5% or 2, times 25% or 10 min, CI runs per merge
// 25%).
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

const START = Date.UTC(2026, 4, 4);
const PRS = 330;
const GAP_MINUTES = 10;
const END_MINUTES = PRS * GAP_MINUTES + 900;
const iso = (minutes: number) => new Date(START + minutes * 60_000).toISOString();

/** The recorded queue, and three others running the very same PRs under one setting changed. */
const QUEUES = {
  'acme/cmp-recorded': { concurrency: 4 },
  'acme/cmp-concurrency-3': { concurrency: 3 },
  'acme/cmp-concurrency-8': { concurrency: 8 },
  'acme/cmp-batching': { concurrency: 4, batch: true },
} as const;
type QueueName = keyof typeof QUEUES;

/** PR n: 20-40 minute CI; every 20th a culprit, every 25th flaky once; one every 10 minutes. */
function scenario(): Scenario {
  const pullRequests = Object.keys(QUEUES).flatMap((repo) =>
    plannedPullRequests(repo, PRS, (i) => i * GAP_MINUTES),
  );
  const queues = Object.entries(QUEUES).map(([repo, settings]) => ({
    repo,
    targetBranch: 'main',
    ...settings,
  }));
  return { queues, pullRequests };
}

const emulator = useEmulator({ startTime: START, scenario: scenario() });
const planner = historyPlanner(emulator, { since: iso(-60), until: iso(END_MINUTES) });

/** The emulator's own record under each setting: the backtest's `recorded` of that queue's history. */
const recordedBy = new Map<QueueName, { settings: Record<string, unknown>; metrics: PlanMetrics }>();
let candidates: PlanReport['candidates'] = [];
let recommendation: PlanReport['recommendation'] = null;

beforeAll(async () => {
  await emulator.control('POST', '/clock/advance', { minutes: END_MINUTES });
  for (const repo of Object.keys(QUEUES) as QueueName[]) {
    await planner.exportHistory(repo);
    const own = await planner.plan(repo, { seeds: '1', vary: 'concurrency=5' });
    recordedBy.set(repo, { settings: own.candidates[0]!.settings, metrics: own.backtest.recorded });
  }
  const report = await planner.plan('acme/cmp-recorded', {
    seeds: '3',
    vary: 'concurrency=3,8\nallowBatching=true',
  });
  expect(report.fit).toBe(true);
  candidates = report.candidates;
  recommendation = report.recommendation;
}, 180_000); // four exports and five plans: minutes on a loaded machine

describe("each candidate's replay against the emulator running that setting", () => {
  it.each(['acme/cmp-concurrency-3', 'acme/cmp-concurrency-8', 'acme/cmp-batching'] as const)(
    '%s: the same settings, and figures within tolerance',
    (repo) => {
      const truth = recordedBy.get(repo)!;
      const candidate = candidates.find((c) => JSON.stringify(c.settings) === JSON.stringify(truth.settings));
      expect(candidate).toBeDefined();
      expect(candidate!.stable).toBe(true);
      expect(disagreements(candidate!.metrics, truth.metrics)).toEqual([]);
    },
  );

  it('the settings make a difference the replay sees in the same direction as the emulator', () => {
    const p90 = (repo: QueueName) => recordedBy.get(repo)!.metrics.p90Minutes;
    const replayedP90 = (repo: QueueName) =>
      candidates.find((c) => JSON.stringify(c.settings) === JSON.stringify(recordedBy.get(repo)!.settings))!
        .metrics.p90Minutes;
    expect(p90('acme/cmp-concurrency-3')).toBeGreaterThan(p90('acme/cmp-concurrency-8'));
    expect(replayedP90('acme/cmp-concurrency-3')).toBeGreaterThan(replayedP90('acme/cmp-concurrency-8'));
  });

  it("recommends what the emulator found best: the recommended setting's p90 there is the lowest, within tolerance", () => {
    const truths = [...recordedBy.values()];
    const best = Math.min(...truths.map((t) => t.metrics.p90Minutes));
    const chosen = recommendation?.settings ?? recordedBy.get('acme/cmp-recorded')!.settings;
    const truth = truths.find((t) => JSON.stringify(t.settings) === JSON.stringify(chosen));
    expect(truth).toBeDefined();
    expect(truth!.metrics.p90Minutes - best).toBeLessThanOrEqual(Math.max(10, 0.25 * best));
  });
});

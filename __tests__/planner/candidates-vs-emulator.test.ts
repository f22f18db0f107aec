// The test a skeptic asks for: does a candidate's replay say what the queue would really do under that
// setting? The same PRs (arrivals, CI durations, culprits, a flake) run on the emulator under four
// settings at once, one queue each. The plan from the first queue's history replays the other three as
// candidates; each candidate's figures must agree with what the emulator recorded under that setting,
// within the tolerance the backtest itself uses (merges 5% or 2, times 25% or 10 min, CI runs per merge
// 25%).
import { beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Scenario } from '../../emulator/scenario.js';
import { plannedPullRequests, plannerAction } from '../helpers/planner-history.js';
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
const dir = mkdtempSync(join(tmpdir(), 'plan-vs-emulator-'));
const historyOf = (repo: QueueName) => join(dir, `${repo.replace('/', '-')}.jsonl`);

interface Metrics {
  merged: number;
  p50Minutes: number;
  p90Minutes: number;
  ciRunsPerMerge: number;
}
interface Report {
  fit: boolean;
  backtest: { recorded: Metrics; replayed: Metrics };
  candidates: { settings: Record<string, unknown>; metrics: Metrics; stable: boolean }[];
  recommendation: { settings: Record<string, unknown> } | null;
  verdict?: string;
}

const act = (repo: QueueName, inputs: Record<string, string>) => plannerAction(emulator, repo)(inputs);

async function plan(repo: QueueName, inputs: Record<string, string> = {}): Promise<Report> {
  const run = await act(repo, { operation: 'plan-queue-settings', history: historyOf(repo), ...inputs });
  if (run.error) throw new Error(`plan of ${repo}: ${run.error}`);
  return JSON.parse(run.outputs.response!) as Report;
}

/** The emulator's own record under each setting: the backtest's `recorded` of that queue's history. */
const recordedBy = new Map<QueueName, { settings: Record<string, unknown>; metrics: Metrics }>();
let candidates: Report['candidates'] = [];
let recommendation: Report['recommendation'] = null;

beforeAll(async () => {
  await emulator.control('POST', '/clock/advance', { minutes: END_MINUTES });
  for (const repo of Object.keys(QUEUES) as QueueName[]) {
    const exported = await act(repo, {
      operation: 'export-queue-history',
      history: historyOf(repo),
      since: iso(-60),
      until: iso(END_MINUTES),
    });
    if (exported.error) throw new Error(`export of ${repo}: ${exported.error}`);
    const own = await plan(repo, { seeds: '1', vary: 'concurrency=5' });
    recordedBy.set(repo, { settings: own.candidates[0]!.settings, metrics: own.backtest.recorded });
  }
  const report = await plan('acme/cmp-recorded', {
    seeds: '3',
    vary: 'concurrency=3,8\nallowBatching=true',
  });
  expect(report.fit).toBe(true);
  candidates = report.candidates;
  recommendation = report.recommendation;
}, 180_000); // four exports and five plans: minutes on a loaded machine

/** Within the backtest's own tolerance: merges 5% (or 2), times 25% (or 10 min), runs per merge 25%. */
function disagreements(replayed: Metrics, recorded: Metrics): string[] {
  const off = (name: keyof Metrics, share: number, floor: number) =>
    Math.abs(replayed[name] - recorded[name]) > Math.max(floor, share * Math.abs(recorded[name]))
      ? [`${name}: replayed ${replayed[name]}, emulator ${recorded[name]}`]
      : [];
  return [
    ...off('merged', 0.05, 2),
    ...off('p50Minutes', 0.25, 10),
    ...off('p90Minutes', 0.25, 10),
    ...off('ciRunsPerMerge', 0.25, 0.1),
  ];
}

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

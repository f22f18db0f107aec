// The pull requests the planner's tests record on the emulator and plan from: known durations, culprits
// and flakes, so that what the backtest replays can be compared with what the emulator recorded.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Scenario } from '../../emulator/scenario.js';
import { runAction } from './action-runner.js';
import type { EmulatorHandle } from './emulator.js';

type ScenarioPullRequest = NonNullable<Scenario['pullRequests']>[number];

/**
 * PR n (from 1) of `count` on `repo`'s main: a 20-40 minute CI run, every 20th a culprit and, with
 * `flakes`, every 25th flaky once; the PR at index i is submitted at `atMinute(i)`.
 */
export function plannedPullRequests(
  repo: string,
  count: number,
  atMinute: (index: number) => number,
  { flakes = true } = {},
): ScenarioPullRequest[] {
  return Array.from({ length: count }, (_, i) => {
    const number = i + 1;
    const outcome = number % 20 === 0 ? 'fail' : flakes && number % 25 === 0 ? 'flaky' : 'pass';
    return {
      repo,
      number,
      ci: { outcome, durationMinutes: 20 + ((number * 7) % 21), flakyFailures: 1 } as const,
      submit: { targetBranch: 'main', atMinute: atMinute(i) },
    };
  });
}

/** The action over v2 against the emulator, on `repo`'s main, with the given inputs on top. */
export function plannerAction(emulator: EmulatorHandle, repo: string) {
  return (inputs: Record<string, string>) =>
    runAction({
      env: { GITHUB_REPOSITORY: repo },
      inputs: {
        'api-url': emulator.current.url,
        'api-token': emulator.current.v2Key,
        'api-version': 'v2',
        'target-branch': 'main',
        ...inputs,
      },
    });
}

/** A plan's figures, as the report's JSON gives them. */
export interface PlanMetrics {
  merged: number;
  p50Minutes: number;
  p90Minutes: number;
  ciRunsPerMerge: number;
}

/** The parts of a plan's report these tests read. */
export interface PlanReport {
  fit: boolean;
  backtest: { recorded: PlanMetrics; replayed: PlanMetrics };
  candidates: { settings: Record<string, unknown>; metrics: PlanMetrics; stable: boolean }[];
  recommendation: { settings: Record<string, unknown> } | null;
  verdict?: string;
}

/**
 * Export each queue's history over the window, then plan from it, through the action over v2: one
 * history file per queue in a directory of its own.
 */
export function historyPlanner(emulator: EmulatorHandle, window: { since: string; until: string }) {
  const dir = mkdtempSync(join(tmpdir(), 'plan-history-'));
  const historyOf = (repo: string) => join(dir, `${repo.replace('/', '-')}.jsonl`);
  const act = (repo: string, inputs: Record<string, string>) => plannerAction(emulator, repo)(inputs);
  return {
    async exportHistory(repo: string): Promise<void> {
      const run = await act(repo, { operation: 'export-queue-history', history: historyOf(repo), ...window });
      if (run.error) throw new Error(`export of ${repo}: ${run.error}`);
    },
    async plan(repo: string, inputs: Record<string, string> = {}): Promise<PlanReport> {
      const run = await act(repo, { operation: 'plan-queue-settings', history: historyOf(repo), ...inputs });
      if (run.error) throw new Error(`plan of ${repo}: ${run.error}`);
      return JSON.parse(run.outputs.response!) as PlanReport;
    },
  };
}

/** The backtest's own tolerance per figure: a share of the recorded value, or a floor if larger. */
const TOLERANCE: Record<keyof PlanMetrics, { share: number; floor: number }> = {
  merged: { share: 0.05, floor: 2 },
  p50Minutes: { share: 0.25, floor: 10 },
  p90Minutes: { share: 0.25, floor: 10 },
  ciRunsPerMerge: { share: 0.25, floor: 0.1 },
};

/** The figures a replay got wrong against what the emulator recorded, beyond the backtest's tolerance. */
export function disagreements(
  replayed: PlanMetrics,
  recorded: PlanMetrics,
  figures: (keyof PlanMetrics)[] = ['merged', 'p50Minutes', 'p90Minutes', 'ciRunsPerMerge'],
): string[] {
  return figures.flatMap((name) => {
    const { share, floor } = TOLERANCE[name];
    const off = Math.abs(replayed[name] - recorded[name]) > Math.max(floor, share * Math.abs(recorded[name]));
    return off ? [`${name}: replayed ${replayed[name]}, emulator ${recorded[name]}`] : [];
  });
}

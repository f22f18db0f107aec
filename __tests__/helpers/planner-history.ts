// The pull requests the planner's tests record on the emulator and plan from: known durations, culprits
// and flakes, so that what the backtest replays can be compared with what the emulator recorded.
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

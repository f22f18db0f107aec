// A CI model for replays: a run fails when a PR it tests, or one it is built on, is a culprit; otherwise it
// fails with the flake rate (per run, or per PR it tests: a batch of n has n chances to flake). Its duration is either drawn per run from one model (synthetic
// queues: "30-minute CI"), or the longest of its PRs' own durations, as a batch's build lasts as long as
// its slowest PR (fitted histories). With a runner cap, a run that finds every runner busy waits for the
// first to free up (CI time then grows with load); without one, CI time does not depend on load.
import type { RunVerdict } from './ci.js';
import type { CiModel } from './ci-model.js';
import { drawDuration, type DurationModel, type Uniform } from './distributions.js';

export interface SampledCiOptions {
  random: Uniform;
  /** Each run's duration, drawn per run; or, a function, each PR's own and a run lasts its longest PR's. */
  duration: DurationModel | ((prNumber: number) => number);
  /** The chance that a run of clean PRs fails anyway, 0 to 1; with `flakePer: 'pr'`, each PR's chance. */
  flakeRate: number;
  flakePer?: 'run' | 'pr';
  isCulprit: (prNumber: number) => boolean;
  /** How many runs CI can run at once; undefined for as many as asked. */
  runners?: number;
  /** The virtual clock's time, for the runner cap. */
  now: () => number;
}

export class SampledCi implements CiModel {
  /** When each runner frees up (runner cap only). */
  private readonly runnerFreeAt: number[];

  constructor(private readonly options: SampledCiOptions) {
    this.runnerFreeAt = options.runners === undefined ? [] : new Array<number>(options.runners).fill(0);
  }

  verdict(_repoKey: string, tested: readonly number[], base: Iterable<number>): RunVerdict {
    const { random, isCulprit } = this.options;
    const flaked = random.next() < this.flakeChance(tested.length);
    const failed = flaked || tested.some(isCulprit) || someOf(base, isCulprit);
    const ranMs = this.durationOf(tested);
    const durationMs = this.waitForRunner(ranMs) + ranMs;
    return { result: failed ? 'failed' : 'succeeded', durationMs };
  }

  private flakeChance(prs: number): number {
    const { flakeRate, flakePer } = this.options;
    return flakePer === 'pr' ? 1 - (1 - flakeRate) ** prs : flakeRate;
  }

  private durationOf(tested: readonly number[]): number {
    const { duration, random } = this.options;
    if (typeof duration !== 'function') return drawDuration(duration, random);
    let longest = 0;
    for (const pr of tested) longest = Math.max(longest, duration(pr));
    return longest;
  }

  private waitForRunner(ranMs: number): number {
    const free = this.runnerFreeAt;
    if (free.length === 0) return 0;
    let first = 0;
    for (let i = 1; i < free.length; i++) if (free[i]! < free[first]!) first = i;
    const now = this.options.now();
    const start = Math.max(now, free[first]!);
    free[first] = start + ranMs;
    return start - now;
  }
}

function someOf(values: Iterable<number>, test: (value: number) => boolean): boolean {
  for (const value of values) if (test(value)) return true;
  return false;
}

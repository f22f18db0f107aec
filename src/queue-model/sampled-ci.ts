// A CI model for replays: a run fails when a PR it tests, or one it is built on, is a culprit; otherwise it
// fails with the per-run flake rate; its duration is drawn from the model of its kind (main or bisection)
// and outcome (failed runs often stop early), falling back to the main runs' durations. With a runner cap, a run that
// finds every runner busy waits for the first to free up (CI time then grows with load); without one,
// CI time does not depend on load.
import type { RunVerdict } from './ci.js';
import type { CiModel } from './ci-model.js';
import { drawDuration, type DurationModel, type Uniform } from './distributions.js';
import type { RunKind } from './types.js';

export interface SampledCiOptions {
  random: Uniform;
  /** Durations of main runs, and of bisection runs when `bisectionDuration` is not given. */
  duration: DurationModel;
  bisectionDuration?: DurationModel;
  /** Durations of failed main runs, when they differ from `duration`. */
  failedDuration?: DurationModel;
  /** Durations of failed bisection runs. */
  bisectionFailedDuration?: DurationModel;
  /** The chance that a run of clean PRs fails anyway, 0 to 1. */
  flakeRate: number;
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

  verdict(_repoKey: string, tested: readonly number[], base: Iterable<number>, kind?: RunKind): RunVerdict {
    const { random, isCulprit } = this.options;
    const flaked = random.next() < this.options.flakeRate;
    const failed = flaked || tested.some(isCulprit) || someOf(base, isCulprit);
    const ranMs = drawDuration(this.durationOf(kind ?? 'main', failed), random);
    const durationMs = this.waitForRunner(ranMs) + ranMs;
    return { result: failed ? 'failed' : 'succeeded', durationMs };
  }

  private durationOf(kind: RunKind, failed: boolean): DurationModel {
    const o = this.options;
    if (kind === 'bisection') {
      return (failed ? o.bisectionFailedDuration : undefined) ?? o.bisectionDuration ?? o.duration;
    }
    return (failed ? o.failedDuration : undefined) ?? o.duration;
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

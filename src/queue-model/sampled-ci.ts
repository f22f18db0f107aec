// A CI model for replays: a run fails when a PR it tests, or one it is built on, is a culprit; otherwise it
// fails with the flake rate (per run, or per PR it tests: a batch of n has n chances to flake). Its
// duration is either drawn per run from one model (synthetic queues: "30-minute CI"), or the longest of
// its PRs' own durations, as a batch's build lasts as long as its slowest PR (fitted histories). With a
// runner cap, a run that finds every runner busy waits for the first to free up (time in queue then
// grows with load, CI minutes count only the time it executed, and a cancelled run gives its runner
// back); without one, CI time does not depend on load.
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

/** A run on a runner: it waits from when it was asked for until `startAt`, then executes until `endAt`. */
interface Booking {
  runner: number;
  askedAt: number;
  startAt: number;
  endAt: number;
}

export class SampledCi implements CiModel {
  /** When each runner frees up (runner cap only). */
  private readonly runnerFreeAt: number[];
  private readonly bookings = new Map<string, Booking>();

  constructor(private readonly options: SampledCiOptions) {
    this.runnerFreeAt = options.runners === undefined ? [] : new Array<number>(options.runners).fill(0);
  }

  verdict(_repoKey: string, tested: readonly number[], base: Iterable<number>, runId: string): RunVerdict {
    const { random, isCulprit } = this.options;
    const flaked = random.next() < this.flakeChance(tested.length);
    const failed = flaked || tested.some(isCulprit) || someOf(base, isCulprit);
    const ranMs = this.durationOf(tested);
    const durationMs = this.waitForRunner(runId, ranMs) + ranMs;
    return { result: failed ? 'failed' : 'succeeded', durationMs };
  }

  queuedMs(runId: string): number {
    const booking = this.bookings.get(runId);
    return booking ? booking.startAt - booking.askedAt : 0;
  }

  /** A run ending before its booking does (cancelled, timed out) frees its runner, if none is booked after. */
  ended(runId: string): void {
    const booking = this.bookings.get(runId);
    if (!booking) return;
    this.bookings.delete(runId);
    const free = this.runnerFreeAt;
    if (free[booking.runner] === booking.endAt) {
      free[booking.runner] = Math.max(this.options.now(), booking.startAt);
    }
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

  private waitForRunner(runId: string, ranMs: number): number {
    const free = this.runnerFreeAt;
    if (free.length === 0) return 0;
    let runner = 0;
    for (let i = 1; i < free.length; i++) if (free[i]! < free[runner]!) runner = i;
    const now = this.options.now();
    const startAt = Math.max(now, free[runner]!);
    free[runner] = startAt + ranMs;
    this.bookings.set(runId, { runner, askedAt: now, startAt, endAt: startAt + ranMs });
    return startAt - now;
  }
}

function someOf(values: Iterable<number>, test: (value: number) => boolean): boolean {
  for (const value of values) if (test(value)) return true;
  return false;
}

// The simulated CI: how each PR's test runs end and how long they take. A run fails when a PR it
// tests or one it was built on top of is broken (`fail`), fails once per remaining flaky failure of a
// PR it tests (`flaky`), never ends when a PR it tests hangs (`hang`, until the queue's timeout), and
// otherwise passes. It takes as long as its slowest PR.

export const CI_OUTCOMES = ['pass', 'fail', 'flaky', 'hang'] as const;
export type CiOutcome = (typeof CI_OUTCOMES)[number];

export interface CiBehaviour {
  outcome: CiOutcome;
  durationMs: number;
  /** For `flaky`: how many of its runs still fail before it passes. */
  flakyFailures: number;
}

export type RunVerdict = { result: 'succeeded' | 'failed'; durationMs: number } | { result: 'hang' };

export const DEFAULT_CI_DURATION_MS = 5 * 60_000;

export class SimulatedCi {
  private defaults: CiBehaviour = { outcome: 'pass', durationMs: DEFAULT_CI_DURATION_MS, flakyFailures: 1 };
  private readonly perPr = new Map<string, CiBehaviour>();

  setDefault(change: Partial<CiBehaviour>): void {
    this.defaults = { ...this.defaults, ...change };
  }

  set(repoKey: string, prNumber: number, change: Partial<CiBehaviour>): void {
    const key = `${repoKey}#${prNumber}`;
    const current = this.perPr.get(key) ?? { ...this.defaults };
    this.perPr.set(key, { ...current, ...change });
  }

  behaviour(repoKey: string, prNumber: number): CiBehaviour {
    return this.perPr.get(`${repoKey}#${prNumber}`) ?? this.defaults;
  }

  /** Decides how a run testing `tested` on top of `base` ends; consumes flaky failures. */
  verdict(repoKey: string, tested: readonly number[], base: Iterable<number>): RunVerdict {
    const behaviours = tested.map((pr) => ({ pr, behaviour: this.behaviour(repoKey, pr) }));
    const durationMs = Math.max(0, ...behaviours.map(({ behaviour }) => behaviour.durationMs));
    const brokenBase = [...base].some((pr) => this.behaviour(repoKey, pr).outcome === 'fail');
    if (brokenBase || behaviours.some(({ behaviour }) => behaviour.outcome === 'fail')) {
      return { result: 'failed', durationMs };
    }
    const flaky = behaviours.find(
      ({ behaviour }) => behaviour.outcome === 'flaky' && behaviour.flakyFailures > 0,
    );
    if (flaky) {
      this.set(repoKey, flaky.pr, { flakyFailures: flaky.behaviour.flakyFailures - 1 });
      return { result: 'failed', durationMs };
    }
    if (behaviours.some(({ behaviour }) => behaviour.outcome === 'hang')) return { result: 'hang' };
    return { result: 'succeeded', durationMs };
  }
}

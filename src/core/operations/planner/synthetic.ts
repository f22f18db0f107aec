// A synthetic queue's PRs for one seed: their arrival times and which of them are culprits. The same seed
// gives the same PRs to every candidate (common random numbers), so that candidates differ by their
// settings and not by their luck.
import { exponential } from '../../../queue-model/distributions.js';
import { SeededRandom } from '../../../queue-model/random.js';
import type { ReplayArrival } from '../../../queue-model/replay.js';
import type { SyntheticQueue } from './inputs.js';

/** Monday 2026-01-05 00:00 UTC: a synthetic replay's day 1. */
export const SYNTHETIC_START = Date.UTC(2026, 0, 5);
const HOUR_MS = 3_600_000;

export interface ReplayScenario {
  arrivals: ReplayArrival[];
  culprits: ReadonlySet<number>;
}

export function syntheticScenario(queue: SyntheticQueue, seed: number): ReplayScenario {
  const random = new SeededRandom(mix(seed, 0x5eed));
  const arrivals: ReplayArrival[] = [];
  const culprits = new Set<number>();
  let at = SYNTHETIC_START;
  for (let i = 0; i < queue.prs; i++) {
    const prNumber = i + 1;
    if (i > 0) at += gapMs(queue, random);
    arrivals.push({ at: Math.round(at), prNumber });
    if (random.next() < queue.culpritRate) culprits.add(prNumber);
  }
  return { arrivals, culprits };
}

function gapMs(queue: SyntheticQueue, random: SeededRandom): number {
  const pattern = queue.arrivals;
  if (pattern.kind === 'burst') return 0;
  if (pattern.kind === 'every') return pattern.gapMs;
  return exponential(random, HOUR_MS / pattern.perHour);
}

/** The same PRs arriving `factor` times as fast (the headroom runs). */
export function faster(scenario: ReplayScenario, factor: number): ReplayScenario {
  const start = scenario.arrivals[0]?.at ?? 0;
  return {
    culprits: scenario.culprits,
    arrivals: scenario.arrivals.map((a) => ({ ...a, at: start + Math.round((a.at - start) / factor) })),
  };
}

/** A seed for one purpose of one replay, spread over 32 bits. */
export function mix(seed: number, purpose: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ purpose;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

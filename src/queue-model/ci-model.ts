// How a test run ends and how long it takes: the one question the engine asks its CI. The emulator's
// SimulatedCi answers it from per-PR behaviours set over its control surface; a replay plugs in a model
// drawn from a seeded source (SampledCi) or fitted to a team's history.
import type { RunVerdict } from './ci.js';
import type { RunKind } from './types.js';

export interface CiModel {
  /** How a run testing `tested` on top of `base` ends; `kind` says whether it is a bisection run. */
  verdict(repoKey: string, tested: readonly number[], base: Iterable<number>, kind?: RunKind): RunVerdict;
}

// How a test run ends and how long it takes: the one question the engine asks its CI. The emulator's
// SimulatedCi answers it from per-PR behaviours set over its control surface; a replay plugs in a model
// drawn from a seeded source (SampledCi) or fitted to a team's history.
import type { RunVerdict } from './ci.js';

export interface CiModel {
  /** How the run `runId`, testing `tested` on top of `base`, ends. */
  verdict(repoKey: string, tested: readonly number[], base: Iterable<number>, runId: string): RunVerdict;
  /** The run ended (passed, failed, timed out or cancelled) at the clock's time: its runner is free. */
  ended?(runId: string): void;
  /** How long the run waited for a runner before it executed: part of its duration, not CI minutes. */
  queuedMs?(runId: string): number;
}

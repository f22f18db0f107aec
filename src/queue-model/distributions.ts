// Drawing from a seeded uniform source: exponential gaps (Poisson arrivals) and CI durations, either
// fixed or log-normal through two given percentiles (p50 and p90), the shape CI durations usually take.

/** A uniform source in [0, 1), as SeededRandom gives. */
export interface Uniform {
  next(): number;
}

export type DurationModel =
  | { kind: 'fixed'; ms: number }
  | { kind: 'percentiles'; p50Ms: number; p90Ms: number }
  /** Drawn from recorded durations, each equally likely. */
  | { kind: 'empirical'; ms: readonly number[] };

/** z of the 90th percentile of the standard normal. */
const Z90 = 1.2815515655446004;

/** A gap of an exponential distribution with the given mean: arrivals of a Poisson process. */
export function exponential(random: Uniform, meanMs: number): number {
  return -Math.log(1 - random.next()) * meanMs;
}

/** One standard normal value (Box-Muller; two uniforms per value, so that the stream stays aligned). */
export function standardNormal(random: Uniform): number {
  const u = 1 - random.next();
  const v = random.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** Draws one duration, whole seconds, at least one second. */
export function drawDuration(model: DurationModel, random: Uniform): number {
  if (model.kind === 'fixed') return model.ms;
  if (model.kind === 'empirical') return model.ms[Math.floor(random.next() * model.ms.length)] ?? 0;
  const mu = Math.log(model.p50Ms);
  const sigma = (Math.log(model.p90Ms) - mu) / Z90;
  const ms = Math.exp(mu + sigma * standardNormal(random));
  return Math.max(1000, Math.round(ms / 1000) * 1000);
}

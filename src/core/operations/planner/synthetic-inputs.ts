// The synthetic inputs, for a queue that has no history yet: how many PRs, how they arrive (`12/h` as a
// Poisson process, `every:5m` evenly, `burst` all at once), how long CI takes (`30m`, or
// `p50=18m,p90=31m`), and the culprit and flake rates (`3%` or `0.03`).
import { InputError } from '../../errors.js';
import { quoted } from '../../inputs.js';
import type { DurationModel } from '../../../queue-model/distributions.js';

export type ArrivalPattern =
  { kind: 'poisson'; perHour: number } | { kind: 'every'; gapMs: number } | { kind: 'burst' };

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const DURATION = /^(\d+(?:\.\d+)?)(s|m|h)$/;
const MAX_DURATION_MS = 24 * UNIT_MS.h!;

/** `12/h` or `300/d` (Poisson), `every:5m`, or `burst`. */
export function parseArrivals(name: string, text: string): ArrivalPattern {
  const value = text.trim().toLowerCase();
  if (value === 'burst') return { kind: 'burst' };
  const rate = /^(\d+(?:\.\d+)?)\/(h|d)$/.exec(value);
  if (rate) {
    const perHour = Number(rate[1]) / (rate[2] === 'd' ? 24 : 1);
    if (perHour > 0 && perHour <= 10_000) return { kind: 'poisson', perHour };
  }
  if (value.startsWith('every:')) {
    const gapMs = durationMs(value.slice('every:'.length));
    if (gapMs !== undefined && gapMs > 0) return { kind: 'every', gapMs };
  }
  throw new InputError(
    name,
    `${quoted(text)} is not an arrival pattern`,
    'Use a rate (12/h or 300/d, random arrivals at that mean), every:5m (evenly spaced) or burst (all at once).',
  );
}

/** `30m` (every run takes that long) or `p50=18m,p90=31m` (log-normal through those two). */
export function parseCiDuration(name: string, text: string): DurationModel {
  const value = text.trim().toLowerCase();
  const fixed = durationMs(value);
  if (fixed !== undefined && fixed > 0) return { kind: 'fixed', ms: fixed };
  const parts = Object.fromEntries(
    value.split(',').map((part) => part.trim().split('=') as [string, string]),
  );
  const p50Ms = parts.p50 !== undefined ? durationMs(parts.p50) : undefined;
  const p90Ms = parts.p90 !== undefined ? durationMs(parts.p90) : undefined;
  const keys = Object.keys(parts).sort().join(',');
  if (keys === 'p50,p90' && p50Ms && p90Ms && p90Ms >= p50Ms) return { kind: 'percentiles', p50Ms, p90Ms };
  throw new InputError(
    name,
    `${quoted(text)} is not a CI duration`,
    'Use one duration (30m, 90s, 1.5h, up to 24h) or two percentiles with p90 at least p50 (p50=18m,p90=31m).',
  );
}

/** `3%` or `0.03`, from 0 to 1. */
export function parseRate(name: string, text: string): number {
  const value = text.trim();
  const percent = /^(\d+(?:\.\d+)?)%$/.exec(value);
  const rate = percent ? Number(percent[1]) / 100 : /^\d+(?:\.\d+)?$/.test(value) ? Number(value) : NaN;
  if (rate >= 0 && rate <= 1) return rate;
  throw new InputError(
    name,
    `${quoted(text)} is not a rate from 0% to 100%`,
    'Give a percentage (3%) or a fraction (0.03).',
  );
}

function durationMs(text: string): number | undefined {
  const match = DURATION.exec(text.trim());
  if (!match) return undefined;
  const ms = Math.round(Number(match[1]) * UNIT_MS[match[2]!]!);
  return ms <= MAX_DURATION_MS ? ms : undefined;
}

// The plan's report: the JSON people's tools read (its shape is the contract: fit, synthetic, backtest,
// candidates, recommendation, verdict), the table every surface shows, and the honest limits printed
// under every report.
import type { ReplayMetrics } from '../../../queue-model/replay-metrics.js';
import type { CandidateResult, Replayed } from './evaluate.js';
import type { Objective } from './inputs.js';
import type { Choice, Recommendation } from './recommend.js';
import { changeOf } from './recommend.js';
import type { SampleWindow } from './out-of-sample.js';
import type { PlanSettings } from './settings.js';

export const REPORT_FORMAT = 'queue-plan/1';

export const LIMITS = [
  'It compares settings under the same assumptions; it does not forecast.',
  'Pairs of PRs that fail only together are invisible to it.',
  'A faster queue changes how people submit; the replay keeps arrivals as they were.',
  'CI time does not depend on load unless runner-cap is given.',
  'Fewer than 300 PRs or 20 failed runs of history is not enough to fit.',
  'Over API v1 it can only estimate: the history it needs is v2.',
] as const;

export interface ReportCandidate {
  settings: PlanSettings;
  metrics: ReplayMetrics;
  stable: boolean;
  unstableSinceDay: number | null;
  band: CandidateResult['band'];
  headroom: CandidateResult['headroom'];
}

export interface PlanReport {
  format: typeof REPORT_FORMAT;
  fit: boolean;
  synthetic: boolean;
  objective: Objective;
  seeds: number;
  /** outOfSample: where the history was cut (30 days or more), null when the whole of it was checked. */
  backtest: { recorded: ReplayMetrics; replayed: ReplayMetrics; outOfSample: SampleWindow | null } | null;
  candidates: ReportCandidate[];
  recommendation: Recommendation | null;
  /** Why there is no recommendation; absent when there is one. */
  verdict?: string;
  /** Only when the plan was called off part-way: how many candidates were replayed, of how many. */
  partial?: { replayed: number; of: number };
  limits: readonly string[];
}

export function planReport(parts: {
  fit: boolean;
  synthetic: boolean;
  objective: Objective;
  seeds: number;
  backtest: PlanReport['backtest'];
  replayed: Replayed;
  choice: Choice;
}): PlanReport {
  const { choice, replayed } = parts;
  const partial = replayed.results.length < replayed.total;
  return {
    format: REPORT_FORMAT,
    fit: parts.fit,
    synthetic: parts.synthetic,
    objective: parts.objective,
    seeds: parts.seeds,
    backtest: parts.backtest,
    candidates: replayed.results.map(({ settings, metrics, stable, unstableSinceDay, band, headroom }) => ({
      settings,
      metrics,
      stable,
      unstableSinceDay,
      band,
      headroom,
    })),
    recommendation: choice.recommendation,
    ...(choice.recommendation ? {} : { verdict: choice.verdict ?? 'keep your settings' }),
    ...(partial ? { partial: { replayed: replayed.results.length, of: replayed.total } } : {}),
    limits: LIMITS,
  };
}

export const TABLE_HEADERS = [
  'candidate',
  'merged',
  'p50 min (band)',
  'p90 min (band)',
  'merged/h at peak',
  'CI runs/merge',
  'CI min/merge',
  'innocent evictions',
  'isolation runs/failed batch',
  'peak runs',
  'headroom',
];

/** One row per line of the table: recorded and replayed (backtest), then each candidate. */
export function tableRows(report: PlanReport): string[][] {
  const rows: string[][] = [];
  if (report.backtest) {
    const part = report.backtest.outOfSample ? ' (last third, out of sample)' : '';
    rows.push(metricRow(`recorded${part}`, report.backtest.recorded));
    rows.push(metricRow(`current, replayed${part}`, report.backtest.replayed));
  }
  const current = report.candidates[0]?.settings;
  report.candidates.forEach((candidate, index) => {
    const name = index === 0 ? 'current' : changeOf(current!, candidate.settings);
    rows.push(metricRow(name, candidate.metrics, candidate));
  });
  return rows;
}

function metricRow(name: string, m: ReplayMetrics, candidate?: ReportCandidate): string[] {
  const band = (range: [number, number] | undefined) =>
    range && range[0] !== range[1] ? ` (${range[0]}-${range[1]})` : '';
  const headroom = candidate
    ? candidate.stable
      ? candidate.headroom.x2
        ? 'x2 ok'
        : candidate.headroom['x1.5']
          ? 'x1.5 ok'
          : 'none'
      : `unstable from day ${candidate.unstableSinceDay ?? 1}`
    : '';
  return [
    name,
    String(m.merged),
    `${m.p50Minutes}${band(candidate?.band.p50Minutes)}`,
    `${m.p90Minutes}${band(candidate?.band.p90Minutes)}`,
    String(m.mergedPerHourAtPeak),
    String(m.ciRunsPerMerge),
    String(m.ciMinutesPerMerge),
    String(m.innocentEvictions),
    String(m.isolationRunsPerFailedBatch),
    String(m.peakConcurrentRuns),
    headroom,
  ];
}

/** The outcome in one sentence: the recommendation with its gain and cost, or why there is none. */
export function headline(report: PlanReport): string {
  const label = report.synthetic ? ' (synthetic inputs, not backtested)' : '';
  if (report.recommendation) return `Recommended: ${report.recommendation.reason}${label}.`;
  const verdict = report.verdict ?? 'keep your settings';
  return `${verdict.charAt(0).toUpperCase()}${verdict.slice(1)}${label}.`;
}

// Each PR's CI duration from runs that last as long as their slowest PR: the per-PR distribution comes
// back from batches alone, a PR that ran alone keeps its own duration, and in every batch one of its
// PRs lasts as long as the batch did.
import { describe, expect, it } from '@jest/globals';
import type { RunRecord } from '../../src/core/operations/planner/history-file.js';
import { fitPrDurations, prDurationsFor } from '../../src/core/operations/planner/pr-durations.js';
import { SeededRandom } from '../../src/queue-model/random.js';

const MINUTE_MS = 60_000;
const START = Date.UTC(2026, 0, 5);

function run(
  tested: number[],
  minutes: number,
  at: number,
  status: RunRecord['status'] = 'succeeded',
): RunRecord {
  return {
    type: 'run',
    key: `run-${at}`,
    bisection: false,
    status,
    createdAt: new Date(START + at * MINUTE_MS).toISOString(),
    finishedAt: new Date(START + (at + minutes) * MINUTE_MS).toISOString(),
    tested,
    dependent: [],
  };
}

/** 2,000 PRs in batches of four, each PR 20, 27 or 34 minutes at random: each run lasts its slowest. */
function batches(): { runs: RunRecord[]; minutesOf: Map<number, number> } {
  const random = new SeededRandom(7);
  const minutesOf = new Map<number, number>();
  const runs: RunRecord[] = [];
  for (let first = 1; first <= 2_000; first += 4) {
    const prs = [first, first + 1, first + 2, first + 3];
    for (const pr of prs) minutesOf.set(pr, [20, 27, 34][random.int(3)]!);
    runs.push(run(prs, Math.max(...prs.map((pr) => minutesOf.get(pr)!)), first));
  }
  return { runs, minutesOf };
}

describe('per-PR CI durations', () => {
  it('come back from batches of four: a third of PRs at each duration, not the batches’ mostly 34', () => {
    const { population } = fitPrDurations(batches().runs);
    const share = (minutes: number) => population.cdf[population.ms.indexOf(minutes * MINUTE_MS)]!;
    // Batches: (2/3)^4 = 20% end by 27 minutes; PRs: two thirds.
    expect(share(20)).toBeCloseTo(1 / 3, 1);
    expect(share(27)).toBeCloseTo(2 / 3, 1);
    expect(share(34)).toBe(1);
  });

  it('a PR that ran alone keeps its duration; each batch has one PR as long as it; none is longer', () => {
    const runs = [run([1, 2, 3], 34, 0), run([4], 20, 40), run([4, 5], 27, 80), run([6], 30, 120, 'failed')];
    const durations = prDurationsFor(fitPrDurations(runs), [1, 2, 3, 4, 5, 6], (pr) => pr === 6, 1);
    const minutes = (pr: number) => durations.get(pr)! / MINUTE_MS;
    expect(minutes(4)).toBe(20);
    expect(minutes(5)).toBe(27);
    expect(minutes(6)).toBe(30);
    expect(Math.max(minutes(1), minutes(2), minutes(3))).toBe(34);
  });

  it('a replay without batching runs PRs for their own time: mean within 2 minutes of the truth', () => {
    const { runs, minutesOf } = batches();
    const prs = [...minutesOf.keys()];
    const durations = prDurationsFor(fitPrDurations(runs), prs, () => false, 1);
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    const truth = mean(prs.map((pr) => minutesOf.get(pr)!));
    const fitted = mean(prs.map((pr) => durations.get(pr)! / MINUTE_MS));
    expect(Math.abs(fitted - truth)).toBeLessThan(2);
    // Each batch's duration comes back as the longest of its PRs'.
    for (const r of runs)
      expect(Math.max(...r.tested.map((pr) => durations.get(pr)!))).toBe(
        Date.parse(r.finishedAt) - Date.parse(r.createdAt),
      );
  });
});

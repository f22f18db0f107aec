// A plan called off part-way (an MCP call whose time runs short, an agent that cancels) answers with the
// candidates it replayed, says how many of how many, and recommends nothing from a partial comparison.
import { describe, expect, it } from '@jest/globals';
import { planSynthetic } from '../../src/core/operations/planner/plan.js';
import type { PlanQueueSettings } from '../../src/core/operations/planner/inputs.js';

const queue = {
  prs: 200,
  arrivals: { kind: 'every', gapMs: 5 * 60_000 },
  ciDuration: { kind: 'fixed', ms: 30 * 60_000 },
  culpritRate: 0.03,
  flakeRate: 0.02,
} as const;

const settings: PlanQueueSettings = {
  historyFiles: [],
  days: 45,
  vary: [{ name: 'concurrency', values: [2, 3, 4, 8, 12] }],
  objective: 'p90',
  seeds: 2,
  runnerCap: undefined,
  ciMinutesBudget: { kind: 'share', share: 1.5 },
  grid: 'one-at-a-time',
  requireFit: false,
  synthetic: queue,
};

describe('a plan called off part-way', () => {
  it('reports the candidates replayed so far, of how many, and no recommendation', async () => {
    const calledOff = new AbortController();
    const seen: string[] = [];
    const report = await planSynthetic(settings, queue, {
      signal: calledOff.signal,
      progress: (done, total) => {
        seen.push(`${done}/${total}`);
        if (done === 3) calledOff.abort();
      },
    });
    expect(seen).toEqual(['1/6', '2/6', '3/6']);
    expect(report.partial).toEqual({ replayed: 3, of: 6 });
    expect(report.candidates.map((c) => c.settings.concurrency)).toEqual([1, 2, 3]);
    expect(report.recommendation).toBeNull();
    expect(report.verdict).toMatch(/^stopped early: 3 of 6 candidates were replayed/);
  });

  it('the same plan left alone replays them all and may recommend', async () => {
    const report = await planSynthetic(settings, queue, { signal: new AbortController().signal });
    expect(report.partial).toBeUndefined();
    expect(report.candidates).toHaveLength(6);
    expect(report.recommendation?.settings.concurrency).toBeGreaterThan(1);
  });
});

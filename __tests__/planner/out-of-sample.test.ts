// A month of a batching queue on the emulator (bursts of four PRs, every 20th a culprit), exported over
// v2 and planned from the file. With 30 days or more the backtest is out of sample: fitted on the first
// two thirds, judged on the PRs of the last third, and the report says where it cut. Isolation runs per
// failed batch are judged like the other figures: the four PRs of a burst are ready at the same minute
// and must replay in the queue's order, or the culprit (the last of each burst) is bisected first.
import { beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Scenario } from '../../emulator/scenario.js';
import { plannedPullRequests, plannerAction } from '../helpers/planner-history.js';
import { useEmulator } from '../helpers/emulator.js';

const START = Date.UTC(2026, 2, 2);
const REPO = 'acme/plan-month';
const BURSTS = 84;
const BURST_SIZE = 4;
const PRS = BURSTS * BURST_SIZE;
const BURST_GAP_MINUTES = 9 * 60;
const iso = (minutes: number) => new Date(START + minutes * 60_000).toISOString();

function scenario(): Scenario {
  const pullRequests = plannedPullRequests(REPO, PRS, (i) => Math.floor(i / BURST_SIZE) * BURST_GAP_MINUTES, {
    flakes: false,
  });
  return {
    queues: [
      {
        repo: REPO,
        targetBranch: 'main',
        concurrency: 2,
        batch: true,
        batchingMinSize: BURST_SIZE,
        batchingMaxWaitTimeMinutes: 5,
      },
    ],
    pullRequests,
  };
}

const emulator = useEmulator({ startTime: START, scenario: scenario() });
const history = join(mkdtempSync(join(tmpdir(), 'plan-month-')), 'queue-history.jsonl');
const END_MINUTES = BURSTS * BURST_GAP_MINUTES + 600;

const act = plannerAction(emulator, REPO);

beforeAll(async () => {
  await emulator.control('POST', '/clock/advance', { minutes: END_MINUTES });
  const exported = await act({
    operation: 'export-queue-history',
    history,
    since: iso(-60),
    until: iso(END_MINUTES),
  });
  if (exported.error) throw new Error(`export: ${exported.error}`);
});

describe('a backtest over a month of history', () => {
  it('is fitted on the first two thirds and judged on the last third, with isolation runs per failed batch', async () => {
    const plan = await act({ operation: 'plan-queue-settings', history, seeds: '2', vary: 'concurrency=3' });
    expect(plan.error).toBe('');
    const report = JSON.parse(plan.outputs.response!);
    const { outOfSample, recorded, replayed } = report.backtest;
    // The cut is two thirds of the way from the first PR's readiness to the last's.
    const lastReady = START + (BURSTS - 1) * BURST_GAP_MINUTES * 60_000;
    expect(Date.parse(outOfSample.checkedFrom)).toBeCloseTo(START + ((lastReady - START) * 2) / 3, -5);
    expect(outOfSample.checkedPrs).toBeGreaterThanOrEqual(PRS / 3 - BURST_SIZE);
    expect(outOfSample.checkedPrs).toBeLessThanOrEqual(PRS / 3 + BURST_SIZE);
    // What happened to the last third only: about a third of the merges, not all of them.
    expect(recorded.merged).toBeLessThan(PRS / 2);
    expect(recorded.merged).toBeGreaterThan(PRS / 4);
    // Culprits sit in batches of four: each failed batch is isolated with bisection runs.
    expect(recorded.isolationRunsPerFailedBatch).toBeGreaterThan(1);
    expect(report.fit).toBe(true);
    expect(Math.abs(replayed.merged - recorded.merged)).toBeLessThanOrEqual(
      Math.max(2, 0.05 * recorded.merged),
    );
    // Each failed batch of four with its culprit last: the halves, then the culprit's half in two.
    expect(recorded.isolationRunsPerFailedBatch).toBe(4);
    expect(replayed.isolationRunsPerFailedBatch).toBe(4);
    expect(plan.summary).toContain('recorded (last third, out of sample)');
  });

  it('refuses a history whose isolation runs the replay does not reproduce, with the figures', async () => {
    // Settings that say skip-redundant bisection was on, when the queue ran every isolation run.
    const tampered = history.replace(/\.jsonl$/, '-skip-redundant.jsonl');
    const lines = readFileSync(history, 'utf8').split('\n');
    writeFileSync(
      tampered,
      lines
        .map((line) =>
          line.includes('"type":"settings"')
            ? line.replace('"optimizationMode":"off"', '"optimizationMode":"bisectionSkipRedundantTests"')
            : line,
        )
        .join('\n'),
    );
    const plan = await act({ operation: 'plan-queue-settings', history: tampered, seeds: '2' });
    const report = JSON.parse(plan.outputs.response!);
    expect(report.fit).toBe(false);
    expect(report.recommendation).toBeNull();
    expect(report.verdict).toMatch(
      /^the model does not reproduce your history .*: isolation runs per failed batch \d+(\.\d+)? replayed against 4 recorded$/,
    );
  });
});

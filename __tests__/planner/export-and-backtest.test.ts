// A day and a half of a queue on the emulator (known arrivals, durations, culprits and flakes, known
// settings), exported with export-queue-history over v2 and planned from the file: the backtest must
// reproduce what the emulator recorded, a history it cannot fit is refused, and nothing but reads is
// ever sent (every request passes a proxy that records it).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Scenario } from '../../emulator/scenario.js';
import { plannedPullRequests } from '../helpers/planner-history.js';
import { runAction } from '../helpers/action-runner.js';
import { TEST_TOKEN, useEmulator } from '../helpers/emulator.js';
import { startCheckingProxy, type CheckingProxy } from '../helpers/v2-requests.js';

const START = Date.UTC(2026, 0, 5);
const REPO = 'acme/plan';
const PRS = 330;
const GAP_MINUTES = 10;
const iso = (minutes: number) => new Date(START + minutes * 60_000).toISOString();

/** PR n: 20-40 minute CI; every 20th a culprit, every 25th flaky once; one every 10 minutes. */
function scenario(): Scenario {
  const pullRequests = plannedPullRequests(REPO, PRS, (i) => i * GAP_MINUTES);
  return { queues: [{ repo: REPO, targetBranch: 'main', concurrency: 4 }], pullRequests };
}
const CULPRITS = Array.from({ length: PRS }, (_, i) => i + 1).filter((n) => n % 20 === 0 || n % 25 === 0);

const emulator = useEmulator({ startTime: START, scenario: scenario() });
let proxy: CheckingProxy;
const dir = mkdtempSync(join(tmpdir(), 'plan-history-'));
const history = join(dir, 'queue-history.jsonl.gz');

beforeAll(async () => {
  proxy = await startCheckingProxy(emulator.current.origin);
  await emulator.control('POST', '/clock/advance', { minutes: PRS * GAP_MINUTES + 600 });
});

afterAll(async () => {
  await proxy.close();
  expect(proxy.problems).toEqual([]);
});

const act = (inputs: Record<string, string>, version = 'v2') =>
  runAction({
    env: { GITHUB_REPOSITORY: REPO },
    inputs: {
      'api-url': `${proxy.origin}/v1`,
      'api-token': version === 'v1' ? TEST_TOKEN : emulator.current.v2Key,
      'api-version': version,
      'target-branch': 'main',
      ...inputs,
    },
  });

const exportWindow = { since: iso(-60), until: iso(PRS * GAP_MINUTES + 600) };

describe('export-queue-history, then plan-queue-settings from the file', () => {
  it('exports the window, and an overlapping export adds nothing', async () => {
    const first = await act({ operation: 'export-queue-history', history, ...exportWindow });
    expect(first.error).toBe('');
    expect(first.outputs.prs).toBe(String(PRS));
    expect(Number(first.outputs.added)).toBeGreaterThan(PRS);
    expect(first.log).toMatch(/histories of 50 of 330 PRs read/);
    const lines = gunzipSync(readFileSync(history)).toString('utf8').trim().split('\n');
    expect(JSON.parse(lines[0]!)).toEqual({ type: 'format', key: 'format', format: 'queue-history/1' });
    expect(lines.find((l) => l.includes('"type":"settings"'))).toContain('"concurrency":4');
    // About 1 KB a PR.
    expect(readFileSync(history).length / PRS).toBeLessThan(1024);

    const again = await act({ operation: 'export-queue-history', history, ...exportWindow });
    expect(again.outputs.added).toBe('0');
    expect(gunzipSync(readFileSync(history)).toString('utf8').trim().split('\n')).toHaveLength(lines.length);
  });

  it('backtests the recorded settings and reproduces what the emulator recorded', async () => {
    const plan = await act({
      operation: 'plan-queue-settings',
      history,
      seeds: '2',
      vary: 'concurrency=2,8',
    });
    expect(plan.error).toBe('');
    const report = JSON.parse(plan.outputs.response!);
    expect(report).toMatchObject({ fit: true, synthetic: false });
    expect(report.backtest.recorded.merged).toBe(PRS - CULPRITS.length);
    expect(report.backtest.replayed.merged).toBe(PRS - CULPRITS.length);
    for (const metric of ['p50Minutes', 'p90Minutes', 'ciRunsPerMerge'] as const) {
      const recorded = report.backtest.recorded[metric];
      expect(Math.abs(report.backtest.replayed[metric] - recorded)).toBeLessThanOrEqual(
        Math.max(10, recorded * 0.25),
      );
    }
    expect(report.candidates[0].settings).toMatchObject({ concurrency: 4 });
    expect(
      report.candidates.map((c: { settings: { concurrency: number } }) => c.settings.concurrency),
    ).toEqual([4, 2, 8]);
    expect(plan.outputs.fit).toBe('true');
    expect(plan.outputs['report-file']).toMatch(/queue-plan-[0-9a-f]{16}\.json$/);
  });

  it('gives the same report byte for byte for the same history and seeds', async () => {
    const inputs = { operation: 'plan-queue-settings', history, seeds: '2', vary: 'concurrency=2,8' };
    const first = await act(inputs);
    const second = await act(inputs);
    expect(first.outputs.response!.length).toBeGreaterThan(1000);
    expect(second.outputs.response).toBe(first.outputs.response);
    // Named by its content: the same name (each run has a temporary directory of its own).
    expect(basename(second.outputs['report-file']!)).toBe(basename(first.outputs['report-file']!));
  });

  it('refuses a history it cannot reproduce: no recommendation, fit false, exit 1 with require-fit', async () => {
    const lines = gunzipSync(readFileSync(history)).toString('utf8').trim().split('\n');
    const wrong = lines.map((line) =>
      line.includes('"type":"settings"') ? line.replace('"concurrency":4', '"concurrency":1') : line,
    );
    const tampered = join(dir, 'wrong-settings.jsonl');
    writeFileSync(tampered, `${wrong.join('\n')}\n`);
    const plan = await act({
      operation: 'plan-queue-settings',
      history: tampered,
      seeds: '1',
      'require-fit': 'true',
    });
    expect(plan.error).toMatch(/the model does not reproduce your history: .*\(require-fit is set\)/);
    const report = JSON.parse(plan.outputs.response!);
    expect(report.fit).toBe(false);
    expect(report.recommendation).toBeNull();
    expect(report.verdict).toMatch(/^the model does not reproduce your history: .*p90/);
    expect(plan.failed).toBe(true);
    expect(plan.outputs.fit).toBe('false');
  });

  it('refuses a history whose CI minutes the replay does not reproduce, with the figures', async () => {
    // Cancelled runs that ran two hours longer than they did: more CI minutes, nothing else changed
    // (the durations the replay draws come from runs that finished).
    const lines = gunzipSync(readFileSync(history)).toString('utf8').trim().split('\n');
    const stretched = lines.map((line) => {
      const record = JSON.parse(line);
      if (record.type !== 'run' || record.status !== 'cancelled') return line;
      const finishedAt = new Date(Date.parse(record.finishedAt) + 120 * 60_000).toISOString();
      return JSON.stringify({ ...record, finishedAt });
    });
    expect(stretched).not.toEqual(lines);
    const file = join(dir, 'long-cancelled-runs.jsonl');
    writeFileSync(file, `${stretched.join('\n')}\n`);
    const plan = await act({ operation: 'plan-queue-settings', history: file, seeds: '1' });
    const report = JSON.parse(plan.outputs.response!);
    expect(report).toMatchObject({ fit: false, recommendation: null });
    expect(report.verdict).toMatch(
      /^the model does not reproduce your history: CI minutes per merge [\d.]+ min replayed against [\d.]+ min recorded$/,
    );
  });

  it('calls fewer than 300 PRs not enough history', async () => {
    const small = join(dir, 'small.jsonl');
    const exported = await act({
      operation: 'export-queue-history',
      history: small,
      since: iso(-60),
      until: iso(600),
    });
    expect(exported.error).toBe('');
    const plan = await act({ operation: 'plan-queue-settings', history: small });
    expect(JSON.parse(plan.outputs.response!)).toMatchObject({
      fit: false,
      recommendation: null,
      verdict: expect.stringMatching(/^not enough history: \d+ PRs/),
    });
    expect(plan.failed).toBe(false);
  });

  it('over v1, the export stops with one line saying v2 is needed', async () => {
    const run = await act(
      { operation: 'export-queue-history', history: join(dir, 'v1.jsonl'), ...exportWindow },
      'v1',
    );
    expect(run.failed).toBe(true);
    expect(run.error).toMatch(/api-version.*v2/);
  });

  it('never sends anything but a read', () => {
    expect(proxy.all.length).toBeGreaterThan(10);
    expect(proxy.all.filter((request) => !request.startsWith('GET '))).toEqual([]);
  });
});

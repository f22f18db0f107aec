// plan-queue-settings in synthetic mode, through the built CLI: no token, no service. First-principles
// cases whose answers follow from the queue's rules alone, determinism byte for byte, and bad input.
import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXIT_CODES } from '../../src/core/failure.js';
import { runCli } from '../helpers/cli-runner.js';

// No repository, no token, no service: a directory outside any checkout.
const CWD = mkdtempSync(join(tmpdir(), 'plan-'));
const ENV = { TMPDIR: CWD };

interface Metrics {
  merged: number;
  p50Minutes: number;
  p90Minutes: number;
  ciRunsPerMerge: number;
  ciMinutesPerMerge: number;
}
interface Report {
  fit: boolean;
  synthetic: boolean;
  backtest: unknown;
  candidates: { settings: Record<string, unknown>; metrics: Metrics; stable: boolean }[];
  recommendation: {
    settings: Record<string, unknown>;
    patch: Record<string, unknown>;
    reason: string;
  } | null;
  verdict?: string;
}

async function plan(args: string[]) {
  const run = await runCli(['plan-queue-settings', ...args, '--json'], { env: ENV, cwd: CWD });
  const envelope = JSON.parse(run.stdout) as { exitCode: number; response: Report; failure: string | null };
  return { run, envelope, report: envelope.response };
}

describe('plan-queue-settings, synthetic', () => {
  it('a serial queue of 10 PRs arriving at once with 30-minute CI merges one every 30 minutes', async () => {
    const { run, report } = await plan([
      '--prs',
      '10',
      '--arrivals',
      'burst',
      '--ci-duration',
      '30m',
      '--vary',
      'concurrency=2',
    ]);
    expect(run.exitCode).toBe(EXIT_CODES.done);
    expect(report).toMatchObject({ fit: true, synthetic: true, backtest: null });
    const serial = report.candidates[0]!;
    expect(serial.settings).toMatchObject({ concurrency: 1, allowBatching: false });
    // Merges at 30, 60, ..., 300 minutes: the 5th of 10 at 150, the 9th at 270.
    expect(serial.metrics).toEqual(
      expect.objectContaining({
        merged: 10,
        p50Minutes: 150,
        p90Minutes: 270,
        ciRunsPerMerge: 1,
        ciMinutesPerMerge: 30,
      }),
    );
    expect(serial.stable).toBe(true);
    // Two at a time, each on top of the one ahead: pairs merge at 30, 60, ..., 150.
    expect(report.candidates[1]!.metrics).toMatchObject({ merged: 10, p50Minutes: 90, p90Minutes: 150 });
    expect(report.recommendation?.patch).toEqual({ concurrency: 2, bisectionConcurrency: 2 });
  });

  it('12 PRs an hour of 30-minute CI is unstable at concurrency 5 and stable at 7', async () => {
    const { report } = await plan([
      '--prs',
      '240',
      '--arrivals',
      '12/h',
      '--ci-duration',
      '30m',
      '--vary',
      'concurrency=5,7',
    ]);
    const byConcurrency = new Map(report.candidates.map((c) => [c.settings.concurrency, c]));
    expect(byConcurrency.get(1)!.stable).toBe(false);
    expect(byConcurrency.get(5)!.stable).toBe(false);
    expect(byConcurrency.get(7)!.stable).toBe(true);
    expect(report.recommendation?.settings).toMatchObject({ concurrency: 7 });
  });

  it('recommends nothing that costs more CI minutes per merged PR than ci-minutes-budget allows', async () => {
    const args = ['--prs', '240', '--arrivals', '12/h', '--ci-duration', '30m', '--vary', 'concurrency=5,7'];
    const within = await plan([...args, '--ci-minutes-budget', '40']);
    expect(within.report.recommendation?.settings).toMatchObject({ concurrency: 7 });
    // Every candidate runs 30-minute CI at least once per merged PR: a budget of 25 leaves none.
    const over = await plan([...args, '--ci-minutes-budget', '25']);
    expect(over.report.candidates.find((c) => c.settings.concurrency === 7)!.stable).toBe(true);
    expect(over.report.recommendation).toBeNull();
    expect(over.report.verdict).toMatch(/within 25 CI minutes per merged PR \(ci-minutes-budget\)/);
  });

  it("names each candidate's change with an arrow in the summary's charts", async () => {
    const summaryFile = join(CWD, 'arrow-summary.md');
    const args = ['--prs', '24', '--arrivals', '12/h', '--ci-duration', '30m', '--vary', 'concurrency=5'];
    await runCli(['plan-queue-settings', ...args, '--summary-file', summaryFile], { env: ENV, cwd: CWD });
    const axes = readFileSync(summaryFile, 'utf8')
      .split('\n')
      .filter((line) => line.includes('x-axis'));
    expect(axes).toHaveLength(2);
    for (const axis of axes) expect(axis).toContain('"concurrency 1 → 5');
  });

  it('evenly spaced arrivals show the same threshold', async () => {
    const { report } = await plan([
      '--prs',
      '120',
      '--arrivals',
      'every:5m',
      '--ci-duration',
      '30m',
      '--vary',
      'concurrency=5,7',
    ]);
    const stable = report.candidates.map((c) => [c.settings.concurrency, c.stable]);
    expect(stable).toEqual([
      [1, false],
      [5, false],
      [7, true],
    ]);
  });

  it('combines the vary values with grid full', async () => {
    const { report } = await plan([
      '--prs',
      '8',
      '--arrivals',
      'burst',
      '--ci-duration',
      '30m',
      '--vary',
      'concurrency=1,2',
      '--vary',
      'allowBatching=false,true',
      '--grid',
      'full',
    ]);
    const shown = report.candidates.map((c) => [c.settings.concurrency, c.settings.allowBatching]);
    expect(shown).toEqual([
      [1, false],
      [1, true],
      [2, false],
      [2, true],
    ]);
  });

  it('gives the same JSON byte for byte for the same inputs and seeds', async () => {
    const args = [
      '--prs',
      '150',
      '--arrivals',
      '10/h',
      '--ci-duration',
      'p50=18m,p90=31m',
      '--culprit-rate',
      '5%',
      '--flake-rate',
      '6%',
      '--seeds',
      '2',
    ];
    const first = await plan(args);
    const second = await plan(args);
    expect(first.run.exitCode).toBe(EXIT_CODES.done);
    // The whole --json output, report-file's path included (it is named by the report's content).
    expect(second.run.stdout).toBe(first.run.stdout);
    expect(first.report.candidates.length).toBeGreaterThan(10);
  });

  it('keeps the settings, with a verdict, when no candidate beats them by more than the spread', async () => {
    const { report } = await plan([
      '--prs',
      '20',
      '--arrivals',
      'every:2h',
      '--ci-duration',
      '30m',
      '--vary',
      'concurrency=2,3',
    ]);
    expect(report.recommendation).toBeNull();
    expect(report.verdict).toMatch(/^keep your settings: /);
  });

  it('says so when no candidate beats the settings, rather than calling a loss within the margin', async () => {
    // One PR every two hours of 30-minute CI: batching only adds its 5-minute wait.
    const { report } = await plan([
      ...['--prs', '20', '--arrivals', 'every:2h', '--ci-duration', '30m', '--vary', 'allowBatching=true'],
    ]);
    expect(report.candidates.map((c) => c.metrics.p90Minutes)).toEqual([30, 35]);
    expect(report.recommendation).toBeNull();
    expect(report.verdict).toBe(
      'keep your settings: no candidate beats them; the best tried (allowBatching false -> true) makes the p90 time in queue 5 min worse',
    );
  });

  it.each([
    [['concurrency'], 'names concurrency but no values to try'],
    [['concurrency=2', 'concurrency=3'], 'names concurrency more than once'],
  ])('refuses --vary %j in one line that says what to give', async (vary, said) => {
    const args = vary.flatMap((v) => ['--vary', v]);
    const run = await runCli(['plan-queue-settings', '--prs', '10', ...args], { env: ENV, cwd: CWD });
    expect(run.exitCode).toBe(EXIT_CODES.badInput);
    expect(run.stderr).toContain(said);
    expect(run.stderr).toMatch(/e\.g\. concurrency=2,4/);
  });

  it.each([
    [['--prs', '10', '--arrivals', '12/x'], 'arrivals'],
    [['--prs', '10', '--ci-duration', 'p50=30m,p90=10m'], 'ci-duration'],
    [['--prs', '10', '--flake-rate', '140%'], 'flake-rate'],
    [['--prs', '10', '--vary', 'concurency=2'], 'vary'],
    [['--prs', '10', '--vary', 'concurrency=0'], 'vary'],
    [['--arrivals', 'burst'], 'arrivals'],
    [['--prs', '10', '--grid', 'full'], 'grid'],
    [['--prs', '10', '--ci-minutes-budget', '50%'], 'ci-minutes-budget'],
    [[], 'history'],
    [['--history', '/nonexistent/queue-history.jsonl'], 'history'],
  ])('refuses %j with exit 2 and a line naming %s', async (args, input) => {
    const run = await runCli(['plan-queue-settings', ...args], { env: ENV, cwd: CWD });
    expect(run.exitCode).toBe(EXIT_CODES.badInput);
    expect(run.stderr).toContain(input);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});

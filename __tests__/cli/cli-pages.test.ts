// The CLI's pages as a person reads them (the built CLI, piped, against the emulator): each thing said
// once, whole, in the units the summaries use, and no file named that is gone when the command ends.
import { beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { laptopEnvironment, runCli } from '../helpers/cli-runner.js';
import { QueueDriver, useEmulator } from '../helpers/emulator.js';

const emulator = useEmulator();
const REPO = 'acme/pages';
const queue = new QueueDriver(emulator, REPO, 'main');
const laptop = (extra: Record<string, string> = {}) => laptopEnvironment(emulator, REPO, extra);

beforeAll(async () => {
  await queue.create({ requiredStatuses: ['emulated-ci/test'] });
  await queue.ci(20, { outcome: 'fail', durationMinutes: 5 });
  await queue.setPr(20, { title: 'Payments: charge twice guard' });
  await queue.submit(20);
  await queue.advance(10);
  expect(await queue.state(20)).toBe('failed');
  await emulator.control('POST', '/flaky-tests', {
    repositories: [
      { repo: queue.repo, org_url_slug: 'acme', generate: { flaky: 3, broken: 1, healthy: 2, seed: 7 } },
    ],
  });
});

describe('a failed PR', () => {
  it('says it once, names the PR once, and shows the check address whole', async () => {
    const run = await runCli(['get-submitted-pull-request', '--pr-number', '20'], { env: laptop() });
    const both = `${run.stderr}\n${run.stdout}`;
    expect(run.stdout.split('\n')[0]).toBe(
      'Failed in the merge queue (emulated-ci/test failure): PR #20 → main of acme/pages',
    );
    expect(both).not.toMatch(/PR #20 PR #20/);
    // The headline is the page's; the log does not say it again.
    expect(run.stderr).not.toContain('Failed in the merge queue');
    expect(run.stderr).not.toContain('PR #20 failed');
    const why = run.stdout.split('\n').find((line) => /^ +Why /.test(line))!;
    expect(why).toMatch(/^ +Why +PR #20 failed: emulated-ci\/test concluded FAILURE\.$/);
    const link = /https:\/\/\S+/.exec(run.stdout.split('Failing checks')[1]!)?.[0];
    expect(link).toMatch(/\/actions\/runs\/\d+\/job\/\d+$/);
    expect(run.stdout).not.toContain('…');
  });
});

describe('a summary the CLI writes (--summary-file, as on GitLab or Jenkins)', () => {
  const summaryOf = async (args: string[]) => {
    const file = join(mkdtempSync(join(tmpdir(), 'cli-pages-summary-')), 'summary.md');
    await runCli([...args, '--summary-file', file], { env: laptop() });
    return readFileSync(file, 'utf8');
  };

  it("names the CLI's commands and flags in its next step, not the action's", async () => {
    const failed = await summaryOf(['get-submitted-pull-request', '--pr-number', '20']);
    expect(failed).toContain('submit the PR again (`merge-queue-action submit-pull-request`)');
    const noQueue = await summaryOf(['get-queue', '--target-branch', 'nowhere']);
    expect(noQueue).toContain(
      'Create one with `merge-queue-action create-queue`, or check `--target-branch`, `--repo` and `--repo-host`.',
    );
    expect(`${failed}${noQueue}`).not.toContain('operation:');
  });
});

// Before the listings, which move the clock days on: the failed PR is in the last hour here.
describe('the metrics', () => {
  it('shows the metrics as the summary does: the hour in a line, durations in minutes, not seconds', async () => {
    const run = await runCli(['get-merge-queue-metrics'], { env: laptop() });
    expect(run.exitCode).toBe(0);
    expect(run.stdout.split('\n')[0]).toMatch(
      /^Merge queue of acme\/pages main, last hour: \d+ in queue, \d+ testing, \d+ merged, 1 failed$/,
    );
    expect(run.stdout).toMatch(/^ {2}Failed +1$/m);
    expect(run.stdout).toMatch(/^ {2}Test duration +about \d+m( \d+s)? \(p50\)$/m);
    expect(run.stdout).not.toMatch(/-seconds|last-hour/);
  });

  it('--json gives the metrics as numbers, the percentiles too', async () => {
    const run = await runCli(['get-merge-queue-metrics', '--json'], { env: laptop() });
    const { outputs } = JSON.parse(run.stdout) as { outputs: Record<string, unknown> };
    expect(typeof outputs['failed-last-hour']).toBe('number');
    expect(typeof outputs['test-duration-p50-seconds']).toBe('number');
    expect(typeof outputs['wait-p50-seconds']).toBe('number');
  });
});

describe('listings and files', () => {
  it('says how long a test has been unhealthy in days, as the nightly summary does', async () => {
    await queue.advance(60 * 24 * 3);
    const run = await runCli(['list-unhealthy-tests', '--org-url-slug', 'acme'], { env: laptop() });
    expect(run.exitCode).toBe(0);
    const rows = run.stdout.split('\n').filter((line) => / (flaky|broken) /.test(line));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row).toMatch(/ (today|1 day|\d+ days) /);
    expect(run.stdout).not.toMatch(/\d+h \d+m/);
    expect(`${run.stderr}${run.stdout}`).not.toMatch(/test\(s\)|page\(s\)/);
  });

  it('shows the page alone in a terminal; the counts per status stay in the log of a program', async () => {
    const perStatus = /^(FLAKY|BROKEN): \d+ tests? on \d+ pages?\.$/m;
    const page = await runCli(['list-unhealthy-tests', '--org-url-slug', 'acme'], { env: laptop() });
    expect(page.exitCode).toBe(0);
    expect(page.stdout).toMatch(/^\d+ tests? unhealthy in /);
    expect(page.stderr).not.toMatch(perStatus);
    const json = await runCli(['list-unhealthy-tests', '--org-url-slug', 'acme', '--json'], {
      env: laptop(),
    });
    expect(json.exitCode).toBe(0);
    expect(json.stderr).toMatch(perStatus);
  });

  it('says a tripped threshold is listed on the page, not in a job summary a terminal lacks', async () => {
    const args = ['list-unhealthy-tests', '--org-url-slug', 'acme', '--fail-on', 'flaky'];
    const run = await runCli([...args, '--max-unhealthy', '0'], { env: laptop() });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain(
      'The page lists them; --report-file or MERGE_QUEUE_REPORT_FILE keeps every one in a file.',
    );
    expect(run.stderr).not.toContain('job summary');
  });

  it('does not name a metrics file that is removed when the command ends', async () => {
    const temp = mkdtempSync(join(tmpdir(), 'cli-pages-tmp-'));
    const run = await runCli(['get-merge-queue-metrics'], { env: laptop({ TMPDIR: temp }) });
    expect(run.exitCode).toBe(0);
    expect(readdirSync(temp)).toEqual([]);
    expect(`${run.stderr}${run.stdout}`).not.toContain(temp);
    expect(run.stderr).not.toContain('written to the metrics-file output');
    expect(run.stdout).toContain('metrics-file: not kept, as nothing reads it after this run');
  });
});

describe('the command alone', () => {
  it('prints its help and succeeds, as gh does', async () => {
    const run = await runCli([], { env: {} });
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/merge-queue-action/);
    expect(run.stdout.split('\n').length).toBeGreaterThan(5);
    expect(run.stderr).toBe('');
  });
});

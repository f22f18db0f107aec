// What a person sees when the built CLI runs in a terminal or a pipe: the outcome first, then the queue,
// the PR, the targets or the failed tests as aligned tables; colour only when allowed; --json unchanged;
// nothing left behind in the temp directory.
import { beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { laptopEnvironment, runCli } from '../helpers/cli-runner.js';
import { QueueDriver, useEmulator } from '../helpers/emulator.js';

// Virtual time stands still unless a test moves it: the line stays as submitted.
const emulator = useEmulator();
const REPO = 'acme/present';
const queue = new QueueDriver(emulator, REPO, 'main');
const ESC = '\u001b';

const laptop = (extra: Record<string, string> = {}) => laptopEnvironment(emulator, REPO, extra);

const TITLES: Record<number, string> = {
  11: 'Spin the widget faster',
  12: 'Fix the flux capacitor',
  13: 'Docs: explain the queue',
};

beforeAll(async () => {
  await queue.create({ concurrency: 1 });
  for (const [number, title] of Object.entries(TITLES)) {
    await queue.setPr(Number(number), { title });
    await queue.submit(Number(number));
  }
  await emulator.control('POST', '/flaky-tests', {
    repositories: [
      { repo: queue.repo, org_url_slug: 'acme', generate: { flaky: 3, broken: 1, healthy: 4, seed: 5 } },
    ],
  });
});

/** The table rows that start with a PR number, as the columns a person reads. */
function rowsOf(stdout: string): string[] {
  return stdout.split('\n').filter((line) => /^ +\d+ +#\d+ /.test(line));
}

describe('get-queue', () => {
  it('piped: the outcome line first, then the PRs in line as an aligned table, without escape codes', async () => {
    const run = await runCli(['get-queue'], { env: laptop() });
    expect(run.exitCode).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toBe('Queue main of acme/present is RUNNING: 1 PR testing, 2 pending');
    expect(run.stdout).not.toContain(ESC);
    expect(run.stdout).toMatch(/^ {2}State +RUNNING$/m);
    const header = lines.find((line) => line.includes('TITLE'))!;
    expect(header).toMatch(/#\s+PR\s+TITLE\s+STATE\s+PRIORITY\s+IN STATE/);
    const rows = rowsOf(run.stdout);
    expect(rows).toHaveLength(3);
    rows.forEach((row, index) => {
      const number = [11, 12, 13][index]!;
      expect(row).toContain(`#${number}`);
      // Each title starts in the title column, whatever the width of what is before it.
      expect(row.indexOf(TITLES[number]!)).toBe(header.indexOf('TITLE'));
      expect(row).toMatch(new RegExp(` ${index === 0 ? 'TESTING' : 'PENDING'} +medium +\\S`));
    });
    // The time in state is a duration a person reads, not an ISO timestamp.
    expect(run.stdout).not.toMatch(/\d{4}-\d\d-\d\dT/);
    // What used to crowd a laptop's run is gone.
    for (const noise of ['host:', 'repo:', 'target branch:', 'Outputs are not written']) {
      expect(run.stdout + run.stderr).not.toContain(noise);
    }
  });

  it('with FORCE_COLOR: the same page coloured by meaning', async () => {
    const run = await runCli(['get-queue'], { env: laptop({ FORCE_COLOR: '1' }) });
    expect(run.exitCode).toBe(0);
    const plain = run.stdout.replaceAll(new RegExp(`${ESC}\\[[0-9;]*m`, 'g'), '');
    expect(plain.split('\n')[0]).toBe('Queue main of acme/present is RUNNING: 1 PR testing, 2 pending');
    // RUNNING green; TESTING and each PENDING yellow.
    expect(run.stdout).toContain(`${ESC}[32mRUNNING${ESC}[39m`);
    expect(run.stdout).toContain(`${ESC}[33mTESTING`);
    expect(run.stdout.split(`${ESC}[33mPENDING`)).toHaveLength(3);
  });

  it('NO_COLOR or a pipe without FORCE_COLOR: no colour', async () => {
    const run = await runCli(['get-queue'], { env: laptop({ NO_COLOR: '1' }) });
    expect(run.stdout).not.toContain(ESC);
    expect(rowsOf(run.stdout)).toHaveLength(3);
  });

  it('--json: only the result object on stdout, as before', async () => {
    const run = await runCli(['get-queue', '--json'], { env: laptop({ FORCE_COLOR: '1' }) });
    expect(run.exitCode).toBe(0);
    const result = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(Object.keys(result)).toEqual(['operation', 'exitCode', 'outputs', 'response', 'failure']);
    expect(result).toMatchObject({
      operation: 'get-queue',
      outputs: { 'queue-state': 'running', 'enqueued-count': 3 },
      response: { enqueuedPullRequests: [{ prNumber: 11 }, { prNumber: 12 }, { prNumber: 13 }] },
    });
    expect(run.stdout).not.toContain(ESC);
    expect(run.stderr).toContain('host: generic');
  });
});

describe('get-submitted-pull-request', () => {
  it('says the PR state, its place in line and what it waits for', async () => {
    const run = await runCli(['get-submitted-pull-request', '--pr-number', '12'], { env: laptop() });
    expect(run.exitCode).toBe(0);
    expect(run.stdout.split('\n')[0]).toBe('PENDING at position 2 of 3: PR #12 → main of acme/present');
    expect(run.stdout).toMatch(/^ {2}Title +Fix the flux capacitor$/m);
    expect(run.stdout).toMatch(/^ {2}Place in line +position 2 of 3 \(1 PR ahead\)$/m);
    expect(run.stdout).toMatch(/^ {2}Waits for +1 PR ahead to be tested$/m);
    // The priority of a PR ahead is said as the PR's own is: a name, not the service's number.
    expect(run.stdout).toMatch(/Ahead of it \(1\)\n.*\n +#11 +TESTING +medium$/m);
  });

  it('is-submitted is false once the PR has left the queue (cancelled)', async () => {
    await queue.setPr(14, { title: 'Leaves the queue' });
    await queue.submit(14);
    await queue.cancel(14);
    const run = await runCli(['get-submitted-pull-request', '--pr-number', '14', '--json'], {
      env: laptop(),
    });
    const { outputs } = JSON.parse(run.stdout) as { outputs: Record<string, string> };
    expect(outputs).toMatchObject({ state: 'CANCELLED', 'is-submitted': false });
    const page = await runCli(['get-submitted-pull-request', '--pr-number', '14'], { env: laptop() });
    expect(page.stdout.split('\n')[0]).toBe('Cancelled in the merge queue: PR #14 → main of acme/present');
    // The reason is a sentence longer than a line: wrapped under itself, whole, never cut with an ellipsis.
    const why = page.stdout.slice(page.stdout.indexOf('  Why')).split(/\n {2}\S/)[0]!;
    expect(why.replace(/\s+/g, ' ').trim()).toBe(
      'Why PR #14 was cancelled: the service did not say by whom or why (API v1 does not tell; v2 names the person or the push).',
    );
    expect(why.split('\n').every((line) => line.length <= 120)).toBe(true);
    expect(page.stdout).not.toContain('…');
  });
});

describe('compute-impacted-targets', () => {
  it('names each target and the rule and files behind it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-present-targets-'));
    writeFileSync(
      join(dir, 'targets.yml'),
      [
        'version: 1',
        'rules:',
        '  - name: service',
        '    match: services/{name}/**',
        "    targets: ['svc:{name}']",
        '  - name: shared library',
        '    match: libs/{lib}/**',
        "    targets: ['lib:{lib}']",
      ].join('\n'),
    );
    writeFileSync(join(dir, 'changed.txt'), 'services/payments/handler.go\nlibs/money/round.go\n');
    const run = await runCli(
      [
        'compute-impacted-targets',
        '--targets-config',
        join(dir, 'targets.yml'),
        '--changed-files-file',
        join(dir, 'changed.txt'),
      ],
      { env: laptop(), cwd: dir },
    );
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('2 targets impacted by 2 changed files\n');
    expect(run.stdout).toMatch(/^ +lib:money +rule shared library +libs\/money\/round\.go$/m);
    expect(run.stdout).toMatch(/^ +svc:payments +rule service +services\/payments\/handler\.go$/m);
  });
});

describe('check-test-results', () => {
  it('names the failed tests with their verdict and where they are', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-present-junit-'));
    writeFileSync(
      join(dir, 'report.xml'),
      `<testsuites><testsuite name="checkout">
        <testcase name="charges the card once" classname="CheckoutService" file="src/charge.test.ts"><failure message="charged twice">charged twice</failure></testcase>
        <testcase name="renders the cart" classname="CheckoutService"/>
      </testsuite></testsuites>`,
    );
    const run = await runCli(
      ['check-test-results', '--org-url-slug', 'acme', '--junit-paths', 'report.xml', '--checkout-dir', dir],
      { env: laptop() },
    );
    expect(run.exitCode).toBe(1);
    expect(run.stdout.split('\n')[0]).toBe('1 of 1 failed test fails this step');
    expect(run.stdout).toMatch(/^ {2}Ran +2 test cases in 1 report$/m);
    expect(run.stdout).toMatch(
      /^ +CheckoutService › charges the card once +likely caused by this PR +src\/charge\.test\.ts$/m,
    );
  });
});

describe('the temp directory', () => {
  const listings = ['list-quarantined-tests', 'list-unhealthy-tests', 'list-failing-tests'];

  it.each(listings)('%s leaves nothing behind when no one can read its report file', async (operation) => {
    const temp = mkdtempSync(join(tmpdir(), 'cli-present-tmp-'));
    const run = await runCli([operation, '--org-url-slug', 'acme'], { env: laptop({ TMPDIR: temp }) });
    expect(run.exitCode).toBe(0);
    expect(run.stdout.split('\n')[0]).toMatch(/tests? (unhealthy|quarantined|failing) in acme\/present|No /);
    expect(readdirSync(temp)).toEqual([]);
  });

  it('keeps the report file when the outputs are written for later steps', async () => {
    const temp = mkdtempSync(join(tmpdir(), 'cli-present-tmp-'));
    const outputsFile = join(temp, 'outputs.json');
    const run = await runCli(
      ['list-unhealthy-tests', '--org-url-slug', 'acme', '--outputs-file', outputsFile],
      {
        env: laptop({ TMPDIR: temp }),
      },
    );
    expect(run.exitCode).toBe(0);
    const reportFile = (JSON.parse(readFileSync(outputsFile, 'utf8')) as Record<string, string>)[
      'report-file'
    ]!;
    expect(existsSync(reportFile)).toBe(true);
  });
});

describe("over v2: a PR's way through the queue", () => {
  const overV2 = () => laptop({ MERGE_QUEUE_API_TOKEN: emulator.v2Key, MERGE_QUEUE_API_VERSION: 'v2' });

  it('get-queue-entry-history: where the PR is now, then each step and why as a table, not JSON', async () => {
    const run = await runCli(['get-queue-entry-history', '--pr-number', '11'], { env: overV2() });
    expect(run.exitCode).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toMatch(/^Testing for \S+: PR #11 → main of acme\/present$/);
    expect(lines[1]).toBe('  3 steps: tested once.');
    const header = lines.find((line) => line.includes('WHY'))!;
    expect(header).toMatch(/^ {2}STATE +WHEN +FOR +WHY +RUN$/);
    const pending = lines.find((line) => line.startsWith('  pending '))!;
    expect(pending.indexOf('it became ready')).toBe(header.indexOf('WHY'));
    const testing = lines.find((line) => line.startsWith('  testing '))!;
    expect(testing).toMatch(/ [0-9a-f]{8}$/);
    expect(run.stdout).not.toContain('[{');
    expect(run.stdout).not.toContain('TESTS_PASSED');
  });

  it('get-queue-entry-history of a PR never queued says so in one line', async () => {
    // The service knows the PR (it was opened) but never queued it; a number it never saw is a 404.
    await queue.setPr(99, { title: 'Opened, never queued' });
    const run = await runCli(['get-queue-entry-history', '--pr-number', '99'], { env: overV2() });
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe('Never in the merge queue: PR #99 → main of acme/present\n');
  });

  it('list-verification-runs: the latest run in a sentence, then the runs with what they tested', async () => {
    const run = await runCli(['list-verification-runs', '--pr-number', '11'], { env: overV2() });
    expect(run.exitCode).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toMatch(/^The latest verification run of PR #11 is in progress \(started .+; 1 run\)$/);
    expect(lines.find((line) => line.includes('OUTCOME'))).toMatch(
      /^ {2}RUN +OUTCOME +STARTED +TIME +TESTED PRS$/,
    );
    expect(lines.find((line) => line.includes('in progress  '))).toMatch(
      /^ {2}[0-9a-f]{8} +in progress .+ #11$/,
    );
  });
});

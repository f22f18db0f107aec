// The emulator's command line and scenario files: what a user types to rehearse their queue.
import { describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator } from '../../emulator/server.js';
import type { Scenario } from '../../emulator/scenario.js';
import { request } from '../helpers/emulator.js';

const CLI = ['--import', 'tsx', 'emulator/cli.ts'];

function tempFile(name: string, content: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'mq-emulator-')), name);
  writeFileSync(path, content);
  return path;
}

/** Starts the CLI, waits for the lines it prints at start, and stops it. */
async function runCli(
  args: string[],
): Promise<{ stdout: string; stderr: string; code: number | null; signal: NodeJS.Signals | null }> {
  const child = spawn(process.execPath, [...CLI, ...args], {
    cwd: process.cwd(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (stdout.includes('Control surface:')) child.kill('SIGTERM');
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.on('close', (...ended) => resolve(ended)),
  );
  return { stdout, stderr, code, signal };
}

const scenario: Scenario = {
  ci: { outcome: 'pass', durationMinutes: 10 },
  queues: [{ repo: 'acme/app', targetBranch: 'main', mode: 'parallel', concurrency: 2 }],
  pullRequests: [
    {
      repo: 'acme/app',
      number: 101,
      title: 'Add login',
      headSha: 'a1b2c3d4',
      impactedTargets: ['//app:login'],
      submit: { targetBranch: 'main' },
    },
    {
      repo: 'acme/app',
      number: 102,
      headSha: 'e5f6a7b8',
      impactedTargets: ['//app:login'],
      ci: { outcome: 'fail', durationMinutes: 3 },
      submit: { targetBranch: 'main', atMinute: 30 },
    },
  ],
};

describe('emulator CLI', () => {
  it('prints its base URL ending in /v1 and the token', async () => {
    const { stdout, signal } = await runCli(['--port', '0', '--token', 'cli-token', '--seed', '3']);
    expect(stdout).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+\/v1\n/);
    expect(stdout).toContain('Token: cli-token');
    expect(stdout).toMatch(/Page: http:\/\/127\.0\.0\.1:\d+\/#token=cli-token\n/);
    expect(signal).toBe('SIGTERM');
  });

  it('prints the v2 base URL and each v2 key with its permissions', async () => {
    const { stdout } = await runCli([
      '--api-key',
      'ci-bot=mergeAndCancel,setPriority',
      '--api-key',
      'reader',
    ]);
    expect(stdout).toMatch(/v2 API: http:\/\/127\.0\.0\.1:\d+ \(paths start with \/v2/);
    expect(stdout).toMatch(
      /v2 key admin: trunk_v2_[0-9a-f]{40} \(permissions: mergeAndCancel,setPriority,skipBatching,directToQueue,updateSettings\)\n/,
    );
    expect(stdout).toMatch(
      /v2 key ci-bot: trunk_v2_[0-9a-f]{40} \(permissions: mergeAndCancel,setPriority\)\n/,
    );
    expect(stdout).toMatch(/v2 key reader: trunk_v2_[0-9a-f]{40} \(permissions: none \(reads only\)\)\n/);
  });

  it("prints the lines the page's sign-in card sends people to, where the card says they are", async () => {
    const { stdout } = await runCli(['--port', '0', '--token', 'card-token']);
    const lines = stdout.split('\n');
    const token = lines.findIndex((line) => line.startsWith('Token: '));
    const page = lines.findIndex((line) => line.startsWith('Page: '));
    expect([token >= 0, page > token]).toEqual([true, true]);
    const card = readFileSync('emulator/ui/index.html', 'utf8');
    const place = /<code>Page:<\/code> line just below it/.test(card) ? 'just below' : 'further down';
    expect(place).toBe(page === token + 1 ? 'just below' : 'further down');
  });

  it('refuses an --api-key with an unknown permission, naming the permissions', async () => {
    const { stderr, code } = await runCli(['--api-key', 'bot=merge']);
    expect(stderr.split('\n')[0]).toBe(
      'emulator: --api-key bot=merge: unknown permission merge; the permissions are mergeAndCancel, setPriority, skipBatching, directToQueue, updateSettings',
    );
    expect(code).toBe(2);
  });

  it('logs one line per state change of a PR or a test run, stamped from --start-time', async () => {
    const flags = ['--port', '0', '--token', 'log-token', '--start-time', '2025-01-06T09:00:00Z'];
    const child = spawn(process.execPath, [...CLI, ...flags], {
      cwd: process.cwd(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    // One listener collects; each wait only looks, so that no chunk is counted twice.
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const seen = (pattern: RegExp) =>
      new Promise<void>((resolve) => {
        const look = () => pattern.test(stdout) && resolve();
        child.stdout.on('data', look);
        look();
      });
    await seen(/listening on (\S+)\n/);
    const url = stdout.match(/listening on (\S+)\n/)![1]!;
    const post = (path: string, body: unknown) =>
      request(`${url}${path}`, 'POST', body, { 'x-api-token': 'log-token' });
    const ref = { repo: { host: 'github.com', owner: 'acme', name: 'logs' }, targetBranch: 'main' };
    await post('/createQueue', ref);
    await post('/submitPullRequest', { ...ref, pr: { number: 7 } });
    await seen(/#7 pending -> testing/);
    child.kill('SIGTERM');
    const lines = stdout.split('\n').filter((line) => line.includes('github.com/acme/logs@main'));
    expect(lines).toEqual([
      '2025-01-06T09:00:00.000Z github.com/acme/logs@main #7 submitted -> not_ready (API_REQUESTED)',
      '2025-01-06T09:00:00.000Z github.com/acme/logs@main #7 not_ready -> pending (MERGE_ITEM_NOW_READY)',
      expect.stringMatching(
        /^2025-01-06T09:00:00\.000Z github\.com\/acme\/logs@main main run \w{8} \[#7\] in_progress$/,
      ),
      '2025-01-06T09:00:00.000Z github.com/acme/logs@main #7 pending -> testing',
    ]);
  });

  it('creates the queues --queue names, so that a rehearsal can submit at once', async () => {
    const flags = ['--port', '0', '--token', 'q-token', '--queue', 'acme/app:main'];
    const child = spawn(
      process.execPath,
      [...CLI, ...flags, '--queue', 'gitlab.example.com/acme/api:trunk'],
      {
        cwd: process.cwd(),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    const started = new Promise<void>((resolve) =>
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes('Control surface:')) resolve();
      }),
    );
    await started;
    const url = /listening on (\S+)\n/.exec(stdout)![1]!;
    const getQueue = (repo: unknown, targetBranch: string) =>
      request<{ state: string }>(
        `${url}/getQueue`,
        'POST',
        { repo, targetBranch },
        { 'x-api-token': 'q-token' },
      );
    const app = await getQueue({ host: 'github.com', owner: 'acme', name: 'app' }, 'main');
    const api = await getQueue({ host: 'gitlab.example.com', owner: 'acme', name: 'api' }, 'trunk');
    child.kill('SIGTERM');
    expect([app.status, api.status]).toEqual([200, 200]);
    expect(stdout).toContain('Queue: github.com/acme/app, branch main\n');
    expect(stdout).toContain('Queue: gitlab.example.com/acme/api, branch trunk\n');
    expect(stdout).not.toContain('No queue yet');
  });

  it('says how to make a queue when it starts with none, and refuses a --queue it cannot read', async () => {
    expect((await runCli(['--port', '0'])).stdout).toContain(
      'No queue yet: start with --queue owner/name:branch, or run the create-queue operation.',
    );
    const { stderr, code } = await runCli(['--queue', 'main']);
    expect(stderr.split('\n')[0]).toBe(
      'emulator: --queue "main": expected [host/]owner/name:branch, e.g. your-org/your-repo:main',
    );
    expect(code).toBe(2);
  });

  it('explains each flag with --help', async () => {
    const { stdout, code } = await runCli(['--help']);
    expect(code).toBe(0);
    for (const flag of [
      'port',
      'host',
      'token',
      'seed',
      'time-scale',
      'start-time',
      'scenario',
      'flaky-fixture',
      'fault',
      'quiet',
    ])
      expect(stdout).toMatch(new RegExp(`^  --${flag}\\b.{4,}\\S{3,}`, 'm'));
  });

  it('refuses a bad flag with one line naming it', async () => {
    const { stderr, code } = await runCli(['--time-scale', 'fast']);
    expect(stderr.split('\n')[0]).toBe(
      'emulator: --time-scale "fast": expected a number above 0 and at most 100000 (virtual seconds per real second)',
    );
    expect(code).toBe(2);
  });

  it('refuses a start time that is not an ISO 8601 instant', async () => {
    const { stderr, code } = await runCli(['--start-time', 'yesterday']);
    expect(stderr.split('\n')[0]).toBe(
      'emulator: --start-time "yesterday": expected an ISO 8601 instant such as 2025-01-06T09:00:00Z',
    );
    expect(code).toBe(2);
  });

  it('refuses a scenario file with a mistake, naming the file and the place', async () => {
    const file = tempFile(
      'bad.json',
      JSON.stringify({ queues: [{ repo: 'acme/app', targetBranch: 'main', concurrency: 0 }] }),
    );
    const { stderr, code } = await runCli(['--scenario', file]);
    expect(stderr.trim()).toMatch(new RegExp(`^emulator: scenario ${file}: /queues/0/concurrency .*1`));
    expect(code).toBe(1);
  });
});

describe('scenario files', () => {
  it('load queues, pull requests, CI outcomes and timed submissions', async () => {
    const emulator = await startEmulator({ scenario: tempFile('day.json', JSON.stringify(scenario)) });
    try {
      const api = (path: string, body: unknown) =>
        request<Record<string, unknown>>(`${emulator.url}${path}`, 'POST', body, {
          'x-api-token': emulator.token,
        });
      const ref = { repo: { host: 'github.com', owner: 'acme', name: 'app' }, targetBranch: 'main' };
      expect((await api('/getQueue', ref)).json).toMatchObject({ mode: 'parallel', concurrency: 2 });
      expect((await api('/getSubmittedPullRequest', { ...ref, pr: { number: 101 } })).json).toMatchObject({
        state: 'testing',
        prTitle: 'Add login',
      });
      expect((await api('/getSubmittedPullRequest', { ...ref, pr: { number: 102 } })).status).toBe(404);
      emulator.engine.advance(30 * 60_000);
      expect((await api('/getSubmittedPullRequest', { ...ref, pr: { number: 101 } })).json).toMatchObject({
        state: 'merged',
      });
      expect((await api('/getSubmittedPullRequest', { ...ref, pr: { number: 102 } })).json).toMatchObject({
        state: 'testing',
      });
      emulator.engine.advance(3 * 60_000);
      expect((await api('/getSubmittedPullRequest', { ...ref, pr: { number: 102 } })).json).toMatchObject({
        state: 'failed',
      });
    } finally {
      await emulator.close();
    }
  });

  it('start the virtual clock at the real time, or where startTime says', async () => {
    const before = Date.now();
    const emulator = await startEmulator();
    const after = Date.now();
    const pinned = await startEmulator({ startTime: Date.UTC(2025, 0, 6, 9) });
    try {
      const read = async (origin: string, token: string) =>
        (
          await request<{ now: string }>(`${origin}/_emulator/clock`, 'GET', undefined, {
            'x-api-token': token,
          })
        ).json.now;
      const now = Date.parse(await read(emulator.origin, emulator.token));
      // Whole seconds: the start is the real time rounded down to its second.
      expect(now).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
      expect(now).toBeLessThanOrEqual(after);
      expect(await read(pinned.origin, pinned.token)).toBe('2025-01-06T09:00:00.000Z');
    } finally {
      await emulator.close();
      await pinned.close();
    }
  });

  it('with a time scale, lets virtual time follow real time', async () => {
    const emulator = await startEmulator({ timeScale: 600 });
    try {
      const start = emulator.clock.now();
      // No real-time bound is asserted: wait until a virtual minute has passed, however long that takes.
      while (emulator.clock.now() - start < 60_000) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(emulator.clock.now()).toBeGreaterThan(start);
    } finally {
      await emulator.close();
    }
  });

  it('give the same ids and history for the same seed and start time', async () => {
    const histories = [];
    for (let i = 0; i < 2; i++) {
      const emulator = await startEmulator({ seed: 42, scenario, startTime: Date.UTC(2025, 0, 6, 9) });
      emulator.engine.runUntilIdle(24 * 60 * 60_000);
      histories.push(JSON.stringify(emulator.engine.history));
      await emulator.close();
    }
    expect(histories[0]).toBe(histories[1]);
  });
});

// The control surface's numbers bounded by their schemas, the virtual clock by a horizon, fixtures by
// size, and SIGTERM that always ends the emulator: before, one request could make every later request
// answer 500, or hold the emulator for minutes, deaf to SIGTERM.
import { describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURE_LIMITS } from '../../emulator/flaky-tests/fixture.js';
import { QueueDriver, useEmulator } from '../helpers/emulator.js';

const emu = useEmulator();
const repo = { host: 'github.com', owner: 'bounds', name: 'flaky' };

const maxFixture = {
  repositories: [
    {
      repo,
      org_url_slug: 'bounds',
      generate: {
        flaky: FIXTURE_LIMITS.generatedPerStatus,
        broken: FIXTURE_LIMITS.generatedPerStatus,
        healthy: FIXTURE_LIMITS.tests - 2 * FIXTURE_LIMITS.generatedPerStatus,
      },
    },
  ],
};

describe('the virtual clock', () => {
  it('refuses a step past its schema (1e300 minutes) with 400, and every later request still answers', async () => {
    const queue = new QueueDriver(emu, 'bounds/clock');
    await queue.create();
    const huge = await emu.control('POST', '/clock/advance', { minutes: 1e300 });
    expect(huge.status).toBe(400);
    expect(huge.contentType).toMatch(/^text\/plain/);
    expect((await emu.control('GET', '/clock')).status).toBe(200);
    expect((await emu.api('/getQueue', { repo: queue.repo, targetBranch: 'main' })).status).toBe(200);
  });

  it('stops at its horizon with a 400 that says where, and keeps answering there', async () => {
    let last = await emu.control<{ now: string }>('POST', '/clock/advance', { minutes: 366 * 24 * 60 });
    while (last.status === 200) {
      last = await emu.control<{ now: string }>('POST', '/clock/advance', { minutes: 366 * 24 * 60 });
    }
    expect(last.status).toBe(400);
    expect(last.text).toMatch(/the virtual clock stops at 2100-01-01T00:00:00\.000Z/);
    const idle = await emu.control('POST', '/clock/run-until-idle', { maxMinutes: 366 * 24 * 60 });
    expect(idle.status).toBe(200);
    const clock = await emu.control<{ now: string }>('GET', '/clock');
    expect(clock.status).toBe(200);
    expect(Date.parse(clock.json.now)).toBeLessThanOrEqual(Date.UTC(2100, 0, 1));
    const queue = new QueueDriver(emu, 'bounds/late');
    await queue.create();
    await queue.submit(1);
    expect(await queue.state(1)).toBe('testing');
  });

  it('refuses CI durations and flaky counts past their schema', async () => {
    for (const body of [{ durationMinutes: 1e300 }, { durationSeconds: 1e12 }, { flakyFailures: 1e9 }]) {
      expect((await emu.control('POST', '/ci', body)).status).toBe(400);
    }
  });
});

describe('flaky-tests fixtures', () => {
  it('refuse counts past their limits, naming the limit', async () => {
    const tooMany = await emu.control('POST', '/flaky-tests', {
      repositories: [{ repo, generate: { flaky: FIXTURE_LIMITS.generatedPerStatus + 1, broken: 0 } }],
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.text).toMatch(/generate\/flaky/);
    const overTotal = await emu.control('POST', '/flaky-tests', {
      repositories: [
        maxFixture.repositories[0],
        { ...maxFixture.repositories[0], repo: { ...repo, name: 'b' } },
      ],
    });
    expect(overTotal.status).toBe(400);
    expect(overTotal.text).toMatch(new RegExp(`at most ${FIXTURE_LIMITS.tests}`));
  });

  it('take a fixture at every maximum, after which the API answers', async () => {
    const seeded = await emu.control('POST', '/flaky-tests', maxFixture);
    expect(seeded.status).toBe(200);
    const page = await emu.api<{ page: { total_rows: number } }>('/flaky-tests/list-unhealthy-tests', {
      repo,
      org_url_slug: 'bounds',
      status: 'FLAKY',
      page_query: { page_size: 100 },
    });
    expect(page.json.page.total_rows).toBe(FIXTURE_LIMITS.generatedPerStatus);
  });
});

describe('SIGTERM', () => {
  const fixtureFile = () => {
    const file = join(mkdtempSync(join(tmpdir(), 'mq-bounds-')), 'max.json');
    writeFileSync(file, JSON.stringify(maxFixture));
    return file;
  };

  it('ends the emulator within a second while it loads a fixture at every maximum', async () => {
    const child = startCli(['--flaky-fixture', fixtureFile()]);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await endsWithinASecond(child)).toBe('SIGTERM');
  });

  it('ends the emulator within a second while it seeds a fixture at every maximum', async () => {
    const child = startCli([]);
    const origin = await listening(child);
    const seeding = fetch(`${origin}/_emulator/flaky-tests`, {
      method: 'POST',
      headers: { 'x-api-token': 'emulator-token', 'content-type': 'application/json' },
      body: JSON.stringify(maxFixture),
    }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await endsWithinASecond(child)).toBe('SIGTERM');
    await seeding;
  });
});

function startCli(args: string[]): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'emulator/cli.ts', '--port', '0', '--quiet', ...args], {
    cwd: process.cwd(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function listening(child: ChildProcess): Promise<string> {
  return new Promise((resolve) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = out.match(/listening on (http:\/\/[^/\s]+)\/v1/);
      if (match) resolve(match[1]!);
    });
  });
}

/** Sends SIGTERM; the signal the process ended by, or 'still running' (then it is killed) after 1 s. */
async function endsWithinASecond(child: ChildProcess): Promise<string> {
  const ended = new Promise<string>((resolve) =>
    child.on('close', (code, signal) => resolve(signal ?? `exit ${code}`)),
  );
  child.kill('SIGTERM');
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<string>((resolve) => (timer = setTimeout(() => resolve('still running'), 1000)));
  const outcome = await Promise.race([ended, late]);
  clearTimeout(timer);
  if (outcome === 'still running') {
    child.kill('SIGKILL');
    await ended;
  }
  return outcome;
}

// Operations that cannot be taken back ask first when a person is at a terminal (the built CLI in a real
// pseudo-terminal, made by util-linux's `script`), --yes skips the question, and CI or a pipe never waits
// on one.
import { describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { CLI, laptopEnvironment, runCli } from '../helpers/cli-runner.js';
import { QueueDriver, useEmulator } from '../helpers/emulator.js';
import { describeWithTools } from '../helpers/tool-gate.js';

const emulator = useEmulator();

const script = { name: 'script', path: '/usr/bin/script', howToGet: 'apt-get install util-linux' };

/** The CLI at a terminal: `answer` is typed at its question; what the terminal shows, and the exit code. */
function atTerminal(args: string[], env: Record<string, string>, answer: string) {
  const command = [process.execPath, CLI, ...args].map((word) => `'${word}'`).join(' ');
  return new Promise<{ exitCode: number; shown: string }>((resolve) => {
    const child = execFile(
      script.path,
      ['-qec', command, '/dev/null'],
      { env: { PATH: process.env.PATH, TERM: 'dumb', NO_COLOR: '1', ...env }, timeout: 60_000 },
      (error, stdout) =>
        resolve({ exitCode: Number((error as { code?: number })?.code ?? 0), shown: stdout }),
    );
    child.stdin?.end(answer);
  });
}

describeWithTools([script], 'delete-queue at a terminal', () => {
  it('asks, and does nothing on no', async () => {
    const queue = new QueueDriver(emulator, 'acme/keep', 'main');
    await queue.create();
    const env = laptopEnvironment(emulator, 'acme/keep');
    const said = await atTerminal(['delete-queue'], env, 'n\n');
    expect(said.shown).toContain(
      'Delete the merge queue for branch main of acme/keep? This cannot be undone. [y/N]',
    );
    expect(said.shown).toContain('Nothing was done');
    expect(said.exitCode).toBe(1);
    expect((await queue.queue()).state).toBe('running');
  });

  it('goes ahead on yes, and says what it did', async () => {
    const queue = new QueueDriver(emulator, 'acme/gone', 'main');
    await queue.create();
    const said = await atTerminal(['delete-queue'], laptopEnvironment(emulator, 'acme/gone'), 'y\n');
    expect(said.exitCode).toBe(0);
    expect(said.shown).toContain('Merge queue deleted');
  });

  it('does not ask with --yes', async () => {
    const queue = new QueueDriver(emulator, 'acme/yes', 'main');
    await queue.create();
    const said = await atTerminal(['drain-queue', '--yes'], laptopEnvironment(emulator, 'acme/yes'), '');
    expect(said.shown).not.toContain('[y/N]');
    expect(said.exitCode).toBe(0);
    expect((await queue.queue()).state).toBe('draining');
  });

  it('never asks in CI, even at a terminal', async () => {
    const queue = new QueueDriver(emulator, 'acme/ci', 'main');
    await queue.create();
    const env = { ...laptopEnvironment(emulator, 'acme/ci'), CI: 'true' };
    const said = await atTerminal(['drain-queue'], env, '');
    expect(said.shown).not.toContain('[y/N]');
    expect((await queue.queue()).state).toBe('draining');
  });
});

describe('delete-queue through a pipe', () => {
  it('runs as asked, without a question', async () => {
    const queue = new QueueDriver(emulator, 'acme/piped', 'main');
    await queue.create();
    const run = await runCli(['drain-queue'], { env: laptopEnvironment(emulator, 'acme/piped') });
    expect(run.stderr).not.toContain('[y/N]');
    expect(run.exitCode).toBe(0);
    expect((await queue.queue()).state).toBe('draining');
  });
});

// `submit-pull-request --wait-for merged` whose wait runs out: the failure is titled for what happened
// (the wait for MERGED ran out, the state the PR was left in), never "submit-pull-request failed", and
// its line says what to do, naming the timeout as the host names it. The PR's CI hangs, so the wait
// always runs out (the emulator's clock does not move on its own here).
import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAction } from '../helpers/action-runner.js';
import { laptopEnvironment, runCli } from '../helpers/cli-runner.js';
import { QueueDriver, TEST_TOKEN, useEmulator } from '../helpers/emulator.js';

const emulator = useEmulator();
let made = 0;

/** A queue whose CI never ends for PR 17. */
async function hangingQueue(): Promise<string> {
  const repo = `octo-org/ran-out-${++made}`;
  const queue = new QueueDriver(emulator, repo, 'main');
  await queue.create();
  await queue.ci(17, { outcome: 'hang' });
  return repo;
}

const WAIT = ['--pr-number', '17', '--wait-for', 'merged', '--wait-timeout-minutes', '0.05'];
const TITLE = 'The wait for MERGED ran out: PR #17 is still TESTING';
/** As a workflow command carries it: a title's colon is escaped. */
const TITLE_IN_COMMAND = TITLE.replace(':', '%3A');

describe('a wait that runs out', () => {
  it('the action: the annotation is titled for the wait, the line names wait-timeout-minutes', async () => {
    const repo = await hangingQueue();
    const run = await runAction({
      env: { GITHUB_REPOSITORY: repo },
      inputs: {
        operation: 'submit-pull-request',
        'api-url': emulator.current.url,
        'api-token': TEST_TOKEN,
        'target-branch': 'main',
        'pr-number': '17',
        'wait-for': 'merged',
        'wait-timeout-minutes': '0.05',
        'poll-interval-seconds': '1',
      },
    });
    expect(run.failed).toBe(true);
    expect(run.log).toMatch(new RegExp(`^::error title=${TITLE_IN_COMMAND}::PR #17 is still TESTING`, 'm'));
    expect(run.log).not.toContain('title=submit-pull-request failed');
    expect(run.error).toMatch(/ Raise wait-timeout-minutes to wait longer\.$/);
  });

  it('the CLI on GitHub Actions: the same title, the line names --wait-timeout-minutes', async () => {
    const repo = await hangingQueue();
    const dir = mkdtempSync(join(tmpdir(), 'ran-out-'));
    writeFileSync(join(dir, 'summary.md'), '');
    const run = await runCli(['submit-pull-request', ...WAIT, '--poll-interval-seconds', '1'], {
      env: {
        GITHUB_ACTIONS: 'true',
        GITHUB_REPOSITORY: repo,
        GITHUB_STEP_SUMMARY: join(dir, 'summary.md'),
        MERGE_QUEUE_TARGET_BRANCH: 'main',
        MERGE_QUEUE_API_URL: emulator.current.url,
        MERGE_QUEUE_API_TOKEN: TEST_TOKEN,
      },
    });
    expect(run.exitCode).toBe(1);
    const error = /^::error title=([^:]*)::(.*)$/m.exec(run.stdout + run.stderr);
    expect(error?.[1]).toBe(TITLE_IN_COMMAND);
    expect(error?.[2]).toMatch(/ Raise --wait-timeout-minutes to wait longer\.$/);
  });

  it('the CLI in a terminal: the error line tells the wait ran out in the flag’s words', async () => {
    const repo = await hangingQueue();
    const run = await runCli(['submit-pull-request', ...WAIT, '--poll-interval-seconds', '1'], {
      env: laptopEnvironment(emulator, repo),
    });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(
      /PR #17 is still TESTING at position 1 of 1 after \d+s\. Raise --wait-timeout-minutes to wait longer\./,
    );
    expect(run.stderr).not.toMatch(/(?<!-)wait-timeout-minutes/);
  });
});

describe('the estimates of a wait', () => {
  it('are promised only when the queue has test times, and read as English', async () => {
    const repo = await hangingQueue();
    const queue = new QueueDriver(emulator, repo, 'main');
    const quiet = await runCli(['submit-pull-request', ...WAIT, '--poll-interval-seconds', '1', '--json'], {
      env: laptopEnvironment(emulator, repo),
    });
    // No PR was tested in the last hour: no estimate can be made, so none is promised.
    expect(quiet.stderr).toMatch(/^Waiting up to 3s for PR #17 to be MERGED; looking every 1s\.$/m);

    await queue.cancel(17);
    await queue.ci(16, { outcome: 'pass', durationMinutes: 0.5 });
    await queue.submit(16);
    await queue.advance(5);
    expect(await queue.state(16)).toBe('merged');
    await queue.ci(18, { outcome: 'hang' });
    const timed = await runCli(
      ['submit-pull-request', '--pr-number', '18', '--wait-for', 'merged', '--wait-timeout-minutes', '0.05'],
      { env: laptopEnvironment(emulator, repo) },
    );
    expect(timed.stderr).toMatch(/times left are estimates/);
    expect(timed.stderr).toMatch(/warning: PR #18 needs (under a minute|about \d+m) more at the queue's/);
    expect(timed.stderr).not.toContain('about under');
  });
});

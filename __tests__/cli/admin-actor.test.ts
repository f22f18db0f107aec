// A queue write says in one line what it did, to which queue or PR, and who ran it (the service records
// no actor and takes no reason for these writes: the CLI page and the summary carry both); a reason is
// one line of text from whoever wrote the pipeline, possibly from a PR comment, and is treated as such.
import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli-runner.js';
import { QueueDriver, TEST_TOKEN, useEmulator } from '../helpers/emulator.js';

const emulator = useEmulator();
let made = 0;

/** A fresh queue with PR 7 in it, and the variables of a laptop where alice is logged in. */
async function fresh(extra: Record<string, string> = {}) {
  const repo = `acme/actor-${++made}`;
  const queue = new QueueDriver(emulator, repo, 'main');
  await queue.create();
  await queue.submit(7);
  const env = {
    MERGE_QUEUE_API_URL: emulator.current.url,
    MERGE_QUEUE_API_TOKEN: TEST_TOKEN,
    MERGE_QUEUE_REPO: repo,
    MERGE_QUEUE_TARGET_BRANCH: 'main',
    USER: 'alice',
    ...extra,
  };
  return { repo, queue, env };
}

const firstLine = (text: string) => text.split('\n')[0];

describe('what a write did, and who did it', () => {
  it('pause-queue: who and why in the first line and the summary', async () => {
    const { repo, env } = await fresh();
    const summaryFile = join(mkdtempSync(join(tmpdir(), 'actor-')), 'summary.md');
    const run = await runCli(['pause-queue', '--reason', 'release freeze', '--summary-file', summaryFile], {
      env,
    });
    expect(run.exitCode).toBe(0);
    // Said once: the page's first line (what, who, where) and its Reason; the log does not repeat it.
    expect(firstLine(run.stdout)).toMatch(new RegExp(`^Merge queue paused by alice: main of ${repo}; `));
    expect(run.stdout).not.toMatch(/paused.*PAUSED/);
    expect(run.stdout).toMatch(/^ +Reason +release freeze$/m);
    expect(readFileSync(summaryFile, 'utf8')).toContain('By **alice**. Reason: release freeze');
    expect(run.stderr).not.toContain('Set state to paused');
  });

  it('cancel-pull-request: one line naming the PR, the queue and who', async () => {
    const { repo, env } = await fresh();
    const run = await runCli(['cancel-pull-request', '--pr-number', '7', '--reason', 'breaks the build'], {
      env,
    });
    expect(run.exitCode).toBe(0);
    expect(firstLine(run.stdout)).toBe(`Cancelled PR #7 in the merge queue for main of ${repo}, by alice`);
    expect(run.stdout).toMatch(/^ +Reason +breaks the build$/m);
    expect(run.stdout).not.toContain('cancel-pull-request: done');
  });

  it('drain-queue and delete-queue say what they did and who did it', async () => {
    const { repo, env, queue } = await fresh();
    const drain = await runCli(['drain-queue'], { env });
    expect(firstLine(drain.stdout)).toMatch(new RegExp(`^Merge queue draining by alice: main of ${repo}`));
    await queue.cancel(7);
    const removed = await runCli(['delete-queue'], { env });
    expect(removed.exitCode).toBe(0);
    expect(firstLine(removed.stdout)).toBe(`Merge queue deleted by alice: main of ${repo}`);
  });

  it("in CI, the person the CI names; never the runner's login", async () => {
    const named = await fresh({ CI: 'true', GITLAB_USER_LOGIN: 'bob', USER: 'root' });
    const pause = await runCli(['pause-queue', '--host', 'generic'], { env: named.env });
    expect(firstLine(pause.stdout)).toMatch(/^Merge queue paused by bob: /);
    const unnamed = await fresh({ CI: 'true', USER: 'root' });
    const other = await runCli(['pause-queue', '--host', 'generic'], { env: unnamed.env });
    expect(firstLine(other.stdout)).toMatch(/^Merge queue paused: /);
  });
});

describe('a reason is untrusted text', () => {
  it('more than one line is refused, naming the input, before anything is sent', async () => {
    const { env, queue } = await fresh();
    const run = await runCli(['pause-queue', '--reason', 'freeze\n::set-output name=x::y'], { env });
    expect(run.exitCode).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('--reason or MERGE_QUEUE_REASON');
    expect((await queue.queue()).state).toBe('running');
  });

  it('is escaped in the summary and never shows a secret', async () => {
    const { env } = await fresh();
    const summaryFile = join(mkdtempSync(join(tmpdir(), 'actor-')), 'summary.md');
    const reason = `<img src=x onerror=alert(1)> [click](https://evil.example) ${TEST_TOKEN}`;
    const run = await runCli(['pause-queue', '--reason', reason, '--summary-file', summaryFile], { env });
    expect(run.exitCode).toBe(0);
    const summary = readFileSync(summaryFile, 'utf8');
    expect(summary).not.toContain('<img');
    expect(summary).not.toMatch(/(?<!\\)\]\(https:\/\/evil/);
    expect(`${summary}${run.stdout}${run.stderr}`).not.toContain(TEST_TOKEN);
  });

  it('a CI variable that is not name-shaped is not shown as the actor', async () => {
    const { env } = await fresh({ CI: 'true', BUILDKITE_BUILD_CREATOR: '\u001b[2Jroot\nadmin' });
    const run = await runCli(['pause-queue', '--host', 'generic'], { env });
    expect(firstLine(run.stdout)).toMatch(/^Merge queue paused: /);
  });
});

// The advice after a 401, and for an empty token, says how the token reaches this run where the reader
// is: a CI job's secret, a laptop's exported variable, the MCP server's environment (what the agent's user
// sets up). The failure summary's "What to fix" says the same in the same reader's terms.
import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAction } from '../helpers/action-runner.js';
import { runCli } from '../helpers/cli-runner.js';
import { QueueDriver, TEST_TOKEN, useEmulator } from '../helpers/emulator.js';
import { serverEnvironment, startMcp } from '../helpers/mcp-client.js';

const emulator = useEmulator();
const REPO = 'acme/advice';

const wrongToken = (extra: Record<string, string> = {}) => ({
  MERGE_QUEUE_API_URL: emulator.current.url,
  MERGE_QUEUE_API_TOKEN: 'not-the-token',
  MERGE_QUEUE_REPO: REPO,
  MERGE_QUEUE_TARGET_BRANCH: 'main',
  ...extra,
});

describe('a 401', () => {
  it('on a laptop: export the variable in this shell, no CI job named', async () => {
    await new QueueDriver(emulator, REPO).create();
    const run = await runCli(['get-queue'], { env: wrongToken() });
    expect(run.exitCode).toBe(3);
    expect(run.stderr).toContain(
      'MERGE_QUEUE_API_TOKEN or TRUNK_API_TOKEN is exported in this shell (export MERGE_QUEUE_API_TOKEN=<token>)',
    );
    expect(run.stderr).not.toMatch(/this job/);
  });

  it('in a CI job: the secret passed to the job', async () => {
    const run = await runCli(['get-queue', '--host', 'generic'], { env: wrongToken({ CI: 'true' }) });
    expect(run.exitCode).toBe(3);
    expect(run.stderr).toContain('the secret is passed to this job');
  });

  it("through MCP: the server's environment in the agent's settings", async () => {
    const session = await startMcp([], serverEnvironment(emulator, REPO, { MERGE_QUEUE_API_TOKEN: 'wrong' }));
    try {
      const answer = (await session.client.callTool({ name: 'queue_status', arguments: {} })) as {
        content: { text: string }[];
      };
      const text = answer.content.map((part) => part.text).join('\n');
      expect(text).toContain('MERGE_QUEUE_API_TOKEN (or TRUNK_API_TOKEN) is set in the env of this server');
      expect(text).not.toMatch(/this job|exported in this shell/);
    } finally {
      await session.close();
    }
  });
});

const programLine = (stderr: string) =>
  stderr.split('\n').filter((line) => line.startsWith('merge-queue-action: '));

describe('an empty token', () => {
  it('on a laptop: one sentence, export it in this shell, nothing about jobs, forks or secrets', async () => {
    const run = await runCli(['get-queue'], { env: wrongToken({ MERGE_QUEUE_API_TOKEN: '' }) });
    expect(run.exitCode).toBe(2);
    expect(programLine(run.stderr)).toEqual([
      'merge-queue-action: The API token is empty: export MERGE_QUEUE_API_TOKEN=<token> in this shell, with your organization API token (Settings > Organization > API token).',
    ]);
    expect(run.stderr).not.toMatch(/job|fork|Dependabot|secret/);
  });

  it('in a CI job: the secret passed to the job, which a fork’s run lacks', async () => {
    const run = await runCli(['get-queue', '--host', 'generic'], {
      env: wrongToken({ CI: 'true', MERGE_QUEUE_API_TOKEN: '' }),
    });
    expect(run.exitCode).toBe(2);
    expect(programLine(run.stderr)).toEqual([
      'merge-queue-action: The API token is empty: set MERGE_QUEUE_API_TOKEN or TRUNK_API_TOKEN from a secret that holds your organization API token (Settings > Organization > API token); a job run for a fork or Dependabot PR gets empty secrets.',
    ]);
  });

  it('in the action: its input, from a secret', async () => {
    const run = await runAction({
      env: { GITHUB_REPOSITORY: REPO },
      inputs: { operation: 'get-queue', 'api-url': emulator.current.url, 'target-branch': 'main' },
    });
    expect(run.error).toBe(
      'The API token is empty: set the api-token input from a secret that holds your organization API token (Settings > Organization > API token); a job run for a fork or Dependabot PR gets empty secrets.',
    );
  });

  it("through MCP: the server's environment in the agent's settings, then a restart", async () => {
    const env = serverEnvironment(emulator, REPO, { MERGE_QUEUE_API_TOKEN: '' });
    const session = await startMcp([], env);
    try {
      const answer = (await session.client.callTool({ name: 'queue_status', arguments: {} })) as {
        content: { text: string }[];
      };
      expect(answer.content[0]?.text).toBe(
        'The API token is empty: set MERGE_QUEUE_API_TOKEN (or TRUNK_API_TOKEN) to your organization API token in the env of this server’s entry in the agent’s MCP settings, then restart the server.',
      );
    } finally {
      await session.close();
    }
  });
});

describe("the failure summary's What to fix", () => {
  const summaryOf = async (env: Record<string, string>, args: string[] = []) => {
    const file = join(mkdtempSync(join(tmpdir(), 'fix-words-')), 'summary.md');
    await runCli(['get-queue', '--summary-file', file, ...args], { env });
    const fix = readFileSync(file, 'utf8')
      .split('\n')
      .find((line) => line.startsWith('**What to fix:**'));
    return fix ?? '';
  };

  it('on a laptop names the variable in this shell and running the command again', async () => {
    expect(await summaryOf(wrongToken())).toBe(
      '**What to fix:** check that `MERGE_QUEUE_API_TOKEN` holds your organization API token (Settings › Organization › API token) and that MERGE_QUEUE_API_TOKEN or TRUNK_API_TOKEN is exported in this shell (export MERGE_QUEUE_API_TOKEN=<token>).',
    );
    const badInput = wrongToken({ MERGE_QUEUE_API_TOKEN: TEST_TOKEN, MERGE_QUEUE_TIMEOUT_SECONDS: 'soon' });
    expect(await summaryOf(badInput)).toBe(
      '**What to fix:** change `--timeout-seconds` as the message says, then run the command again.',
    );
  });

  it('in a CI job names the flags and re-running the job', async () => {
    const unreachable = wrongToken({ CI: 'true', MERGE_QUEUE_API_URL: 'http://127.0.0.1:1/v1' });
    expect(await summaryOf(unreachable, ['--host', 'generic', '--timeout-seconds', '1'])).toBe(
      "**What to fix:** check `--api-url` and the service's status, then re-run the job; raise `--timeout-seconds` to retry for longer.",
    );
  });
});

// The advice after a 401 says how the token reaches this run where the reader is: a CI job's secret, a
// laptop's exported variable, the MCP server's environment (what the agent's user sets up).
import { describe, expect, it } from '@jest/globals';
import { runCli } from '../helpers/cli-runner.js';
import { QueueDriver, useEmulator } from '../helpers/emulator.js';
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

// A warning told of a failure names the inputs as its host names them, as the failure line does: the
// action `api-url`, the CLI `--api-url`, the MCP server the option it was started with. Each host runs
// as users run it (the built CLI and MCP server in a child process), against the emulator answering a
// read with a redirect, whose advice names api-url.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { runAction } from '../helpers/action-runner.js';
import { laptopEnvironment, runCli } from '../helpers/cli-runner.js';
import { QueueDriver, TEST_TOKEN, useEmulator } from '../helpers/emulator.js';
import { serverEnvironment, startMcp, type McpSession } from '../helpers/mcp-client.js';

const emulator = useEmulator();
let made = 0;

/** A fresh queue on main, PR 7 in its line. */
async function freshQueue(): Promise<string> {
  const repo = `octo-org/words-${++made}`;
  const queue = new QueueDriver(emulator, repo, 'main');
  await queue.create();
  await queue.ci(7, { outcome: 'pass', durationMinutes: 500 });
  await queue.submit(7);
  return repo;
}

/** The read before update-queue's change passes; the read back after it is redirected elsewhere. */
function redirectReadBack(): void {
  emulator.current.faults.plan('/getQueue', [
    { kind: 'delay', ms: 0 },
    { kind: 'redirect', location: 'https://elsewhere.example/' },
  ]);
}

/** The warning line of a failed read back, in whatever words the host logged it. */
const READ_BACK = /The change was made, but reading the queue back failed: getQueue failed: [^\n]*/;

describe('a warning built from a failure', () => {
  it('the CLI names --api-url, never the action input', async () => {
    const repo = await freshQueue();
    redirectReadBack();
    const run = await runCli(['update-queue', '--concurrency', '4'], {
      env: laptopEnvironment(emulator, repo),
    });
    expect(run.exitCode).toBe(0);
    const warning = READ_BACK.exec(run.stderr)?.[0];
    expect(warning).toContain('the token stays with --api-url. Set --api-url to the address');
    expect(warning).not.toMatch(/(?<!-)api-url\b/);
  });

  it('the action names its api-url input', async () => {
    const repo = await freshQueue();
    redirectReadBack();
    const run = await runAction({
      inputs: {
        operation: 'update-queue',
        concurrency: '4',
        'api-url': emulator.current.url,
        'api-token': TEST_TOKEN,
        repo,
        'target-branch': 'main',
      },
    });
    expect(run.failed).toBe(false);
    expect(run.log).toMatch(/^::warning title=update-queue::The change was made, but reading/m);
    expect(READ_BACK.exec(run.log)?.[0]).toContain(
      'the token stays with api-url. Set api-url to the address',
    );
  });

  describe('the MCP server', () => {
    let server: McpSession;
    let repo: string;
    beforeAll(async () => {
      repo = await freshQueue();
      server = await startMcp([], serverEnvironment(emulator, repo));
    });
    afterAll(async () => {
      await server?.close();
    });

    it('names the option it was started with', async () => {
      emulator.current.faults.plan('/getQueue', [
        { kind: 'redirect', location: 'https://elsewhere.example/' },
      ]);
      const result = await server.client.callTool({ name: 'pr_status', arguments: { prNumber: 7 } });
      expect(result.isError).toBeFalsy();
      const warning = /The queue's line could not be read \([^\n]*/.exec(server.stderr())?.[0];
      expect(warning).toContain('the token stays with the server’s --api-url.');
      expect(warning).not.toMatch(/(?<!-)api-url\b/);
    });
  });
});

describe("an operation's own failure line in the CLI", () => {
  it('names --fail-on and --max-unhealthy, and counts in words', async () => {
    const repo = await freshQueue();
    await new QueueDriver(emulator, repo, 'main').flakyTests('octo-org', [
      { name: 'Cart > totals', status: 'broken', file_path: 'src/cart.test.ts' },
    ]);
    const run = await runCli(
      ['list-unhealthy-tests', '--org-url-slug', 'octo-org', '--fail-on', 'broken', '--max-unhealthy', '0'],
      { env: laptopEnvironment(emulator, repo) },
    );
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('--fail-on broken: 1 broken test, more than --max-unhealthy (0).');
  });

  it('says how many attempts it made, without "(s)"', async () => {
    const run = await runCli(['get-queue', '--timeout-seconds', '2'], {
      env: { ...laptopEnvironment(emulator, 'octo-org/none'), MERGE_QUEUE_API_URL: 'http://127.0.0.1:9' },
    });
    expect(run.exitCode).toBe(4);
    expect(run.stderr).toMatch(/Gave up after \d+ attempts?\. Check --api-url /);
    expect(run.stderr).not.toContain('(s)');
  });
});

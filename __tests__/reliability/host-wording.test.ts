// Errors are data, and each host words them (issue 42 item 3): the same failure (a bad input, a 404, a
// broken answer) read in the action names its input `Input "x"` and the action's input names, on the
// command line `--x or MERGE_QUEUE_X`, through the MCP server the tool's argument. Every line is asserted
// whole. A broken answer's hostile text (issue 41) never sits inside our own words: the action and the
// CLI show it apart, labelled and escaped; the MCP server hands it over only as `serviceSaid`.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../src/cli/main.js';
import { EXIT_CODES } from '../../src/core/failure.js';
import { runAction } from '../helpers/action-runner.js';
import { QueueDriver, TEST_TOKEN, useEmulator } from '../helpers/emulator.js';
import { serverEnvironment } from '../helpers/mcp-client.js';
import { RawMcp, type RpcMessage } from '../helpers/raw-mcp.js';
import { startTamperingProxy, type TamperingProxy } from '../helpers/tampering-proxy.js';

const REPO = 'octo-org/wording';
/** Terminal controls, a line break and a key-looking string, in a field that holds a number. */
const HOSTILE = `3\u001b]0;owned\u0007\nIGNORE trunk_v2_${'k'.repeat(40)} ${TEST_TOKEN}`;
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/;

const emulator = useEmulator();
let proxy: TamperingProxy;
const sessions: RawMcp[] = [];

beforeAll(async () => {
  await new QueueDriver(emulator, REPO, 'main').create({ concurrency: 1 });
  proxy = await startTamperingProxy(emulator.current.origin);
});

afterAll(async () => {
  await Promise.all(sessions.map((session) => session.close()));
  await proxy.close();
});

async function action(inputs: Record<string, string>, apiUrl = emulator.current.url) {
  const run = await runAction({
    inputs: { 'api-url': apiUrl, 'api-token': TEST_TOKEN, repo: REPO, ...inputs },
  });
  return { failed: run.failed, line: run.error };
}

async function cli(argv: string[], apiUrl = emulator.current.url) {
  let stderr = '';
  const exitCode = await runCli({
    argv,
    env: {
      MERGE_QUEUE_API_URL: apiUrl,
      MERGE_QUEUE_API_TOKEN: TEST_TOKEN,
      MERGE_QUEUE_REPO: REPO,
      MERGE_QUEUE_TARGET_BRANCH: 'main',
    },
    cwd: mkdtempSync(join(tmpdir(), 'host-wording-')),
    stdout: { write: () => true },
    stderr: { write: (chunk: string) => ((stderr += chunk), true) },
  });
  const lines = stderr.split('\n').filter((line) => line.startsWith('merge-queue-action: '));
  return { exitCode, line: lines.at(-1) ?? '' };
}

/** One tool call on a server started as an agent host starts it; its text and structured failure. */
async function tool(name: string, args: Record<string, unknown>, apiUrl = emulator.current.url) {
  const env = { ...serverEnvironment(emulator, REPO), MERGE_QUEUE_API_URL: apiUrl };
  const session = new RawMcp([], env);
  sessions.push(session);
  await session.open();
  const answer: RpcMessage = await session.answer(await session.callTool(name, args));
  const content = (answer.result?.content ?? []) as { text: string }[];
  const failure = answer.result?.structuredContent as { error?: string; serviceSaid?: string } | undefined;
  return {
    isError: answer.result?.isError === true,
    line: content[0]?.text ?? '',
    serviceSaid: failure?.serviceSaid,
    wrote: session.lines,
  };
}

describe('a bad input, in each host’s terms', () => {
  it('the action names its input', async () => {
    expect(await action({ operation: 'get-test-details', 'org-url-slug': 'acme' })).toEqual({
      failed: true,
      line: "get-test-details needs the test's id: set the test-id input.",
    });
  });

  it('the CLI names the flag and the variable, in the line and in its advice', async () => {
    expect(await cli(['get-test-details', '--org-url-slug', 'acme'])).toEqual({
      exitCode: EXIT_CODES.badInput,
      line: "merge-queue-action: get-test-details needs the test's id: give --test-id or MERGE_QUEUE_TEST_ID.",
    });
  });

  it('the MCP server names the tool’s argument', async () => {
    const called = await tool('queue_status', { targetBranch: 'main\nrelease' });
    expect({ isError: called.isError, line: called.line }).toEqual({
      isError: true,
      line: 'Argument targetBranch: "main\\nrelease" contains a line break, and must be one line. Give the value alone on one line (check the expression or the YAML block that produces it).',
    });
  });
});

describe('a 404, in each host’s terms', () => {
  const noQueue = (check: string) =>
    `No merge queue exists for branch release of github.com/${REPO} (getQueue answered 404). Create one with operation create-queue, or check ${check}.`;

  it('the action names its inputs', async () => {
    const { failed, line } = await action({ operation: 'get-queue', 'target-branch': 'release' });
    expect({ failed, line }).toEqual({
      failed: true,
      line: `${noQueue('target-branch, repo and repo-host')} (the service said: ${JSON.stringify(saidOf(line))})`,
    });
  });

  it('the CLI names its flags, and exits 3 as every operation does for a 404', async () => {
    const { exitCode, line } = await cli(['get-queue', '--target-branch', 'release']);
    expect({ exitCode, line }).toEqual({
      exitCode: EXIT_CODES.refused,
      line: `merge-queue-action: ${noQueue('--target-branch, --repo and --repo-host')} (the service said: ${JSON.stringify(saidOf(line))})`,
    });
  });

  it('the MCP server names the arguments the call gave, and the server’s options it did not', async () => {
    proxy.on('POST', /\/list-unhealthy-tests$/, () => ({
      status: 404,
      headers: { 'content-type': 'text/plain' },
      json: undefined,
      text: 'Not Found',
    }));
    const called = await tool('flaky_tests', { orgUrlSlug: 'nobody' }, `${proxy.origin}/v1`).finally(() =>
      proxy.reset(),
    );
    expect({ isError: called.isError, line: called.line }).toEqual({
      isError: true,
      line: "listUnhealthyTests failed: the API answered 404. Check orgUrlSlug, the server’s --repo and the server’s --repo-host: the service knows no such repository in that organization. (the service's text is in serviceSaid)",
    });
    expect(called.serviceSaid).toBe('Not Found');
  });
});

/** What the service said, as the line labels it at its end. */
function saidOf(line: string): string {
  const quoted = /\(the service said: ("(?:[^"\\]|\\.)*")\)$/.exec(line)?.[1];
  return quoted ? (JSON.parse(quoted) as string) : '';
}

describe('a broken answer with hostile text in a wrong-typed field', () => {
  const broken = (check: string) =>
    `getQueue failed: the API answered 200 with a body that is not its answer ("concurrency" is text, not a number), so nothing was taken from it. Check ${check} (it should be the API base); if it is right, report this message: the service's answer changed.`;

  beforeAll(() => {
    proxy.on('POST', /\/getQueue$/, (answer) => {
      const json = { ...(answer.json as Record<string, unknown>), concurrency: HOSTILE };
      return { ...answer, json, text: JSON.stringify(json) };
    });
  });
  afterAll(() => proxy.reset());

  /** The text as it is shown apart: on one line, escaped, the run's token and anything like a key hidden. */
  const shown = JSON.stringify(
    HOSTILE.replace('\n', ' ')
      .replace(/trunk_v2_k+/, '***')
      .replace(TEST_TOKEN, '***'),
  );

  it('the action shows it apart from its own words, escaped, with no secret', async () => {
    const { failed, line } = await action(
      { operation: 'get-queue', 'target-branch': 'main' },
      `${proxy.origin}/v1`,
    );
    expect({ failed, line }).toEqual({
      failed: true,
      line: `${broken('api-url')} (the service said: ${shown})`,
    });
  });

  it('the CLI too, and exits 4 as for any answer that is not the service’s', async () => {
    const { exitCode, line } = await cli(['get-queue'], `${proxy.origin}/v1`);
    expect({ exitCode, line }).toEqual({
      exitCode: EXIT_CODES.unreachable,
      line: `merge-queue-action: ${broken('--api-url')} (the service said: ${shown})`,
    });
    expect(line).not.toMatch(CONTROLS);
  });

  it('the MCP server’s line holds none of it; serviceSaid carries it as capped, control-free data', async () => {
    const called = await tool('queue_status', {}, `${proxy.origin}/v1`);
    expect({ isError: called.isError, line: called.line }).toEqual({
      isError: true,
      line: `${broken('the server’s --api-url')} (the service's text is in serviceSaid)`,
    });
    expect(called.serviceSaid).toBe(`3]0;owned IGNORE *** ***`);
    for (const line of called.wrote) expect(line).not.toMatch(CONTROLS);
    expect(called.wrote.join('\n')).not.toContain(TEST_TOKEN);
  });
});

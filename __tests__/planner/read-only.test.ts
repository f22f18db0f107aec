// Read-only everywhere: export-queue-history and plan-queue-settings from the built CLI, the built action
// and the MCP server's plan_queue_settings, over v2 and over v1, each pass a proxy that records every
// request on its way to the emulator. A plan that has a patch to recommend prints it; none of these ever
// sends a request that changes anything: v2 reads are GETs, and v1's reads are the few POST routes that
// only read.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Scenario } from '../../emulator/scenario.js';
import { EXIT_CODES } from '../../src/core/failure.js';
import { runBuiltAction } from '../helpers/action-runner.js';
import { runCli } from '../helpers/cli-runner.js';
import { TEST_TOKEN, useEmulator } from '../helpers/emulator.js';
import { plannedPullRequests } from '../helpers/planner-history.js';
import { RawMcp } from '../helpers/raw-mcp.js';
import { startCheckingProxy, type CheckingProxy } from '../helpers/v2-requests.js';

const REPO = 'acme/plan-read-only';
const PRS = 330;
const GAP_MINUTES = 10;
// The plans read the last days before now: the emulator's history ends more than a day before the real
// clock.
const START = Math.floor((Date.now() - 6 * 86_400_000) / 60_000) * 60_000;
const SLOW_MS = 180_000;

/** v1's routes that only read (every v1 request is a POST but the metrics and status). */
const V1_READS = new Set([
  'POST /v1/getQueue',
  'POST /v1/listPullRequests',
  'POST /v1/getSubmittedPullRequest',
  'POST /v1/getMergeQueueTestingDetails',
  'GET /v1/getMergeQueueMetrics',
  'GET /v1/status',
]);
const isRead = (request: string) => request.startsWith('GET /v2/') || V1_READS.has(request);

function scenario(): Scenario {
  const pullRequests = plannedPullRequests(REPO, PRS, (i) => i * GAP_MINUTES);
  return { queues: [{ repo: REPO, targetBranch: 'main', concurrency: 3 }], pullRequests };
}

const emulator = useEmulator({ startTime: START, scenario: scenario() });
let proxy: CheckingProxy;
const dir = mkdtempSync(join(tmpdir(), 'plan-read-only-'));
const history = join(dir, 'queue-history.jsonl.gz');
const sessions: RawMcp[] = [];

beforeAll(async () => {
  proxy = await startCheckingProxy(emulator.current.origin);
  await emulator.control('POST', '/clock/advance', { minutes: PRS * GAP_MINUTES + 1800 });
});

afterAll(async () => {
  await Promise.all(sessions.map((session) => session.close()));
  await proxy.close();
});

type Version = 'v1' | 'v2';
const tokenOf = (version: Version) => (version === 'v2' ? emulator.current.v2Key : TEST_TOKEN);

/** The requests `flow` sent through the proxy, as `METHOD /path`. */
async function requestsOf<T>(flow: () => Promise<T>): Promise<{ result: T; requests: string[] }> {
  const before = proxy.all.length;
  const result = await flow();
  return { result, requests: proxy.all.slice(before) };
}

const cli = (version: Version, args: string[]) =>
  runCli(args, {
    cwd: dir,
    env: {
      TMPDIR: dir,
      MERGE_QUEUE_API_URL: `${proxy.origin}/v1`,
      MERGE_QUEUE_API_TOKEN: tokenOf(version),
      MERGE_QUEUE_API_VERSION: version,
      MERGE_QUEUE_REPO: REPO,
      MERGE_QUEUE_TARGET_BRANCH: 'main',
    },
  });

const action = (version: Version, inputs: Record<string, string>) =>
  runBuiltAction({
    env: { GITHUB_REPOSITORY: REPO, RUNNER_TEMP: dir },
    inputs: {
      'api-url': `${proxy.origin}/v1`,
      'api-token': tokenOf(version),
      'api-version': version,
      'target-branch': 'main',
      ...inputs,
    },
  });

async function mcpPlan(version: Version, args: Record<string, unknown>) {
  const session = new RawMcp([], {
    PATH: process.env.PATH ?? '',
    TMPDIR: dir,
    MERGE_QUEUE_API_URL: `${proxy.origin}/v1`,
    MERGE_QUEUE_API_TOKEN: tokenOf(version),
    MERGE_QUEUE_API_VERSION: version,
    MERGE_QUEUE_REPO: REPO,
    MERGE_QUEUE_TARGET_BRANCH: 'main',
  });
  sessions.push(session);
  await session.open();
  return session.answer(await session.callTool('plan_queue_settings', args));
}

describe('read-only everywhere: nothing but reads reaches the service', () => {
  it(
    'over v2, the CLI exports (a second night adds nothing), then plans from the file without a request',
    async () => {
      const exported = await requestsOf(() => cli('v2', ['export-queue-history', '--history', history]));
      expect(exported.result.stderr).toMatch(/histories of 330 of 330 PRs read/);
      expect(exported.result.exitCode).toBe(EXIT_CODES.done);
      expect(exported.requests.length).toBeGreaterThan(10);
      expect(exported.requests.filter((r) => !isRead(r))).toEqual([]);
      // The next night's export overlaps it: no entry, run or settings snapshot again.
      const again = await cli('v2', ['export-queue-history', '--history', history, '--json']);
      expect(JSON.parse(again.stdout).outputs).toMatchObject({ added: 0, prs: 330 });

      const planned = await requestsOf(() =>
        cli('v2', ['plan-queue-settings', '--history', history, '--seeds', '1', '--json']),
      );
      expect(planned.result.exitCode).toBe(EXIT_CODES.done);
      expect(planned.requests).toEqual([]);
    },
    SLOW_MS,
  );

  it(
    'over v2, the CLI plans straight from the API, and prints the patch it recommends',
    async () => {
      // One PR every 10 minutes of 20-40 minute CI, three at a time: one more at a time is recommended,
      // and the patch that would set it is printed, not sent.
      const planned = await requestsOf(() =>
        cli('v2', [
          'plan-queue-settings',
          '--days',
          '7',
          '--vary',
          'concurrency=4',
          '--seeds',
          '1',
          '--json',
        ]),
      );
      expect(planned.result.exitCode).toBe(EXIT_CODES.done);
      const report = JSON.parse(planned.result.stdout).response;
      expect(report.recommendation?.patch).toMatchObject({ concurrency: 4 });
      expect(planned.requests.some((r) => r.startsWith('GET /v2/merge-queues/'))).toBe(true);
      expect(planned.requests.filter((r) => !isRead(r))).toEqual([]);
    },
    SLOW_MS,
  );

  it(
    'over v2, the built action plans from the API',
    async () => {
      const planned = await requestsOf(() =>
        action('v2', {
          operation: 'plan-queue-settings',
          days: '7',
          vary: 'concurrency=4',
          seeds: '1',
        }),
      );
      expect(planned.result.error).toBe('');
      expect(JSON.parse(planned.result.outputs.recommendation!)).toMatchObject({ concurrency: 4 });
      expect(planned.requests.length).toBeGreaterThan(10);
      expect(planned.requests.filter((r) => !isRead(r))).toEqual([]);
    },
    SLOW_MS,
  );

  it(
    'over v2, the MCP tool plans a what-if',
    async () => {
      const planned = await requestsOf(() => mcpPlan('v2', { days: 7, whatIf: { concurrency: 6 } }));
      const answer = planned.result.result as {
        isError?: boolean;
        structuredContent?: { fit: boolean; candidates: { settings: { concurrency: number } }[] };
      };
      expect(answer.isError).toBeUndefined();
      expect(answer.structuredContent?.fit).toBe(true);
      expect(answer.structuredContent?.candidates.map((c) => c.settings.concurrency)).toEqual([3, 6]);
      expect(planned.requests.length).toBeGreaterThan(10);
      expect(planned.requests.filter((r) => !isRead(r))).toEqual([]);
    },
    SLOW_MS,
  );

  it(
    'over v1, the export stops saying v2 is needed, the plan from the API too, and neither writes',
    async () => {
      const exported = await requestsOf(() =>
        cli('v1', ['export-queue-history', '--history', join(dir, 'v1.jsonl')]),
      );
      expect(exported.result.exitCode).not.toBe(EXIT_CODES.done);
      expect(exported.result.stderr.trim().split('\n').at(-1)).toMatch(/v2/);
      const planned = await requestsOf(() => cli('v1', ['plan-queue-settings', '--days', '7']));
      expect(planned.result.exitCode).not.toBe(EXIT_CODES.done);
      expect(planned.result.stderr.trim().split('\n').at(-1)).toMatch(/v2/);
      expect([...exported.requests, ...planned.requests].filter((r) => !isRead(r))).toEqual([]);
    },
    SLOW_MS,
  );

  it(
    'over v1, the built action plans from the history file and the MCP tool refuses, reading at most',
    async () => {
      const planned = await requestsOf(() =>
        action('v1', { operation: 'plan-queue-settings', history, vary: 'concurrency=4', seeds: '1' }),
      );
      expect(planned.result.error).toBe('');
      expect(JSON.parse(planned.result.outputs.recommendation!)).toMatchObject({ concurrency: 4 });
      const mcp = await requestsOf(() => mcpPlan('v1', { days: 7, whatIf: { concurrency: 4 } }));
      const answer = mcp.result.result as { isError?: boolean; content?: { text: string }[] };
      expect(answer.isError).toBe(true);
      expect(answer.content?.[0]?.text).toMatch(/v2/);
      expect([...planned.requests, ...mcp.requests].filter((r) => !isRead(r))).toEqual([]);
    },
    SLOW_MS,
  );

  it('every v2 request was one the v2 document allows', () => {
    expect(proxy.seen.length).toBeGreaterThan(30);
    expect(proxy.problems).toEqual([]);
  });
});

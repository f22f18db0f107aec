// The same failure exits the same code from every operation (issue 42): a service that knows nothing
// asked of it (404 to every request) is "the service refused" (exit 3), whichever operation met it and
// whatever words the operation gives it, over v1 and v2. The operations are the registry's: a new one is
// in this test without an edit. The CLI runs in-process as a person runs it.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../src/cli/main.js';
import { EXIT_CODES } from '../../src/core/failure.js';
import { OPERATIONS, OPERATION_NAMES, type OperationName } from '../../src/core/operations/registry.js';

const V2_KEY = `trunk_v2_${'a'.repeat(40)}`;

/** Operations that send nothing to the service: their failures are their own inputs' and files'. */
const SENDS_NOTHING = new Set(OPERATION_NAMES.filter((name) => OPERATIONS[name].api === 'none'));
/** Where a 404 is the answer itself: the PR was never submitted to this queue (exit 0, is-submitted false). */
const NOT_FOUND_IS_AN_ANSWER = new Set<OperationName>(['get-submitted-pull-request']);
/**
 * Over v2, delete-queue looks the queue up first, and a 404 there is "no such queue": deleting a missing
 * queue is a no-op, as v1's deleteQueue answers it (200).
 */
const NOT_FOUND_IS_AN_ANSWER_OVER_V2 = new Set<OperationName>(['delete-queue']);

/** A value for each input an operation requires, so that it gets as far as asking the service. */
const GIVEN: Record<string, string> = {
  'test-id': '00000000-0000-4000-8000-000000000001',
  'test-case-id': '00000000-0000-4000-8000-000000000002',
  'external-ticket-id': 'KAN-1',
  'test-run-id': 'run-1',
  'impacted-targets': 'api,web',
  concurrency: '2',
  priority: 'high',
};

let server: Server;
let origin = '';
let dir = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'same-exit-'));
  writeFileSync(
    join(dir, 'junit.xml'),
    '<testsuite name="s" tests="1" failures="1"><testcase name="t"><failure message="no"/></testcase></testsuite>',
  );
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      if (request.url?.startsWith('/v2/')) {
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { code: 'NOT_FOUND', message: 'Not Found' } }));
      } else response.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

function argvOf(operation: OperationName): string[] {
  const reads = new Set(OPERATIONS[operation].inputs.map((spec) => spec.name));
  const argv: string[] = [operation];
  for (const [name, value] of Object.entries(GIVEN)) if (reads.has(name)) argv.push(`--${name}`, value);
  if (reads.has('junit-paths')) argv.push('--junit-paths', 'junit.xml');
  if (operation === 'export-queue-history') argv.push('--history', join(dir, `history-${Date.now()}.jsonl`));
  return argv;
}

async function exitOf(operation: OperationName, version: 'v1' | 'v2') {
  let stderr = '';
  const exitCode = await runCli({
    argv: argvOf(operation),
    env: {
      MERGE_QUEUE_API_URL: `${origin}/v1`,
      MERGE_QUEUE_API_TOKEN: version === 'v2' ? V2_KEY : 'tok_same_exit',
      MERGE_QUEUE_API_VERSION: version,
      MERGE_QUEUE_REPO: 'octo-org/same-exit',
      MERGE_QUEUE_TARGET_BRANCH: 'main',
      MERGE_QUEUE_PR_NUMBER: '17',
      MERGE_QUEUE_PR_SHA: 'a'.repeat(40),
      MERGE_QUEUE_ORG_URL_SLUG: 'acme',
      MERGE_QUEUE_TIMEOUT_SECONDS: '5',
    },
    cwd: dir,
    stdout: { write: () => true },
    stderr: { write: (chunk: string) => ((stderr += chunk), true) },
  });
  const line = stderr.trim().split('\n').at(-1) ?? '';
  return { exitCode, line };
}

/** How an operation only v2 serves refuses to run over v1. */
const NEEDS_V2 = /needs the v2 API/;

describe('a 404 exits the same code from every operation', () => {
  const asking = OPERATION_NAMES.filter(
    (name) => !SENDS_NOTHING.has(name) && !NOT_FOUND_IS_AN_ANSWER.has(name),
  );

  it.each(
    asking.flatMap((operation) => (['v1', 'v2'] as const).map((version) => [operation, version] as const)),
  )('%s over %s: exit 3, one line naming what the service does not know', async (operation, version) => {
    const { exitCode, line } = await exitOf(operation, version);
    if (version === 'v2' && NOT_FOUND_IS_AN_ANSWER_OVER_V2.has(operation)) {
      expect(exitCode).toBe(EXIT_CODES.done);
      return;
    }
    if (version === 'v1' && OPERATIONS[operation].api === 'v2') {
      // An operation only v2 serves (its registry row says so) stops over v1 before any request: a bad input.
      expect({ exitCode, line }).toEqual({
        exitCode: EXIT_CODES.badInput,
        line: expect.stringMatching(NEEDS_V2),
      });
      return;
    }
    expect({ exitCode, line }).toEqual({ exitCode: EXIT_CODES.refused, line: expect.stringMatching(/404/) });
  });

  it('a 404 from the PR lookup is the answer "never submitted", not a failure', async () => {
    for (const version of ['v1', 'v2'] as const) {
      expect((await exitOf('get-submitted-pull-request', version)).exitCode).toBe(EXIT_CODES.done);
    }
  });
});

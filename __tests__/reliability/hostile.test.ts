// A hostile world, end to end through the action (issue 18): answers that never end or are too big,
// answers that are not the API's, text that tries to write workflow commands or hide itself, secrets cut
// in half, files that are not files, a temp directory that is not there. Each check is one thing a user
// would see go wrong; each is recorded for RELIABILITY.md ("What was tried and what held").
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
  mkdirSync,
} from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type Emulator } from '../../emulator/server.js';
import { runAction, type ActionRun } from '../helpers/action-runner.js';
import { secretLeaks } from '../helpers/leaks.js';
import { writeRecord, type CheckRow } from '../helpers/reliability-record.js';
import { example } from '../helpers/webhook-examples.js';

const TOKEN = 'tok_hostile_Xv7qL2mN9pR4sT6wY8zB3cD5fG1hJ0kQ';
const BRANCH = 'main';
const MIB = 1024 * 1024;

let emulator: Emulator;
let raw: Server;
let rawUrl: string;
/** What the raw server does with the next request: it writes whatever the check needs. */
let rawHandler: (response: ServerResponse) => void = (response) => response.end('{}');
const rawClosed: boolean[] = [];
let dir: string;
const checks: CheckRow[] = [];
const children: ChildProcess[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ token: TOKEN });
  raw = createServer((request, response) => {
    request.resume();
    response.on('close', () => rawClosed.push(!response.writableFinished));
    rawHandler(response);
  });
  await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
  rawUrl = `http://127.0.0.1:${(raw.address() as AddressInfo).port}/v1`;
  dir = mkdtempSync(join(tmpdir(), 'mqa-hostile-'));
});

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  raw.closeAllConnections();
  await new Promise((resolve) => raw.close(resolve));
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
  writeRecord('hostile', checks);
});

/** Runs an `it` and records it for RELIABILITY.md under the item. */
function check(item: string, name: string, body: () => Promise<void>, timeoutMs?: number): void {
  it(
    `${item}: ${name}`,
    async () => {
      try {
        await body();
        checks.push({ area: item, check: name, passed: true });
      } catch (error) {
        checks.push({
          area: item,
          check: name,
          passed: false,
          detail: (error as Error).message.split('\n')[0],
        });
        throw error;
      }
    },
    timeoutMs,
  );
}

let repoCounter = 0;
async function freshQueue(): Promise<string> {
  const slug = `hostile/repo-${++repoCounter}`;
  await control('POST', '/queues', { repo: slug, targetBranch: BRANCH });
  return slug;
}

async function control(method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${emulator.origin}/_emulator${path}`, {
    method,
    headers: { 'x-api-token': TOKEN, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`control ${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as unknown;
}

function answer200(path: string, body: string, contentType = 'application/json'): void {
  emulator.faults.plan(path, [{ kind: 'status', status: 200, body, contentType }]);
}

function run(inputs: Record<string, string>, env: Record<string, string> = {}): Promise<ActionRun> {
  return runAction({
    inputs: {
      'api-token': TOKEN,
      'api-url': emulator.url,
      'target-branch': BRANCH,
      'timeout-seconds': '5',
      ...inputs,
    },
    eventName: 'workflow_dispatch',
    payload: example('workflow_dispatch'),
    env,
  });
}

/** One ::error:: line, no stack trace, no JavaScript error name, the token nowhere. */
function expectOneClearLine(result: ActionRun, says: RegExp): void {
  expect(result.failed).toBe(true);
  const errors = result.log.split('\n').filter((line) => line.startsWith('::error'));
  expect(errors).toHaveLength(1);
  expect(result.error).toMatch(says);
  expect(result.log).not.toMatch(/^\s+at /m);
  expect(result.log).not.toMatch(/\b(Range|Type|Syntax|Reference)Error\b|Maximum call stack/);
  expect(secretLeaks(result, TOKEN)).toEqual([]);
}

/** Every run of `length` characters of the secret, so that a part of it is found as well as the whole. */
function partsOf(secret: string, length = 8): string[] {
  return Array.from({ length: secret.length - length + 1 }, (_, i) => secret.slice(i, i + length));
}

function expectNoPartOf(secret: string, ...texts: string[]): void {
  const shown = partsOf(secret).filter((part) => texts.some((text) => text.includes(part)));
  expect(shown).toEqual([]);
}

function submittedPr(overrides: Record<string, unknown>): Record<string, unknown> {
  return {
    state: 'testing',
    stateChangedAt: '2026-01-01T00:00:00Z',
    priorityValue: 100,
    priorityName: 'medium',
    skipTheLine: false,
    forceEnqueued: false,
    isCurrentlySubmittedToQueue: true,
    prNumber: 7,
    prTitle: 'A PR',
    prSha: 'a'.repeat(40),
    prBaseBranch: BRANCH,
    prAuthor: 'octocat',
    ...overrides,
  };
}

describe('1. answers are bounded', () => {
  check(
    '1',
    'an endless answer ends at its cap with one line, long before the deadline, and the connection is dropped',
    async () => {
      const slug = await freshQueue();
      const chunk = Buffer.alloc(MIB, 'x');
      rawHandler = (response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        const timer = setInterval(() => {
          if (!response.write(chunk)) return;
        }, 20);
        response.on('close', () => clearInterval(timer));
      };
      const result = await run({
        operation: 'get-queue',
        repo: slug,
        'api-url': rawUrl,
        'timeout-seconds': '6',
      });
      expectOneClearLine(result, /^getQueue failed: the answer is larger than \d+ MiB/);
      expect(rawClosed.at(-1)).toBe(true);
    },
    60_000,
  );

  check('1', 'a complete answer over its cap is refused, not taken as success', async () => {
    const slug = await freshQueue();
    answer200('/getSubmittedPullRequest', JSON.stringify(submittedPr({ padding: 'p'.repeat(3 * MIB) })));
    const result = await run({ operation: 'get-submitted-pull-request', repo: slug, 'pr-number': '7' });
    expectOneClearLine(result, /^getSubmittedPullRequest failed: the answer is larger than \d+ (MiB|KiB)/);
    expect(result.outputs['is-submitted']).toBeUndefined();
  });

  check(
    '1',
    'a body that trickles a byte a second ends at the deadline with one line',
    async () => {
      const slug = await freshQueue();
      rawHandler = (response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('{');
        const timer = setInterval(() => response.write(' '), 1000);
        response.on('close', () => clearInterval(timer));
      };
      const result = await run({
        operation: 'get-queue',
        repo: slug,
        'api-url': rawUrl,
        'timeout-seconds': '3',
      });
      expectOneClearLine(result, /^getQueue failed: .*within 3\.0s/);
    },
    30_000,
  );
});

describe('2. file inputs are files', () => {
  const upload = (file: string) =>
    run({
      operation: 'set-impacted-targets',
      repo: 'hostile/files',
      'pr-number': '3',
      'pr-sha': 'b'.repeat(40),
      'impacted-targets-file': file,
    });

  check('2', 'a symlink to a device is refused with one line', async () => {
    const link = join(dir, 'null-targets.txt');
    symlinkSync('/dev/null', link);
    const result = await upload(link);
    expectOneClearLine(result, /impacted-targets-file.*is a character device, not a regular file/);
  });

  check('2', 'a symlink to /dev/zero is refused at once, nothing read', async () => {
    const link = join(dir, 'zero-targets.txt');
    symlinkSync('/dev/zero', link);
    const result = await upload(link);
    expectOneClearLine(result, /impacted-targets-file.*is a character device, not a regular file/);
  });

  check('2', 'a symlink to a directory is refused with one line', async () => {
    const link = join(dir, 'dir-targets');
    mkdirSync(join(dir, 'a-directory'));
    symlinkSync(join(dir, 'a-directory'), link);
    const result = await upload(link);
    expectOneClearLine(result, /impacted-targets-file.*is a directory, not a regular file/);
  });

  check(
    '2',
    'a fifo is refused at once, even when a writer would answer later',
    async () => {
      const fifo = join(dir, 'targets.fifo');
      spawnSync('mkfifo', [fifo]);
      // A writer that shows up after 6 s: a blocking read would wait for it and then succeed.
      const writer = spawn('sh', ['-c', `sleep 6; printf '//app:a\\n' > '${fifo}'`], { stdio: 'ignore' });
      children.push(writer);
      const result = await upload(fifo);
      expectOneClearLine(result, /impacted-targets-file.*is a fifo, not a regular file/);
    },
    30_000,
  );

  check('2', 'a file over the size limit is refused before it is read', async () => {
    const big = join(dir, 'big-targets.txt');
    writeFileSync(big, '');
    truncateSync(big, 100 * MIB);
    const result = await upload(big);
    expectOneClearLine(result, /impacted-targets-file.*is 100\.0 MiB, more than the \d+ MiB/);
  });
});

describe('3. a 200 that is not the API answer is never success', () => {
  check('3', 'a JSON array for a pull request is refused, naming the endpoint', async () => {
    const slug = await freshQueue();
    answer200('/getSubmittedPullRequest', '[1,2,3]');
    const result = await run({ operation: 'get-submitted-pull-request', repo: slug, 'pr-number': '7' });
    expectOneClearLine(result, /^getSubmittedPullRequest failed: the API answered 200 with .*not (its|a) /);
    expect(result.outputs['is-submitted']).toBeUndefined();
  });

  check('3', 'garbage text for a pull request is refused, naming the endpoint', async () => {
    const slug = await freshQueue();
    answer200('/getSubmittedPullRequest', 'garbage, not JSON', 'text/plain');
    const result = await run({ operation: 'get-submitted-pull-request', repo: slug, 'pr-number': '7' });
    expectOneClearLine(result, /^getSubmittedPullRequest failed: the API answered 200 with /);
  });

  check('3', 'a wrong-shaped flaky page is refused, not reported as "no flaky tests"', async () => {
    answer200('/flaky-tests/list-unhealthy-tests', JSON.stringify({ tests: { not: 'a list' }, page: {} }));
    const result = await run({
      operation: 'list-unhealthy-tests',
      repo: 'hostile/flaky',
      'org-url-slug': 'acme',
    });
    expectOneClearLine(result, /^listUnhealthyTests failed: the API answered 200 with .*tests/);
    expect(result.summary).not.toMatch(/no flaky or broken tests/i);
  });

  check(
    '3',
    'wait-for with a wrong-shaped answer fails at once, not after the whole wait',
    async () => {
      const slug = await freshQueue();
      answer200('/getSubmittedPullRequest', JSON.stringify({ state: 42 }));
      const before = emulator.faults.requests()['/getSubmittedPullRequest'] ?? 0;
      const result = await run({
        operation: 'get-submitted-pull-request',
        repo: slug,
        'pr-number': '7',
        'wait-for': 'merged',
        'wait-timeout-minutes': '1',
        'poll-interval-seconds': '1',
      });
      expectOneClearLine(result, /^getSubmittedPullRequest failed: the API answered 200 with .*state/);
      expect(result.error).not.toMatch(/wait-timeout-minutes/);
      // One look, no polling: the next look would have found the emulator's own, well-shaped answer.
      expect(emulator.faults.requests()['/getSubmittedPullRequest']).toBe(before + 1);
    },
    90_000,
  );

  check('3', 'deeply nested JSON ends in one clear line', async () => {
    const slug = await freshQueue();
    const deep = '['.repeat(200_000) + ']'.repeat(200_000);
    answer200('/getSubmittedPullRequest', JSON.stringify(submittedPr({})).replace(/}$/, `,"x":${deep}}`));
    const result = await run({ operation: 'get-submitted-pull-request', repo: slug, 'pr-number': '7' });
    expectOneClearLine(result, /^getSubmittedPullRequest failed: .*nested/);
  });
});

describe('4. answer text cannot write workflow commands', () => {
  const injected =
    '\n::add-mask::x\n::stop-commands::stop\n::set-output name=state::MERGED\n##[set-output name=a;]b\n';
  check('4', 'line breaks in a PR state and its mergeability reach the log as text', async () => {
    const slug = await freshQueue();
    answer200(
      '/getSubmittedPullRequest',
      JSON.stringify(
        submittedPr({
          state: `testing${injected}`,
          readiness: {
            requiresImpactedTargets: false,
            doesBaseBranchMatch: true,
            gitHubMergeability: `not_mergeable${injected}`,
            hasImpactedTargets: true,
          },
        }),
      ),
    );
    const result = await run({ operation: 'get-submitted-pull-request', repo: slug, 'pr-number': '7' });
    const lines = result.log.split('\n');
    expect(
      lines.filter(
        (line) =>
          /^\s*(::|##\[)/.test(line) && !/^::(add-mask::tok_|error|warning|group|endgroup)/.test(line),
      ),
    ).toEqual([]);
    expect(result.log).toContain('add-mask');
  });
});

describe('5. no part of a secret is shown', () => {
  check(
    '5',
    'an error body cut to a length is redacted first: no 8 characters of the token show',
    async () => {
      const slug = await freshQueue();
      emulator.faults.plan('/getQueue', [
        { kind: 'status', status: 400, body: `${'r'.repeat(280)} token=${TOKEN} was refused` },
      ]);
      const result = await run({ operation: 'get-queue', repo: slug });
      expect(result.failed).toBe(true);
      expectNoPartOf(
        TOKEN,
        result.log.replaceAll(`::add-mask::${TOKEN}`, ''),
        result.summary,
        ...Object.values(result.outputs),
      );
    },
  );

  check('5', 'a personal access token pasted into api-url is not shown, not even in part', async () => {
    const pat = `github_pat_11ABCDEFG0${'k'.repeat(20)}Z9yX8wV7uT6sR5qP4oN3mL2kJ1iH0gF9eD8cB7aZ6yX5wV4uT3s`;
    const result = await run({
      operation: 'get-queue',
      repo: 'hostile/url',
      'api-url': `http://api.example.com/v1/${pat}`,
    });
    expectOneClearLine(result, /api-url/);
    expectNoPartOf(pat, result.log, result.summary, ...Object.values(result.outputs));
  });
});

describe('6. a token a header cannot carry', () => {
  for (const [kind, bad] of [
    ['a zero-width space', `tok_abc\u200bdef123456`],
    ['a line break inside', `tok_abc\ndef123456`],
  ] as const) {
    check('6', `with ${kind} is refused at once, naming api-token`, async () => {
      const before = emulator.faults.requests()['/getQueue'] ?? 0;
      const result = await run({
        operation: 'get-queue',
        repo: 'hostile/token',
        'api-token': bad,
        'timeout-seconds': '4',
      });
      expect(result.failed).toBe(true);
      expect(result.error).toMatch(/^Input api-token|api-token/);
      expect(result.error).toMatch(/character/);
      expect(result.error).not.toMatch(/api-url/);
      expect(emulator.faults.requests()['/getQueue'] ?? 0).toBe(before);
    });
  }
});

describe('7. report files hide secrets too', () => {
  check('7', 'a token echoed by the service is not written to the report file', async () => {
    const repo = { host: 'github.com', owner: 'hostile', name: 'report' };
    await control('POST', '/flaky-tests', {
      repositories: [
        {
          repo,
          org_url_slug: 'acme',
          tests: [
            {
              id: '00000000-0000-4000-8000-0000000000e1',
              name: `leaks ${TOKEN}`,
              status: 'flaky',
              reason: `reason ${TOKEN}`,
            },
          ],
        },
      ],
    });
    const temp = mkdtempSync(join(dir, 'runner-temp-'));
    const result = await run(
      { operation: 'list-unhealthy-tests', repo: 'hostile/report', 'org-url-slug': 'acme' },
      { RUNNER_TEMP: temp },
    );
    expect(result.failed).toBe(false);
    const report = readFileSync(result.outputs['report-file']!, 'utf8');
    expect(report).toContain('leaks ***');
    expect(report).not.toContain(TOKEN);
  });
});

describe('8. the temp directory', () => {
  check('8', 'a missing temp directory ends in one clear line, not a raw ENOENT', async () => {
    const result = await run(
      { operation: 'get-merge-queue-metrics', repo: 'hostile/temp' },
      { RUNNER_TEMP: join(dir, 'no-such-dir') },
    );
    expectOneClearLine(result, /temporary directory .*no-such-dir.* does not exist/);
    expect(result.error).not.toMatch(/^ENOENT|mkdtemp/);
  });

  check('8', 'a temp directory that is a file ends in one clear line, not a raw ENOTDIR', async () => {
    const notADirectory = join(dir, 'temp-is-a-file');
    writeFileSync(notADirectory, '');
    const result = await run(
      { operation: 'get-merge-queue-metrics', repo: 'hostile/temp' },
      { RUNNER_TEMP: notADirectory },
    );
    expectOneClearLine(result, /temporary directory .*temp-is-a-file.* is not a directory/);
    expect(result.error).not.toMatch(/^ENOTDIR|mkdtemp/);
  });
});

describe('9. one-line inputs', () => {
  check('9', 'org-url-slug with a space is refused', async () => {
    const result = await run({
      operation: 'list-quarantined-tests',
      repo: 'hostile/slug',
      'org-url-slug': 'acme corp',
    });
    expectOneClearLine(result, /^Input "org-url-slug": "acme corp" is not/);
  });
  check('9', 'target-branch with a line break is refused', async () => {
    const result = await run({
      operation: 'get-queue',
      repo: 'hostile/branch',
      'target-branch': 'main\n::warning::x',
    });
    expectOneClearLine(result, /^Input "target-branch": .*line break/);
  });
});

describe('10. summary text', () => {
  check(
    '10',
    'bidi overrides and zero-width characters are shown visibly; mentions and #refs are not live',
    async () => {
      const repo = { host: 'github.com', owner: 'hostile', name: 'bidi' };
      await control('POST', '/flaky-tests', {
        repositories: [
          {
            repo,
            org_url_slug: 'acme',
            tests: [
              {
                id: '00000000-0000-4000-8000-0000000000b1',
                name: 'test_\u202Egnp.exe ok',
                status: 'flaky',
                reason: 'hi @octocat see #123',
              },
              {
                id: '00000000-0000-4000-8000-0000000000b2',
                name: 'zero\u200Bwidth\u2066x',
                status: 'flaky',
                reason: 'cc @org/team',
              },
            ],
          },
        ],
      });
      const result = await run({
        operation: 'list-unhealthy-tests',
        repo: 'hostile/bidi',
        'org-url-slug': 'acme',
      });
      expect(result.failed).toBe(false);
      expect(result.summary).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200B\u200E\u200F\uFEFF]/);
      expect(result.summary).toContain('U+202E');
      expect(result.summary).toContain('U+200B');
      expect(result.summary).not.toMatch(/@octocat|@org/);
      expect(result.summary).not.toContain('#123');
    },
  );
});

describe('11. the response output', () => {
  check('11', 'an answer over the cap is left out of the response output and written to a file', async () => {
    const slug = await freshQueue();
    const temp = mkdtempSync(join(dir, 'runner-temp-'));
    const big = JSON.stringify(submittedPr({ prTitle: `T ${'y'.repeat(600 * 1024)}` }));
    answer200('/getSubmittedPullRequest', big);
    const result = await run(
      { operation: 'get-submitted-pull-request', repo: slug, 'pr-number': '7' },
      { RUNNER_TEMP: temp },
    );
    expect(result.failed).toBe(false);
    expect(Buffer.byteLength(result.outputs.response ?? '')).toBeLessThanOrEqual(256 * 1024);
    expect(readFileSync(result.outputs['response-file']!, 'utf8')).toBe(big);
  });
});

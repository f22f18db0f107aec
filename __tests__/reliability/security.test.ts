// Security, end to end: the token is masked before anything else is printed and never leaves through the
// log, the outputs, the summary or an error, even when the service echoes it back; it goes only to
// api-url (a redirect anywhere is an error, and nothing follows it); text from the service cannot inject
// markup into the summary, outputs into GITHUB_OUTPUT or commands into the log; the summary stays under
// GitHub's 1 MiB.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiClient } from '../../src/core/api/client.js';
import type { Repo } from '../../src/wire/index.js';
import type { Fault } from '../../emulator/faults.js';
import { startEmulator, type Emulator } from '../../emulator/server.js';
import { runAction, type ActionRun } from '../helpers/action-runner.js';
import { secretLeaks } from '../helpers/leaks.js';
import { writeRecord, type CheckRow } from '../helpers/reliability-record.js';
import { example } from '../helpers/webhook-examples.js';

const TOKEN = 'tok_security_Wn5hQ8xJ3cF6';
const GITHUB_TOKEN = 'ghs_security_Rt2kP7mV9dL4';
const BRANCH = 'main';
const ONE_MIB = 1024 * 1024;

let emulator: Emulator;
let recorder: Server;
let recorderUrl: string;
const recorded: { url: string; headers: IncomingHttpHeaders; body: string }[] = [];
const checks: CheckRow[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ token: TOKEN });
  // Another host as far as the action is concerned: it records whatever reaches it.
  recorder = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      recorded.push({ url: request.url ?? '', headers: request.headers, body });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
  recorderUrl = `http://127.0.0.1:${(recorder.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await emulator.close();
  await new Promise((resolve) => recorder.close(resolve));
  writeRecord('security', checks);
});

/** Runs an `it` and records it for RELIABILITY.md. */
function check(area: string, name: string, body: () => Promise<void>): void {
  it(name, async () => {
    try {
      await body();
      checks.push({ area, check: name, passed: true });
    } catch (error) {
      checks.push({ area, check: name, passed: false, detail: (error as Error).message.split('\n')[0] });
      throw error;
    }
  });
}

let repoCounter = 0;
/** A fresh repository with a queue, so that no check sees another's PRs. */
async function freshQueue(): Promise<{ repo: Repo; slug: string }> {
  const name = `security-${++repoCounter}`;
  const slug = `sec/${name}`;
  await control('POST', '/queues', { repo: slug, targetBranch: BRANCH });
  return { repo: { host: 'github.com', owner: 'sec', name }, slug };
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

function planFaults(path: string, faults: Fault[]): void {
  emulator.faults.plan(path, faults);
}

function client(): ApiClient {
  return new ApiClient({ baseUrl: emulator.url, token: TOKEN, deadlineMs: 5000 });
}

function run(
  slug: string,
  inputs: Record<string, string>,
  env: Record<string, string> = {},
): Promise<ActionRun> {
  return runAction({
    inputs: {
      'api-token': TOKEN,
      'api-url': emulator.url,
      repo: slug,
      'target-branch': BRANCH,
      'timeout-seconds': '5',
      ...inputs,
    },
    eventName: 'workflow_dispatch',
    payload: example('workflow_dispatch'),
    env,
  });
}

function expectMaskedOnly(result: ActionRun, secret: string): void {
  expect(secretLeaks(result, secret)).toEqual([]);
}

describe('the token', () => {
  check('token', 'is masked once, before anything else is printed, on success and on failure', async () => {
    const { slug } = await freshQueue();
    const succeeded = await run(slug, {
      operation: 'submit-pull-request',
      'pr-number': '5',
      'github-token': GITHUB_TOKEN,
    });
    expect(succeeded.failed).toBe(false);
    expect(succeeded.log.split('\n').slice(0, 2)).toEqual([
      `::add-mask::${TOKEN}`,
      `::add-mask::${GITHUB_TOKEN}`,
    ]);
    expect(succeeded.log.split('\n').filter((line) => line.startsWith('::add-mask::'))).toHaveLength(2);
    expectMaskedOnly(succeeded, TOKEN);
    expectMaskedOnly(succeeded, GITHUB_TOKEN);

    const refused = await run(slug, { operation: 'submit-pull-request', 'pr-number': 'five' });
    expect(refused.failed).toBe(true);
    expect(refused.log.split('\n')[0]).toBe(`::add-mask::${TOKEN}`);
    expectMaskedOnly(refused, TOKEN);
  });

  check('token', 'never appears when the service echoes it back in an error body', async () => {
    const { slug } = await freshQueue();
    planFaults('/getQueue', [
      { kind: 'status', status: 401, body: `Unauthorized: token ${TOKEN} is not valid` },
    ]);
    const result = await run(slug, { operation: 'get-queue' });
    expect(result.failed).toBe(true);
    expect(result.error).toMatch(
      /^getQueue failed: the API answered 401\. Check that api-token .* \(the service said: "Unauthorized: token \*\*\* is not valid"\)$/,
    );
    expectMaskedOnly(result, TOKEN);
  });

  check('token', 'never appears in part when the service echoes pieces of it', async () => {
    const { slug } = await freshQueue();
    const [head, tail] = [TOKEN.slice(0, 13), TOKEN.slice(-9)];
    planFaults('/getQueue', [
      { kind: 'status', status: 401, body: `key ${head}... revoked; the token ending ${tail} is unknown` },
    ]);
    const result = await run(slug, { operation: 'get-queue' });
    expect(result.error).toMatch(
      /the API answered 401\. .* \(the service said: "key \*\*\*\.\.\. revoked; the token ending \*\*\* is unknown"\)$/,
    );
    const logged = result.log.split('\n').filter((line) => !line.startsWith('::add-mask::'));
    const shown = [...logged, result.error, result.summary, ...Object.values(result.outputs)].join('\n');
    expect([head, tail].filter((part) => shown.includes(part))).toEqual([]);
  });

  check('token', 'never appears when an echoing error is retried and logged', async () => {
    const { slug } = await freshQueue();
    planFaults('/getQueue', [
      { kind: 'status', status: 503, body: `upstream rejected x-api-token=${TOKEN}` },
    ]);
    const result = await run(slug, { operation: 'get-queue' });
    expect(result.failed).toBe(false);
    expect(result.log).toMatch(
      /getQueue: the API answered 503\. The service failed\. \(the service said: "upstream rejected x-api-token=\*\*\*"\) Retrying in/,
    );
    expectMaskedOnly(result, TOKEN);
  });

  check(
    'token',
    'never appears when a successful answer echoes it into outputs and the summary',
    async () => {
      const { slug } = await freshQueue();
      const body = JSON.stringify(submittedPr({ prNumber: 9, prTitle: `Leaks ${TOKEN}`, note: TOKEN }));
      planFaults('/getSubmittedPullRequest', [
        { kind: 'status', status: 200, body, contentType: 'application/json' },
      ]);
      const result = await run(slug, { operation: 'get-submitted-pull-request', 'pr-number': '9' });
      expect(result.failed).toBe(false);
      expect(result.outputs.response).toContain('"note":"***"');
      expect(result.summary).toContain('| Title | Leaks *** |');
      expectMaskedOnly(result, TOKEN);
    },
  );

  check('token', 'is sent to api-url only, and the GitHub token to the GitHub API only', async () => {
    const { slug } = await freshQueue();
    recorded.length = 0;
    // No target branch: the PR's base is looked up through GITHUB_API_URL, here the recorder.
    const result = await runAction({
      inputs: {
        operation: 'get-submitted-pull-request',
        'api-token': TOKEN,
        'github-token': GITHUB_TOKEN,
        'api-url': emulator.url,
        repo: slug,
        'pr-number': '11',
      },
      eventName: 'workflow_dispatch',
      payload: example('workflow_dispatch'),
      env: { GITHUB_API_URL: recorderUrl },
    });
    expect(recorded.length).toBeGreaterThan(0);
    for (const request of recorded) {
      expect(JSON.stringify(request)).not.toContain(TOKEN);
      expect(request.headers.authorization).toMatch(new RegExp(`${GITHUB_TOKEN}$`));
    }
    expectMaskedOnly(result, TOKEN);
    expectMaskedOnly(result, GITHUB_TOKEN);
  });

  it.each([301, 302, 303, 307, 308] as const)(
    'is never forwarded by a %d redirect to another host',
    async (status) => {
      const name = `is never forwarded by a ${status} redirect to another host`;
      try {
        const { slug } = await freshQueue();
        recorded.length = 0;
        planFaults('/submitPullRequest', [
          { kind: 'redirect', status, location: `${recorderUrl}/v1/submitPullRequest` },
        ]);
        const result = await run(slug, { operation: 'submit-pull-request', 'pr-number': '12' });
        expect(result.failed).toBe(true);
        expect(result.error).toMatch(
          new RegExp(
            `^submitPullRequest failed: the API answered ${status} redirecting to another address, which is not followed so that the token stays with api-url\\. .* \\(the service said: "Location: ${recorderUrl}/v1/submitPullRequest"\\)$`,
          ),
        );
        expect(recorded).toEqual([]);
        expect(result.outputs['is-submitted']).toBeUndefined();
        expectMaskedOnly(result, TOKEN);
        checks.push({ area: 'token', check: name, passed: true });
      } catch (error) {
        checks.push({
          area: 'token',
          check: name,
          passed: false,
          detail: (error as Error).message.split('\n')[0],
        });
        throw error;
      }
    },
  );

  check('token', "is not sent again after a redirect within api-url's own host either", async () => {
    const { slug } = await freshQueue();
    planFaults('/getQueue', [
      { kind: 'redirect', status: 308, location: `${emulator.url}/getQueue?moved=1` },
    ]);
    const result = await run(slug, { operation: 'get-queue' });
    expect(result.failed).toBe(true);
    expect(result.error).toMatch(/answered 308 redirecting to .*not followed/);
    expect(emulator.faults.requests()['/getQueue']).toBeGreaterThan(0);
    expectMaskedOnly(result, TOKEN);
  });
});

describe('text from the service', () => {
  const HOSTILE = [
    '<script>alert("x")</script> renders',
    'a | b | c splits cells',
    'uses `backticks` and ```fences```',
    'breaks the line\n# Injected heading\n| injected | row |',
    '[a link](javascript:alert(1)) and <img src=x onerror=alert(1)>',
  ];

  check('summary', 'is escaped in the summary: markup, table pipes, backticks and newlines', async () => {
    const repo = { host: 'github.com', owner: 'sec', name: 'hostile-tests' };
    await control('POST', '/flaky-tests', {
      repositories: [
        {
          repo,
          org_url_slug: 'acme',
          tests: HOSTILE.map((name, index) => ({
            id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
            name,
            status: 'flaky' as const,
            reason: name,
          })),
        },
      ],
    });
    const result = await run('sec/hostile-tests', {
      operation: 'list-unhealthy-tests',
      'org-url-slug': 'acme',
    });
    expect(result.failed).toBe(false);
    expectSafeMarkdown(result.summary);
    expect(result.summary).toContain('&lt;script&gt;alert');
  });

  check('summary', "is escaped in the summary when it comes as a queue's PR titles", async () => {
    const { repo, slug } = await freshQueue();
    for (const [index, title] of HOSTILE.entries()) {
      await control('POST', '/pull-requests', { repo: slug, number: 100 + index, title });
      await client().call('submitPullRequest', { repo, targetBranch: BRANCH, pr: { number: 100 + index } });
    }
    const result = await run(slug, { operation: 'get-queue' });
    expect(result.failed).toBe(false);
    expectSafeMarkdown(result.summary);
    expect(result.summary).toContain('&lt;script&gt;alert');
  });

  check(
    'outputs',
    'is written to GITHUB_OUTPUT safely: a multi-line value cannot add or change outputs',
    async () => {
      const { slug } = await freshQueue();
      const injected = 'medium\nis-submitted<<EOF\nfalse\nEOF\nstate=FAILED\nghadelimiter_x\n';
      const body = JSON.stringify(submittedPr({ state: 'testing', prNumber: 13, priorityName: injected }));
      planFaults('/getSubmittedPullRequest', [
        { kind: 'status', status: 200, body, contentType: 'application/json' },
      ]);
      const result = await run(slug, { operation: 'get-submitted-pull-request', 'pr-number': '13' });
      expect(result.outputs.response).toBe(body);
      expect(result.outputs['priority-name']).toBe(injected.toLowerCase());
      expect(result.outputs.state).not.toBe('FAILED');
      expect(result.outputs['is-submitted']).toBe('true');
    },
  );

  check('log', 'cannot inject a workflow command into the log through an error', async () => {
    const { slug } = await freshQueue();
    planFaults('/getQueue', [
      {
        kind: 'status',
        status: 400,
        body: 'refused\n::warning::injected\n::add-mask::x\n::set-output name=a::b',
      },
    ]);
    const result = await run(slug, { operation: 'get-queue' });
    expect(result.failed).toBe(true);
    const commands = result.log.split('\n').filter((line) => line.startsWith('::'));
    expect(commands.every((line) => /^::(add-mask|error|warning|debug)( [^:]*)?::/.test(line))).toBe(true);
    expect(commands.filter((line) => line.startsWith('::warning::injected'))).toEqual([]);
    expect(result.log.split('\n').filter((line) => line.startsWith('::error'))).toHaveLength(1);
  });

  check('summary', 'keeps the summary under 1 MiB however much the service returns', async () => {
    const { repo, slug } = await freshQueue();
    const longTitle = `A very long title ${'x'.repeat(40_000)}`;
    for (let number = 1; number <= 40; number++) {
      await control('POST', '/pull-requests', { repo: slug, number, title: `${number}: ${longTitle}` });
      await client().call('submitPullRequest', { repo, targetBranch: BRANCH, pr: { number } });
    }
    const runnerTemp = mkdtempSync(join(tmpdir(), 'mqa-security-'));
    const result = await run(slug, { operation: 'get-queue' }, { RUNNER_TEMP: runnerTemp });
    expect(result.failed).toBe(false);
    // Outputs share 1 MiB per job too: the answer is in response-file, not in the response output.
    expect(result.outputs.response).toBe('');
    expect(statSync(result.outputs['response-file']!).size).toBeGreaterThan(ONE_MIB);
    expect(Buffer.byteLength(result.summary)).toBeLessThan(ONE_MIB);
    // Each title is cut to a length a person reads, so every PR of the line fits, each row short.
    const rows = result.summary.split('\n').filter((line) => /^\| \d+ \| \[/.test(line));
    expect(rows).toHaveLength(40);
    for (const row of rows) expect(row.length).toBeLessThan(500);
  });
});

/** A getSubmittedPullRequest answer with every field the service always sends. */
function submittedPr(overrides: Record<string, unknown>): Record<string, unknown> {
  return {
    state: 'testing',
    stateChangedAt: '2026-01-01T00:00:00Z',
    priorityValue: 100,
    priorityName: 'medium',
    skipTheLine: false,
    forceEnqueued: false,
    isCurrentlySubmittedToQueue: true,
    prNumber: 1,
    prTitle: 'A PR',
    prSha: 'a'.repeat(40),
    prBaseBranch: BRANCH,
    prAuthor: 'octocat',
    ...overrides,
  };
}

/** No raw markup and no broken table: every table row has as many cells as its header. */
function expectSafeMarkdown(summary: string): void {
  expect(summary).not.toMatch(/<script|<img/i);
  // A link needs its brackets unescaped; `\[a link\](javascript:...)` is text.
  expect(summary).not.toMatch(/(?<!\\)\]\(javascript:/);
  expect(summary).not.toMatch(/^# Injected heading/m);
  expect(summary).not.toMatch(/^\| injected \| row \|/m);
  const lines = summary.split('\n');
  const cells = (line: string) => line.replace(/\\\|/g, '').split('|').length;
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.startsWith('| ---') && !/^\| *--- *\|/.test(lines[i]!)) continue;
    const header = lines[i - 1]!;
    for (let j = i + 1; j < lines.length && lines[j]!.startsWith('|'); j++) {
      expect({ row: lines[j], cells: cells(lines[j]!) }).toEqual({ row: lines[j], cells: cells(header) });
    }
  }
  expect(summary).not.toContain('`backticks`');
  expect(summary).not.toContain('```fences```');
}

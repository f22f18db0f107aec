// The emulator under pressure: a thousand concurrent mixed requests lose no update, malformed bodies and
// wrong content types get a 400 in plain text, a client that sends its body slowly blocks nobody, and a
// bounded fuzz loop of bad requests never gets a 5xx or brings the server down.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { spawn } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { ENDPOINTS } from '../../src/wire/index.js';
import { parseFaultFlag } from '../../emulator/faults.js';
import { startEmulator, type Emulator } from '../../emulator/server.js';
import { writeRecord, type CheckRow } from '../helpers/reliability-record.js';

const TOKEN = 'tok_robust_Pd6sK1wN8bY3';
const BRANCH = 'main';
const CONCURRENT = 1000;

let emulator: Emulator;
let agent: Agent;
const checks: CheckRow[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ token: TOKEN });
  agent = new Agent({ keepAlive: true, maxSockets: 256 });
});

afterAll(async () => {
  agent.destroy();
  await emulator.close();
  writeRecord('emulator', checks);
});

function check(name: string, body: () => Promise<void>, timeout?: number): void {
  it(
    name,
    async () => {
      try {
        await body();
        checks.push({ area: 'emulator', check: name, passed: true });
      } catch (error) {
        checks.push({
          area: 'emulator',
          check: name,
          passed: false,
          detail: (error as Error).message.split('\n')[0],
        });
        throw error;
      }
    },
    timeout,
  );
}

interface Answer {
  status: number;
  contentType: string;
  body: string;
}

/** One HTTP request with raw control over the body and headers. */
function send(
  method: string,
  path: string,
  body?: string | Buffer,
  headers: Record<string, string> = { 'content-type': 'application/json' },
  withToken = true,
): Promise<Answer> {
  const url = new URL(path, emulator.origin);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method,
        agent,
        headers: {
          ...(withToken ? { 'x-api-token': TOKEN } : {}),
          ...headers,
          ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function post(endpoint: keyof typeof ENDPOINTS, body: unknown): Promise<Answer> {
  return send('POST', `/v1${ENDPOINTS[endpoint].path}`, JSON.stringify(body));
}

function control(method: string, path: string, body?: unknown): Promise<Answer> {
  return send(method, `/_emulator${path}`, body === undefined ? undefined : JSON.stringify(body));
}

function repoOf(name: string) {
  return { host: 'github.com', owner: 'robust', name };
}

describe('under 1,000 concurrent mixed requests', () => {
  check(
    'loses no update: every answer is 2xx and the history agrees with the final state',
    async () => {
      const repo = repoOf('concurrent');
      const queue = { repo, targetBranch: BRANCH };
      expect((await post('createQueue', { ...queue, concurrency: 5 })).status).toBe(200);
      // PRs 1001..1200 are queued first, so that cancels and priority changes have something to act on.
      for (let pr = 1001; pr <= 1200; pr++)
        expect((await post('submitPullRequest', { ...queue, pr: { number: pr } })).status).toBe(200);
      const caseId = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      const tests = Array.from({ length: 100 }, (_, i) => ({
        id: caseId(i),
        name: `test ${i}`,
        status: 'flaky',
      }));
      expect((await control('POST', '/flaky-tests', { repositories: [{ repo, tests }] })).status).toBe(200);

      const requests: (() => Promise<Answer>)[] = [];
      for (let pr = 1; pr <= 400; pr++)
        requests.push(() => post('submitPullRequest', { ...queue, pr: { number: pr } }));
      for (let pr = 1001; pr <= 1100; pr++)
        requests.push(() => post('cancelPullRequest', { ...queue, pr: { number: pr } }));
      for (let pr = 1101; pr <= 1200; pr++) {
        requests.push(() => post('submitPullRequest', { ...queue, pr: { number: pr }, priority: 'high' }));
        requests.push(() => post('getSubmittedPullRequest', { ...queue, pr: { number: pr } }));
      }
      for (let pr = 1; pr <= 100; pr++) {
        const sha = `${pr.toString(16).padStart(2, '0')}${'a'.repeat(38)}`;
        requests.push(() =>
          post('setImpactedTargets', {
            ...queue,
            pr: { number: 5000 + pr, sha },
            impactedTargets: [`//t:${pr}`],
          }),
        );
      }
      for (let i = 0; i < 100; i++) {
        requests.push(() =>
          post('linkTicketToTestCase', { repo, test_case_id: caseId(i), external_ticket_id: `KAN-${i}` }),
        );
        requests.push(() => post('getQueue', queue));
      }
      expect(requests).toHaveLength(CONCURRENT);
      // Interleave the kinds so that reads and writes of all sorts are in flight together.
      const shuffled = fc.sample(
        fc.shuffledSubarray(requests, { minLength: CONCURRENT, maxLength: CONCURRENT }),
        { numRuns: 1, seed: 7 },
      )[0]!;
      const answers = await Promise.all(shuffled.map((request) => request()));
      const refused = answers.filter((answer) => answer.status < 200 || answer.status >= 300);
      expect(refused.map((a) => `${a.status} ${a.body}`)).toEqual([]);

      const history = JSON.parse((await send('GET', `/_emulator/history?repo=robust/concurrent`)).body) as {
        events: { kind: string; prNumber: number; submissionId: string; from: string | null; to: string }[];
      };
      const byPr = new Map<number, typeof history.events>();
      for (const event of history.events.filter((e) => e.kind === 'pr_state')) {
        byPr.set(event.prNumber, [...(byPr.get(event.prNumber) ?? []), event]);
      }
      const expected = [...range(1, 400), ...range(1001, 1200)];
      expect([...byPr.keys()].sort((a, b) => a - b)).toEqual(expected);
      const wrong: string[] = [];
      for (const pr of expected) {
        const events = byPr.get(pr)!;
        const submissions = new Set(events.filter((e) => e.from === null).map((e) => e.submissionId));
        if (submissions.size !== 1) wrong.push(`#${pr}: ${submissions.size} submissions`);
        // Each transition starts where the previous one ended.
        events.forEach((event, i) => {
          if (i > 0 && event.from !== events[i - 1]!.to)
            wrong.push(`#${pr}: ${events[i - 1]!.to} then ${event.from}->${event.to}`);
        });
        const answer = await post('getSubmittedPullRequest', { ...queue, pr: { number: pr } });
        const now = JSON.parse(answer.body) as { state: string; priorityName: string };
        if (now.state !== events.at(-1)!.to)
          wrong.push(`#${pr}: history ends ${events.at(-1)!.to}, state is ${now.state}`);
        if (pr >= 1001 && pr <= 1100 && now.state !== 'cancelled')
          wrong.push(`#${pr}: cancel lost (${now.state})`);
        if (pr >= 1101 && now.priorityName !== 'high')
          wrong.push(`#${pr}: priority change lost (${now.priorityName})`);
      }
      for (let pr = 1; pr <= 100; pr++) {
        const info = JSON.parse(
          (await control('POST', '/pull-requests', { repo: 'robust/concurrent', number: 5000 + pr })).body,
        ) as {
          impactedTargets: Record<string, string[]>;
        };
        if (JSON.stringify(Object.values(info.impactedTargets)) !== JSON.stringify([[`//t:${pr}`]]))
          wrong.push(`targets of #${5000 + pr} lost`);
      }
      for (let i = 0; i < 100; i++) {
        const details = JSON.parse(
          (await post('getTestDetails', { repo, org_url_slug: 'robust', test_id: caseId(i) })).body,
        ) as {
          test: { ticket?: { html_url?: string } };
        };
        if (!details.test.ticket?.html_url?.endsWith(`KAN-${i}`)) wrong.push(`ticket of ${caseId(i)} lost`);
      }
      expect(wrong).toEqual([]);
    },
    60_000,
  );
});

describe('bad request bodies', () => {
  const valid = JSON.stringify({ repo: repoOf('bodies'), targetBranch: BRANCH });
  const cases: [string, string | Buffer | undefined, Record<string, string>][] = [
    ['malformed JSON', '{"repo": {"host": "github.com",', { 'content-type': 'application/json' }],
    ['JSON with a trailing comma', '{"targetBranch": "main",}', { 'content-type': 'application/json' }],
    ['an empty body declared as JSON', '', { 'content-type': 'application/json' }],
    ['no body at all', undefined, { 'content-type': 'application/json' }],
    ['JSON sent as text/plain', valid, { 'content-type': 'text/plain' }],
    ['JSON sent as a form', valid, { 'content-type': 'application/x-www-form-urlencoded' }],
    ['JSON sent as multipart', valid, { 'content-type': 'multipart/form-data; boundary=x' }],
    ['JSON sent as XML', valid, { 'content-type': 'application/xml' }],
    ['JSON without a content type', valid, {}],
    ['a JSON array', '[1, 2, 3]', { 'content-type': 'application/json' }],
    ['JSON null', 'null', { 'content-type': 'application/json' }],
    ['a JSON string', '"main"', { 'content-type': 'application/json' }],
    [
      'bytes that are not UTF-8',
      Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]),
      { 'content-type': 'application/json' },
    ],
    [
      'JSON nested 100,000 deep',
      '['.repeat(100_000) + ']'.repeat(100_000),
      { 'content-type': 'application/json' },
    ],
    ['a number too large for any field', '{"repo": 1e999999}', { 'content-type': 'application/json' }],
    [
      'a prototype-pollution attempt',
      '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"x": 1}}}',
      { 'content-type': 'application/json' },
    ],
  ];

  it.each(cases)('answer 400 in plain text for %s', async (name, body, headers) => {
    try {
      for (const path of [
        '/v1/getQueue',
        '/v1/submitPullRequest',
        '/v1/flaky-tests/list-unhealthy-tests',
        '/_emulator/queues',
      ]) {
        const answer = await send('POST', path, body, headers);
        expect({ path, status: answer.status, type: answer.contentType }).toEqual({
          path,
          status: 400,
          type: 'text/plain; charset=utf-8',
        });
        expect(answer.body.length).toBeGreaterThan(0);
        expect(answer.body).not.toMatch(/^\s*[{[]|\n\s+at /);
      }
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      checks.push({ area: 'emulator', check: `400 in plain text for ${name}`, passed: true });
    } catch (error) {
      checks.push({
        area: 'emulator',
        check: `400 in plain text for ${name}`,
        passed: false,
        detail: (error as Error).message.split('\n')[0],
      });
      throw error;
    }
  });
});

describe('a slow client', () => {
  check('sending its body a byte at a time does not block other requests', async () => {
    await post('createQueue', { repo: repoOf('slow'), targetBranch: BRANCH });
    const body = JSON.stringify({ repo: repoOf('slow'), targetBranch: BRANCH });
    const socket = connect(Number(new URL(emulator.origin).port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const slowAnswer = new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      socket.on('end', () => resolve(text));
      socket.on('close', () => resolve(text));
    });
    socket.write(
      `POST /v1/getQueue HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-token: ${TOKEN}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n`,
    );
    // Half the body, then others are served while the slow client still owes the rest.
    const half = Math.floor(body.length / 2);
    for (let i = 0; i < half; i++) {
      socket.write(body[i]!);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const others = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        i % 2
          ? post('getQueue', { repo: repoOf('slow'), targetBranch: BRANCH })
          : send('GET', '/_emulator/clock'),
      ),
    );
    expect(others.map((answer) => answer.status)).toEqual(Array(50).fill(200));
    let answered = false;
    void slowAnswer.then(() => (answered = true));
    expect(answered).toBe(false);
    for (let i = half; i < body.length; i++) {
      socket.write(body[i]!);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(await slowAnswer).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*"branch":"main"/);
  });
});

describe('fuzzing', () => {
  const endpoints = Object.values(ENDPOINTS).map((definition) => definition.path);
  const validBodies: Record<string, unknown> = {
    '/submitPullRequest': { repo: repoOf('fuzz'), targetBranch: BRANCH, pr: { number: 1 }, priority: 'high' },
    '/getQueue': { repo: repoOf('fuzz'), targetBranch: BRANCH },
    '/updateQueue': { repo: repoOf('fuzz'), targetBranch: BRANCH, concurrency: 2 },
    '/setImpactedTargets': {
      repo: repoOf('fuzz'),
      targetBranch: BRANCH,
      pr: { number: 1, sha: 'abc' },
      impactedTargets: ['//a'],
    },
    '/listPullRequests': { repo: repoOf('fuzz'), targetBranch: BRANCH, take: 10 },
    '/flaky-tests/list-unhealthy-tests': {
      repo: repoOf('fuzz'),
      org_url_slug: 'robust',
      status: 'FLAKY',
      page_query: { page_size: 10 },
    },
  };

  /** A valid body with one field replaced by anything JSON can hold, or removed, or a field added. */
  const mutatedBody = fc
    .tuple(
      fc.constantFrom(...Object.keys(validBodies)),
      fc.jsonValue({ maxDepth: 3 }),
      fc.nat(),
      fc.constantFrom('replace', 'remove', 'add'),
    )
    .map(([path, value, pick, how]) => {
      const body = structuredClone(validBodies[path]) as Record<string, unknown>;
      const keys = Object.keys(body);
      const key = keys[pick % keys.length]!;
      if (how === 'replace') body[key] = value;
      else if (how === 'remove') delete body[key];
      else body[`extra${pick}`] = value;
      return { path: `/v1${path}`, body: JSON.stringify(body), contentType: 'application/json' };
    });

  /** Anything at all: any path, any bytes, any content type. */
  const anyRequest = fc.record({
    path: fc.oneof(
      fc.constantFrom(
        ...endpoints.map((p) => `/v1${p}`),
        '/_emulator/queues',
        '/_emulator/faults',
        '/_emulator/ci',
      ),
      fc.webPath().map((p) => `/v1/${p.replace(/^\/+/, '')}`),
    ),
    body: fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b).toString('latin1')),
    ),
    contentType: fc.constantFrom(
      'application/json',
      'text/plain',
      'application/octet-stream',
      'application/json; charset=latin1',
      '',
    ),
  });

  check(
    'never answers 5xx and keeps serving, over 400 generated bad requests',
    async () => {
      const failures: string[] = [];
      let sent = 0;
      await fc.assert(
        fc.asyncProperty(fc.oneof(mutatedBody, anyRequest), fc.boolean(), async (request, withToken) => {
          const headers: Record<string, string> = request.contentType
            ? { 'content-type': request.contentType }
            : {};
          const answer = await send('POST', request.path, request.body, headers, withToken);
          sent++;
          if (answer.status >= 500 || answer.status < 200)
            failures.push(`${answer.status} for POST ${request.path} ${request.body.slice(0, 80)}`);
          if (answer.status >= 400 && !answer.contentType.startsWith('text/plain')) {
            failures.push(`${answer.status} as ${answer.contentType} for POST ${request.path}`);
          }
        }),
        { numRuns: 400, seed: 20_240_601 },
      );
      expect(failures).toEqual([]);
      expect(sent).toBe(400);
      expect((await post('getQueue', { repo: repoOf('fuzz'), targetBranch: BRANCH })).status).toBeLessThan(
        500,
      );
      expect((await send('GET', '/_emulator/clock')).status).toBe(200);
    },
    60_000,
  );
});

describe('fault injection', () => {
  check('refuses a fault plan it cannot carry out with 400 in plain text', async () => {
    for (const faults of [
      [{ kind: 'status' }],
      [{ kind: 'explode' }],
      [{ kind: 'delay', ms: -1 }],
      [{ kind: 'redirect' }],
    ]) {
      const answer = await control('POST', '/faults', { path: '/getQueue', faults });
      expect({ faults, status: answer.status, type: answer.contentType }).toEqual({
        faults,
        status: 400,
        type: 'text/plain; charset=utf-8',
      });
    }
    expect(JSON.parse((await control('GET', '/faults')).body)).toEqual({});
  });

  check('reads --fault flags, and refuses a bad one with one line', async () => {
    expect(
      parseFaultFlag(
        '/submitPullRequest=status:503,rate-limit:2,rate-limit,delay:250,hang,reset:after,truncated,non-json,html-error:504,redirect:https://elsewhere.example/x',
      ),
    ).toEqual({
      path: '/submitPullRequest',
      faults: [
        { kind: 'status', status: 503 },
        { kind: 'rate-limit', retryAfterSeconds: 2 },
        { kind: 'rate-limit' },
        { kind: 'delay', ms: 250 },
        { kind: 'hang' },
        { kind: 'reset', afterHandling: true },
        { kind: 'truncated' },
        { kind: 'non-json' },
        { kind: 'html-error', status: 504 },
        { kind: 'redirect', location: 'https://elsewhere.example/x' },
      ],
    });
    for (const flag of [
      '/getQueue=explode',
      '/getQueue=status:abc',
      '/getQueue=delay:-5',
      'getQueue=hang',
      '/getQueue=',
      '/getQueue=reset:before',
    ]) {
      expect(() => parseFaultFlag(flag)).toThrow(
        new RegExp(`^--fault "${flag.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}": [^\n]+$`),
      );
    }
  });

  check('plans the faults of `npm run emulator -- --fault ...` before the first request', async () => {
    const cli = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'emulator/cli.ts',
        '--port',
        '0',
        '--token',
        TOKEN,
        '--fault',
        '/getQueue=status:503,rate-limit:7',
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        cli.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString('utf8');
          const match = /listening on (http:\/\/\S+)/.exec(out);
          if (match) resolve(match[1]!);
        });
        cli.once('exit', (code) => reject(new Error(`the emulator exited with ${code}`)));
      });
      const ask = () =>
        fetch(`${url}/getQueue`, {
          method: 'POST',
          headers: { 'x-api-token': TOKEN, 'content-type': 'application/json' },
          body: JSON.stringify({ repo: repoOf('cli'), targetBranch: BRANCH }),
        });
      const first = await ask();
      const second = await ask();
      const third = await ask();
      expect([first.status, second.status, second.headers.get('retry-after'), third.status]).toEqual([
        503,
        429,
        '7',
        404,
      ]);
    } finally {
      cli.kill();
    }
  });
});

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

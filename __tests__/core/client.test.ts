// The API client over real HTTP against the emulator, with faults injected through its control surface.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { ApiClient, RetryBudget, type ClientOptions } from '../../src/core/api/client.js';
import { ApiError } from '../../src/core/api/errors.js';
import type { Fault } from '../../emulator/faults.js';
import { startEmulator, type Emulator } from '../../emulator/server.js';
import { say } from '../../src/core/words.js';

const TOKEN = 'tok_client_test_5e3cret';
const repo = { host: 'github.com', owner: 'octo-org', name: 'octo-repo' };
const queue = { repo, targetBranch: 'main' };
const FAST_RETRIES = { baseDelayMs: 10, maxDelayMs: 50 };

let emulator: Emulator;

beforeAll(async () => {
  emulator = await startEmulator({ token: TOKEN });
  await client().call('createQueue', queue);
});

afterAll(async () => {
  await emulator.close();
});

function client(options: Partial<ClientOptions> = {}): ApiClient {
  return new ApiClient({
    baseUrl: emulator.url,
    token: TOKEN,
    deadlineMs: 10_000,
    retry: FAST_RETRIES,
    ...options,
  });
}

async function control(method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${new URL(emulator.url).origin}/_emulator${path}`, {
    method,
    headers: { 'x-api-token': TOKEN, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return response.json();
}

function planFaults(path: string, faults: Fault[]): Promise<unknown> {
  return control('POST', '/faults', { path, faults });
}

async function failureOf(call: Promise<unknown>): Promise<ApiError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('ApiClient against the emulator', () => {
  it('retries a 503 and then succeeds', async () => {
    await planFaults('/getQueue', [{ kind: 'status', status: 503, body: 'Service Unavailable' }]);
    const retries: string[] = [];
    const response = await client({ onRetry: (m) => retries.push(say(m)) }).call('getQueue', queue);
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ branch: 'main' });
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatch(
      /^getQueue: the API answered 503\. The service failed\. \(the service said: "Service Unavailable"\) Retrying in/,
    );
  });

  it('shares one budget of retries between the calls of a run, and says so when it is spent', async () => {
    const faults = Array.from({ length: 5 }, () => ({ kind: 'status', status: 503 }) as Fault);
    await planFaults('/getQueue', faults);
    const retryBudget = new RetryBudget(3);
    const retries: string[] = [];
    const run = client({ retryBudget, onRetry: (m) => retries.push(say(m)) });
    const failure = await failureOf(run.call('getQueue', queue));
    expect(failure.message).toContain('Gave up after 4 attempts: the run has made its 3 retries');
    expect(retries).toHaveLength(3);
    // The next call of the same run has no retry left: its first 503 is its last.
    expect((await failureOf(client({ retryBudget }).call('getQueue', queue))).message).toContain(
      'Gave up after 1',
    );
    await planFaults('/getQueue', []);
  });

  it('honours Retry-After on 429', async () => {
    await planFaults('/getQueue', [{ kind: 'rate-limit', retryAfterSeconds: 1 }]);
    const retries: string[] = [];
    const response = await client({ onRetry: (m) => retries.push(say(m)) }).call('getQueue', queue);
    expect(response.status).toBe(200);
    expect(retries).toEqual([expect.stringMatching(/answered 429.*Retrying in 1\.0s \(attempt 2\)/)]);
  });

  it('does not retry a 400', async () => {
    await planFaults('/getQueue', [
      { kind: 'status', status: 400, body: 'targetBranch is invalid' },
      { kind: 'status', status: 503 },
    ]);
    const retries: string[] = [];
    const error = await failureOf(client({ onRetry: (m) => retries.push(say(m)) }).call('getQueue', queue));
    expect(error.status).toBe(400);
    expect(error.toString()).toBe(
      'getQueue failed: the API answered 400. The service refused the request as invalid; check the inputs it names. (the service said: "targetBranch is invalid")',
    );
    expect(retries).toEqual([]);
    // The second planned fault was never reached: there was no second attempt.
    expect(await control('DELETE', '/faults')).toEqual({});
  });

  it('gives up at the deadline when the service hangs', async () => {
    await planFaults('/getQueue', [{ kind: 'hang' }, { kind: 'hang' }, { kind: 'hang' }, { kind: 'hang' }]);
    try {
      const error = await failureOf(
        client({ deadlineMs: 1200, retry: { ...FAST_RETRIES, attemptTimeoutMs: 400 } }).call(
          'getQueue',
          queue,
        ),
      );
      expect(error.kind).toBe('timeout');
      // The last attempt gets what is left of the deadline: 0.4 s, or less on a busy machine.
      expect(error.message).toMatch(
        /no complete answer within 0\.[1-4]s\. Gave up after \d attempts?\. .*raise timeout-seconds/,
      );
    } finally {
      await control('DELETE', '/faults');
    }
  });

  it.each([
    ['an empty body', '', undefined],
    ['{}', '{}', {}],
    ['plain OK', 'OK', undefined],
  ])('takes a 2xx with %s as success', async (_, body, json) => {
    await planFaults('/submitPullRequest', [{ kind: 'status', status: 200, body }]);
    const response = await client().call('submitPullRequest', { ...queue, pr: { number: 7 } });
    expect(response.status).toBe(200);
    expect(response.text).toBe(body);
    expect(response.json).toEqual(json);
  });

  it('shows a 401 plain-text body and says what to check, without the token', async () => {
    const error = await failureOf(client({ token: 'wrong-token' }).call('getQueue', queue));
    expect(error.status).toBe(401);
    expect(error.toString()).toMatch(
      /^getQueue failed: the API answered 401\. Check that api-token holds .*\(the service said: "Unauthorized"\)$/,
    );
    expect(error.toString()).not.toContain('wrong-token');
  });

  it('does not follow a redirect, so the token never reaches another host', async () => {
    const seen: string[] = [];
    const elsewhere: Server = createServer((request, response) => {
      seen.push(String(request.headers['x-api-token']));
      response.end('{}');
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    const { port } = elsewhere.address() as AddressInfo;
    try {
      await planFaults('/getQueue', [{ kind: 'redirect', location: `http://127.0.0.1:${port}/v1/getQueue` }]);
      const error = await failureOf(client().call('getQueue', queue));
      expect(error.kind).toBe('redirect');
      expect(error.message).toMatch(
        /answered 307 redirecting to another address, which is not followed.*\(the service said: "Location: http:\/\/127\.0\.0\.1:\d+\/v1\/getQueue"\)$/,
      );
      expect(seen).toEqual([]);
    } finally {
      elsewhere.close();
    }
  });

  it('fails clearly, after retrying, when the connection drops mid-answer', async () => {
    await planFaults('/getQueue', [{ kind: 'truncated' }, { kind: 'reset' }]);
    const retries: string[] = [];
    const response = await client({ onRetry: (m) => retries.push(say(m)) }).call('getQueue', queue);
    expect(response.status).toBe(200);
    expect(retries).toHaveLength(2);
    expect(retries[0]).toMatch(
      /could not reach the API \(the connection closed before the whole answer arrived\)/,
    );
  });

  it('sends the token header and a user agent carrying the version', async () => {
    const seen: Record<string, string | string[] | undefined>[] = [];
    const recorder: Server = createServer((request, response) => {
      seen.push(request.headers);
      response.end('{}');
    });
    await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
    const { port } = recorder.address() as AddressInfo;
    try {
      await client({ baseUrl: `http://127.0.0.1:${port}/v1` }).call('submitPullRequest', {
        ...queue,
        pr: { number: 1 },
      });
      const version = JSON.parse(readFileSync('package.json', 'utf8')).version;
      expect(seen).toEqual([
        expect.objectContaining({
          'user-agent': `merge-queue-action/${version}`,
          'x-api-token': TOKEN,
          'content-type': 'application/json',
        }),
      ]);
    } finally {
      recorder.close();
    }
  });

  it('speaks TLS to an https api-url, so the token never crosses the wire in the clear', async () => {
    const received: Buffer[] = [];
    // A bare socket server: it records what arrives and closes, so the TLS handshake never completes.
    const listener = createTcpServer((socket) => {
      socket.once('data', (chunk: Buffer) => {
        received.push(chunk);
        socket.destroy();
      });
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const { port } = listener.address() as AddressInfo;
    try {
      const call = client({ baseUrl: `https://127.0.0.1:${port}/v1`, deadlineMs: 1_000 }).call(
        'getQueue',
        queue,
      );
      expect((await failureOf(call)).kind).toMatch(/network|timeout/);
      expect(received.length).toBeGreaterThan(0);
      // 0x16: a TLS handshake record (a ClientHello), not an HTTP request line.
      expect(received.every((chunk) => chunk[0] === 0x16)).toBe(true);
      expect(Buffer.concat(received).includes(TOKEN)).toBe(false);
    } finally {
      listener.close();
    }
  });
});

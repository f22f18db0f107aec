// set-impacted-targets sends a large targets file while it checks it (early-upload.ts). What the server
// gets when the file is right, when the list it makes differs from the file (duplicates, spaces), when a
// target near the end is bad (never a whole body), and when the server answers before the body is whole
// or drops the connection mid-body (the checked body is sent again, as retries always did).
import { afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiClient, type ClientOptions } from '../../src/core/api/client.js';
import type { ResolvedContext } from '../../src/core/context.js';
import {
  EARLY_MIN_BYTES,
  startEarlyUpload,
} from '../../src/core/operations/impacted-targets/early-upload.js';
import { contextOf, errorOf, prepareFrom, startPrepared } from '../helpers/prepare.js';
import { useEmulator } from '../helpers/emulator.js';
import { targetsFiles } from '../helpers/targets-files.js';
import { say } from '../../src/core/words.js';

const emu = useEmulator();
const REPO = { host: 'github.com', owner: 'acme', name: 'early' };
const FAST_RETRIES = { baseDelayMs: 10, maxDelayMs: 20 };

const targetsFile = targetsFiles('.json');

/** Different targets making a compact JSON array of about twice the size sent early. */
function manyTargets(): string[] {
  const targets: string[] = [];
  for (let bytes = 0, i = 0; bytes < 2 * EARLY_MIN_BYTES; i++) {
    const target = `//services/s${i % 7}/module_${i}:lib`;
    targets.push(target);
    bytes += target.length + 3;
  }
  return targets;
}

let nextPr = 700;
function pullRequest(): ResolvedContext {
  const prNumber = ++nextPr;
  return contextOf({
    repo: REPO,
    prNumber,
    headSha: `${prNumber}`.padStart(40, 'e'),
    targetBranch: 'main',
    trigger: 'pull_request',
  });
}

/** The body the action sends for `targets`, as JSON.stringify writes it. */
function expectedBody(context: ResolvedContext, targets: string[]): string {
  return JSON.stringify({
    repo: context.repo,
    targetBranch: context.targetBranch,
    pr: { number: context.prNumber, sha: context.headSha },
    impactedTargets: targets,
  });
}

/** Runs the operation in-process against `baseUrl`, retrying fast; retry lines go to `infos` too. */
async function upload(baseUrl: string, file: string, context: ResolvedContext) {
  const retries: string[] = [];
  const prepared = prepareFrom({
    operation: 'set-impacted-targets',
    'api-url': baseUrl,
    'api-token': 'early-token',
    'impacted-targets-file': file,
  });
  const clientOptions: ClientOptions = {
    baseUrl: prepared.common.apiUrl,
    token: prepared.common.apiToken,
    deadlineMs: 10_000,
    retry: FAST_RETRIES,
    onRetry: (line) => retries.push(say(line)),
  };
  const run = await startPrepared(prepared, context, clientOptions);
  return { ...run, retries };
}

// ---------------------------------------------------------------------------------------------------
// A server that plays the service at its worst, one way per request, recording what each request brought.

type Way =
  /** Reads the whole body, then answers 200 `{}`. */
  | 'accept'
  /** Answers at once, before the body, then reads what comes. */
  | { answersEarly: number }
  /** Drops the connection once part of the body has come. */
  | 'reset';

interface Received {
  declared: number;
  bytes: number;
  /** The body, when all the declared bytes came. */
  whole?: string;
  /** The request's connection is gone or its body ended. */
  over: boolean;
}

let server: Server | undefined;
afterEach(async () => {
  // A connection the client keeps alive would hold close() for the server's keep-alive timeout.
  server?.closeAllConnections();
  await new Promise((done) => (server ? server.close(done) : done(undefined)));
  server = undefined;
});

/** Starts the server; request n meets ways[n] (the last way for the rest). Its base URL and records. */
async function hostileServer(ways: Way[]): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const way = ways[Math.min(received.length, ways.length - 1)] as Way;
    const record: Received = { declared: Number(request.headers['content-length']), bytes: 0, over: false };
    request.on('close', () => (record.over = true));
    received.push(record);
    const chunks: Buffer[] = [];
    if (typeof way === 'object') {
      response.writeHead(way.answersEarly, { 'content-type': 'application/json' }).end('{}');
    }
    request.on('data', (chunk: Buffer) => {
      record.bytes += chunk.length;
      chunks.push(chunk);
      if (way === 'reset' && record.bytes >= 256 * 1024) request.socket.destroy();
    });
    request.on('end', () => {
      if (record.bytes === record.declared) record.whole = Buffer.concat(chunks).toString('utf8');
      if (way === 'accept') response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((listening) => server!.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, received };
}

// ---------------------------------------------------------------------------------------------------

describe('a large targets file against the emulator', () => {
  /** The declared length of each set-impacted-targets request the emulator began to receive. */
  let declared: number[] = [];
  beforeAll(() => {
    emu.current.app.server.on('request', (request: IncomingMessage) => {
      if (request.url?.endsWith('/setImpactedTargets'))
        declared.push(Number(request.headers['content-length']));
    });
  });
  afterEach(() => {
    declared = [];
  });

  function stored(context: ResolvedContext) {
    return emu.current.engine.core
      .pullRequest(REPO, context.prNumber ?? 0)
      .targetsBySha.get(context.headSha ?? '');
  }

  async function uploadToEmulator(file: string, context: ResolvedContext) {
    const prepared = prepareFrom({
      operation: 'set-impacted-targets',
      'api-url': emu.current.url,
      'api-token': emu.current.token,
      'impacted-targets-file': file,
    });
    return startPrepared(prepared, context, {
      baseUrl: prepared.common.apiUrl,
      token: prepared.common.apiToken,
      deadlineMs: 10_000,
    });
  }

  it('sends a compact file as it is, in one request, with the same line as ever', async () => {
    const pr = pullRequest();
    const targets = manyTargets();
    const body = expectedBody(pr, targets);

    const run = await uploadToEmulator(targetsFile(`${JSON.stringify(targets)}\n`), pr);

    expect(stored(pr)).toEqual(targets);
    expect(declared).toEqual([Buffer.byteLength(body)]);
    expect(run.outputs['impacted-targets-count']).toBe(targets.length);
    expect(run.infos).toEqual([
      `Uploading ${targets.length.toLocaleString('en-US')} impacted targets for PR #${pr.prNumber} at ${pr.headSha}: ${Buffer.byteLength(body)} bytes, authenticated by api-token.`,
    ]);
  });

  it('sends the list without the duplicates when the last target repeats the first', async () => {
    const pr = pullRequest();
    const targets = manyTargets();
    const file = targetsFile(JSON.stringify([...targets, targets[0]]));

    const run = await uploadToEmulator(file, pr);

    expect(stored(pr)).toEqual(targets);
    // The request sized by the file was withdrawn; the checked list went in a second one.
    const sent = Buffer.byteLength(expectedBody(pr, targets));
    expect(declared).toEqual([sent + targets[0]!.length + 3, sent]);
    expect(run.outputs['impacted-targets-count']).toBe(targets.length);
  });

  it('sends the compact list when the file spells it with spaces', async () => {
    const pr = pullRequest();
    const targets = manyTargets();

    await uploadToEmulator(targetsFile(JSON.stringify(targets, null, 1)), pr);

    expect(stored(pr)).toEqual(targets);
    expect(declared.at(-1)).toBe(Buffer.byteLength(expectedBody(pr, targets)));
  });
});

describe('a bad target near the end of a large file', () => {
  it('fails as it always did, and the server never gets a whole body', async () => {
    const { url, received } = await hostileServer(['accept']);
    const targets = manyTargets();
    const file = targetsFile(`[${targets.map((target) => JSON.stringify(target)).join(',')},7]`);

    const error = await errorOf(upload(url, file, pullRequest()));

    expect(error.message).toBe(
      `Input "impacted-targets-file": in "${file}", entry ${targets.length + 1} of the JSON array is the number 7, not a string. Give every target as a string, e.g. ["//app:server", "//lib:util"].`,
    );
    expect(received.length).toBeLessThanOrEqual(1);
    for (const request of received) {
      expect(request.whole).toBeUndefined();
      expect(request.bytes).toBeLessThan(request.declared);
    }
  });

  it('fails on an invalid escape even when the server answers 200 at once', async () => {
    const { url, received } = await hostileServer([{ answersEarly: 200 }]);
    const targets = manyTargets();
    const file = targetsFile(`${JSON.stringify(targets).slice(0, -1)},"//bad:\\q"]`);

    const error = await errorOf(upload(url, file, pullRequest()));

    expect(error.message).toMatch(/^Input "impacted-targets-file": ".*" is not valid JSON \(/);
    expect(received.length).toBeLessThanOrEqual(1);
    expect(received.filter((request) => request.whole !== undefined)).toEqual([]);
  });
});

describe('a server that does not wait for the body', () => {
  it('answers 503 before the body: the checked body is sent again, whole', async () => {
    const { url, received } = await hostileServer([{ answersEarly: 503 }, 'accept']);
    const pr = pullRequest();
    const targets = manyTargets();

    const run = await upload(url, targetsFile(JSON.stringify(targets)), pr);

    expect(run.outputs['impacted-targets-sent']).toBe('list');
    expect(run.retries).toHaveLength(1);
    expect(run.retries[0]).toMatch(/^setImpactedTargets: .*503.* Retrying in \d+\.\ds \(attempt 2\)\.$/);
    expect(received).toHaveLength(2);
    expect(received[1]!.whole).toBe(expectedBody(pr, targets));
  });

  it('drops the connection mid-body: the checked body is sent again, whole', async () => {
    const { url, received } = await hostileServer(['reset', 'accept']);
    const pr = pullRequest();
    const targets = manyTargets();

    const run = await upload(url, targetsFile(JSON.stringify(targets)), pr);

    expect(run.outputs['impacted-targets-count']).toBe(targets.length);
    expect(run.retries).toHaveLength(1);
    expect(received).toHaveLength(2);
    expect(received[0]!.whole).toBeUndefined();
    expect(received[1]!.whole).toBe(expectedBody(pr, targets));
  });

  it('answers 401 before the body: the call fails with that answer once the file is checked', async () => {
    const { url, received } = await hostileServer([{ answersEarly: 401 }]);

    const error = await errorOf(upload(url, targetsFile(JSON.stringify(manyTargets())), pullRequest()));

    expect(error.message).toMatch(/401/);
    expect(received).toHaveLength(1);
  });
});

/** Waits for what the server records, looking every few milliseconds; gives up after a few seconds. */
async function eventually(condition: () => boolean): Promise<void> {
  for (let looks = 0; !condition(); looks++) {
    if (looks === 1000) throw new Error('the server never got there');
    await new Promise((next) => setTimeout(next, 5));
  }
}

describe('the early upload itself', () => {
  const context = pullRequest();
  const envelope = {
    repo: context.repo,
    targetBranch: 'main',
    pr: { number: context.prNumber!, sha: context.headSha! },
  };
  const targets = manyTargets();
  const content = Buffer.from(JSON.stringify(targets));
  const client = (url: string) => new ApiClient({ baseUrl: url, token: 'early-token', deadlineMs: 10_000 });

  it('sends all but the last byte before it is told to, then the whole body', async () => {
    const { url, received } = await hostileServer(['accept']);
    const early = startEarlyUpload(client(url), envelope, content)!;

    await eventually(() => received[0] !== undefined && received[0].bytes === received[0].declared - 1);
    expect(received[0]!.whole).toBeUndefined();
    const answer = await early.send();

    expect(answer.status).toBe(200);
    expect(received).toHaveLength(1);
    expect(received[0]!.whole).toBe(expectedBody(context, targets));
  });

  it('once withdrawn, destroys the request: the server never gets its last byte', async () => {
    const { url, received } = await hostileServer(['accept']);
    const early = startEarlyUpload(client(url), envelope, content)!;
    await eventually(() => received[0] !== undefined && received[0].bytes === received[0].declared - 1);

    await early.withdraw();
    await eventually(() => received[0]!.over);

    expect(received).toHaveLength(1);
    expect(received[0]!.whole).toBeUndefined();
  });

  it('is not started for a small file, nor for one that is not a JSON array', () => {
    const small = Buffer.from(JSON.stringify(targets.slice(0, 10)));
    const lines = Buffer.from(targets.join('\n'));
    expect(startEarlyUpload(client('http://127.0.0.1:9/v1'), envelope, small)).toBeUndefined();
    expect(startEarlyUpload(client('http://127.0.0.1:9/v1'), envelope, lines)).toBeUndefined();
  });
});

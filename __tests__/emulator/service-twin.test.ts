// The emulator as a twin of the service: every path of the spec served, and each place where it used to
// answer differently from the service, with the service's behaviour. (Every 200 answer and webhook of
// every test is also checked against the spec itself: see helpers/spec-conformance.ts.)
import { describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { promisify } from 'node:util';
import { MAX_BODY_BYTES } from '../../src/wire/index.js';
import { QueueDriver, request, useEmulator } from '../helpers/emulator.js';
import { spec } from '../helpers/openapi.js';
import { example } from '../helpers/webhook-examples.js';

let fakeNow = Date.UTC(2025, 0, 6, 9);
const emu = useEmulator({ deviceAuth: { expiresInSeconds: 600, intervalSeconds: 5, now: () => fakeNow } });
const run = promisify(execFile);
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('every path of the spec', () => {
  it('is served: no documented path answers Not Found for want of a route', async () => {
    const queue = new QueueDriver(emu, 'twin/paths');
    await queue.create();
    const unserved: string[] = [];
    for (const [path, methods] of Object.entries(spec().paths)) {
      for (const method of Object.keys(methods)) {
        const url = `${emu.current.url}${path}`;
        const answer =
          method === 'get'
            ? await request(url, 'GET', undefined, { 'x-api-token': emu.current.token })
            : await request(url, 'POST', {}, { 'x-api-token': emu.current.token });
        // An empty body is refused (400) by every endpoint that takes one; a missing route is 404.
        if (answer.status === 404 && answer.text === 'Not Found') unserved.push(`${method} ${path}`);
      }
    }
    expect(unserved).toEqual([]);
  });

  it('GET /status reports every component up, without a token', async () => {
    const answer = await request(`${emu.current.url}/status`, 'GET', undefined, {});
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({
      overallStatus: { type: 'up', color: 'green', overallStatusDescription: 'All systems operational' },
      statuses: expect.arrayContaining([expect.objectContaining({ name: 'Merge Queue', color: 'green' })]),
    });
  });

  it('create-ci-run records the run, which the flaky-tests side then shows', async () => {
    const run = {
      repo: { host: 'github.com', owner: 'twin', name: 'ci' },
      org_url_slug: 'twin',
      ci_job_name: 'unit tests',
      provider: 'GITHUB',
      run_start: '2025-01-06T08:00:00Z',
      run_end: '2025-01-06T08:12:00Z',
      branch: 'main',
      sha: 'a1b2c3',
      attempt: 1,
      run_conclusion: 'failure',
      run_conclusion_cause: 'test',
    };
    const answer = await emu.api<{ run_id: string }>('/flaky-ci/create-ci-run', run);
    expect(answer.status).toBe(200);
    expect(answer.json.run_id).toMatch(/^[0-9a-f-]{36}$/);
    const listed = await emu.control<{ runs: Record<string, unknown>[] }>(
      'GET',
      '/flaky-tests/ci-runs?repo=twin/ci',
    );
    expect(listed.json.runs).toEqual([
      expect.objectContaining({ run_id: answer.json.run_id, ci_job_name: 'unit tests', provider: 'github' }),
    ]);
    const backwards = await emu.api('/flaky-ci/create-ci-run', { ...run, run_end: '2025-01-06T07:00:00Z' });
    expect([backwards.status, backwards.text]).toEqual([400, 'run_end must not be before run_start']);
  });
});

describe('device login', () => {
  const initiate = async () =>
    (
      await request<{
        deviceCode: string;
        userCode: string;
        verificationUriComplete: string;
        interval: number;
      }>(`${emu.current.url}/device-auth/initiate`, 'POST', {}, {})
    ).json;
  const poll = (deviceCode: string) =>
    request<{ status: string; sealedSession?: string; interval?: number }>(
      `${emu.current.url}/device-auth/tokens`,
      'POST',
      { deviceCode },
      {},
    );
  const decide = (userCode: string, approve: boolean) =>
    request(`${emu.current.origin}/device/decision`, 'POST', { userCode, approve }, {});

  it('issues a session after the person approves, which the emulator then accepts as a token', async () => {
    const login = await initiate();
    expect(login.verificationUriComplete).toBe(
      `${emu.current.origin}/device?user_code=${encodeURIComponent(login.userCode)}`,
    );
    const page = await request(login.verificationUriComplete, 'GET', undefined, {});
    expect([page.status, page.contentType]).toEqual([200, 'text/html; charset=utf-8']);

    expect((await poll(login.deviceCode)).json).toEqual({ status: 'pending' });
    expect((await poll(login.deviceCode)).json).toEqual({ status: 'slow_down', interval: 10 });
    expect((await decide(login.userCode, true)).status).toBe(200);
    fakeNow += 10_000;
    const done = (await poll(login.deviceCode)).json;
    expect(done.status).toBe('success');

    const queue = { repo: { host: 'github.com', owner: 'twin', name: 'login' }, targetBranch: 'main' };
    const asToken = await request(`${emu.current.url}/createQueue`, 'POST', queue, {
      'x-api-token': done.sealedSession!,
    });
    expect(asToken.status).toBe(200);
    const asBearer = await request(`${emu.current.url}/getQueue`, 'POST', queue, {
      authorization: `Bearer ${done.sealedSession!}`,
    });
    expect(asBearer.status).toBe(200);
    expect((await poll(login.deviceCode)).status).toBe(400);
    const forged = await request(`${emu.current.url}/getQueue`, 'POST', queue, { 'x-api-token': 'sealed_x' });
    expect(forged.status).toBe(401);
  });

  it('answers denied when the person denies, and expired once the code has lived its time', async () => {
    const denied = await initiate();
    expect((await decide(denied.userCode, false)).status).toBe(200);
    expect((await poll(denied.deviceCode)).json).toEqual({ status: 'denied' });

    const late = await initiate();
    fakeNow += 601_000;
    expect((await poll(late.deviceCode)).json).toEqual({ status: 'expired' });
    expect((await decide(late.userCode, true)).status).toBe(404);
  });
});

describe('identity and pushes', () => {
  it('says "unknown" for what nobody told it, rather than making up a sha, title or author', async () => {
    const queue = new QueueDriver(emu, 'twin/identity');
    await queue.create();
    await queue.submit(1);
    expect(await queue.pr(1)).toMatchObject({ prSha: 'unknown', prTitle: 'unknown', prAuthor: 'unknown' });
    await queue.targets(1, 'feedc0de', ['//a']);
    expect(await queue.pr(1)).toMatchObject({ prSha: 'feedc0de', prTitle: 'unknown' });
  });

  it('takes a PR head sha, title and author from the GitHub event', async () => {
    const payload = example('pull_request', (p) => p.action === 'opened');
    const [owner, name] = payload.repository.full_name.split('/') as [string, string];
    const seeded = await request(`${emu.current.origin}/_emulator/github/events`, 'POST', payload, {
      'x-api-token': emu.current.token,
      'x-github-event': 'pull_request',
    });
    expect(seeded.status).toBe(200);
    const queue = new QueueDriver(emu, `${owner}/${name}`, payload.pull_request.base.ref);
    await queue.create();
    await queue.submit(payload.pull_request.number);
    expect(await queue.pr(payload.pull_request.number)).toMatchObject({
      prSha: payload.pull_request.head.sha,
      prTitle: payload.pull_request.title,
      prAuthor: payload.pull_request.user.login,
    });
  });

  it('cancels a queued PR pushed to (a new head sha), with PR_PUSHED_TO, as the service does', async () => {
    const queue = new QueueDriver(emu, 'twin/pushed');
    await queue.create();
    await queue.setPr(1, { headSha: 'aaaa' });
    await queue.submit(1);
    await queue.submit(2);
    expect(await queue.states(1, 2)).toEqual({ 1: 'testing', 2: 'pending' });
    await queue.setPr(1, { headSha: 'bbbb' });
    expect(await queue.states(1, 2)).toEqual({ 1: 'cancelled', 2: 'testing' });
    const cancelled = (await queue.history()).find((e) => e.prNumber === 1 && e.to === 'cancelled');
    expect(cancelled?.reason).toBe('PR_PUSHED_TO');
  });
});

describe('bad and unknown input', () => {
  it('accepts priority null, which the spec allows, as the default priority', async () => {
    const queue = new QueueDriver(emu, 'twin/priority');
    await queue.create();
    const answer = await emu.api('/submitPullRequest', {
      repo: queue.repo,
      targetBranch: 'main',
      pr: { number: 3 },
      priority: null,
    });
    expect(answer.status).toBe(200);
    expect(await queue.pr(3)).toMatchObject({ priorityName: 'medium', priorityValue: 100 });
  });

  it('answers 400, not 404, for ids that are not uuids', async () => {
    const repo = { host: 'github.com', owner: 'twin', name: 'ids' };
    const answers = [
      await emu.api('/listPullRequests', { repo, targetBranch: 'main', cursor: 'page-2' }),
      await emu.api('/flaky-tests/get-test-details', { repo, org_url_slug: 'twin', test_id: 't-1' }),
      await emu.api('/flaky-tests/link-ticket-to-test-case', {
        repo,
        test_case_id: 't-1',
        external_ticket_id: 'KAN-1',
      }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(answer.text).toMatch(/must match format "uuid"/);
    }
  });

  it('keeps a listPullRequests cursor good after its row changed state', async () => {
    const queue = new QueueDriver(emu, 'twin/cursor');
    await queue.create({ concurrency: 5 });
    for (const pr of [1, 2, 3, 4]) await queue.submit(pr);
    const list = (body: Record<string, unknown>) =>
      emu.api<{ pullRequests: { prNumber: number }[]; nextCursor?: string }>('/listPullRequests', {
        repo: queue.repo,
        targetBranch: 'main',
        state: 'testing',
        take: 2,
        ...body,
      });
    const first = await list({});
    expect(first.json.pullRequests.map((p) => p.prNumber)).toEqual([1, 2]);
    await queue.cancel(2);
    const second = await list({ cursor: first.json.nextCursor });
    expect(second.status).toBe(200);
    expect(second.json.pullRequests.map((p) => p.prNumber)).toEqual([3, 4]);
    const unknown = await list({ cursor: uuid(99) });
    expect(unknown.status).toBe(400);
  });

  it('answers a body over 20 MiB with a 413 every client reads, in 10 of 10 tries', async () => {
    // A client in a process of its own that sends the whole body before it reads (as Python's urllib and,
    // in some tries, @actions/http-client do) met EPIPE instead of the 413 when the emulator answered
    // early and closed.
    const outcomes = await postLargeFromAnotherProcess(`${emu.current.url}/setImpactedTargets`, 10);
    expect(outcomes).toEqual(
      Array(10).fill('413 Request body too large: the limit is 20971520 bytes (20 MiB)'),
    );
    // Node's own client with a chunked body (no length declared) gets it too.
    const body = Buffer.alloc(MAX_BODY_BYTES + 2 * 1024 * 1024, 0x20);
    expect(await postChunked(body)).toBe(outcomes[0]);
  });
});

// A client that sends the whole request before it reads anything (as many do): if the server answers
// early and closes with the body still coming, the kernel resets the connection and the answer is lost.
const LARGE_POSTER = `
import { connect } from 'node:net';
const [url, token, tries, size] = process.argv.slice(1);
const { hostname, port, pathname } = new URL(url);
const body = Buffer.alloc(Number(size), 0x20);
const once = () =>
  new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    const chunks = [];
    socket.pause();
    socket.on('error', (error) => resolve('error: ' + error.code));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString();
      const status = text.split(' ')[1];
      resolve(status + ' ' + text.slice(text.indexOf('\\r\\n\\r\\n') + 4));
    });
    const head = 'POST ' + pathname + ' HTTP/1.1\\r\\nHost: ' + hostname + '\\r\\nx-api-token: ' + token +
      '\\r\\ncontent-type: application/json\\r\\nconnection: close\\r\\ncontent-length: ' + body.length + '\\r\\n\\r\\n';
    socket.write(head);
    socket.end(body, () => socket.resume());
  });
for (let i = 0; i < Number(tries); i++) console.log(await once());
`;

/** POSTs a body over the limit `tries` times with @actions/http-client from a child process. */
async function postLargeFromAnotherProcess(url: string, tries: number): Promise<string[]> {
  const size = 2 * MAX_BODY_BYTES;
  const { stdout } = await run(process.execPath, [
    '--input-type=module',
    '-e',
    LARGE_POSTER,
    url,
    emu.current.token,
    String(tries),
    String(size),
  ]);
  return stdout.trim().split('\n');
}

/** POSTs `body` chunked with node's own client; the status and body it read, or the error it met. */
function postChunked(body: Buffer): Promise<string> {
  const chunked = true;
  const url = new URL(`${emu.current.url}/setImpactedTargets`);
  return new Promise((resolve) => {
    const req = httpRequest(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-api-token': emu.current.token,
          ...(chunked ? {} : { 'content-length': String(body.length) }),
        },
        agent: false,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve(`${res.statusCode} ${text}`));
        res.on('error', (error) => resolve(`error while reading: ${error.message}`));
      },
    );
    req.on('error', (error) => resolve(`error: ${error.message}`));
    if (chunked) {
      const piece = 1024 * 1024;
      for (let at = 0; at < body.length; at += piece) req.write(body.subarray(at, at + piece));
      req.end();
    } else req.end(body);
  });
}

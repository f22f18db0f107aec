// Issue 25, row 17: the emulator answers only Host names it knows (loopback, the address it binds to,
// --allow-host), so a web page cannot reach it through DNS rebinding, and refuses writes a browser sends
// from another origin. Raw node:http requests, since fetch does not let a caller choose the Host header.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { request as httpRequest } from 'node:http';
import { startEmulator, type Emulator } from '../../emulator/server.js';

const TOKEN = 'emulator-token';

interface Answer {
  status: number;
  text: string;
  headers: Record<string, string | string[] | undefined>;
}

function send(
  emulator: Emulator,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<Answer> {
  const { port } = new URL(emulator.origin);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: {
          'x-api-token': TOKEN,
          ...(payload ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            text: Buffer.concat(chunks).toString('utf8'),
            headers: res.headers,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('the emulator and the Host it is asked for', () => {
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = await startEmulator({ allowHosts: ['emulator.internal'] });
  });
  afterAll(() => emulator.close());

  it('refuses a rebinding name with 421 and one line, even with the default token', async () => {
    for (const host of [
      'attacker.example',
      'attacker.example:80',
      `attacker.example:${new URL(emulator.origin).port}`,
    ]) {
      const state = await send(emulator, 'GET', '/_emulator/state', { host });
      expect(state.status).toBe(421);
      expect(state.text).toMatch(/^Host "attacker\.example(:\d+)?" is not served here: .*--allow-host/);
      expect(state.text).not.toContain('\n');
      const api = await send(
        emulator,
        'POST',
        '/v1/getQueue',
        { host },
        { repo: { host: 'github.com', owner: 'o', name: 'r' }, targetBranch: 'main' },
      );
      expect(api.status).toBe(421);
    }
    expect((await send(emulator, 'GET', '/', { host: 'localhost.attacker.example' })).status).toBe(421);
  });

  it('answers loopback names with any port, and the names given with allowHosts', async () => {
    const port = new URL(emulator.origin).port;
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      '[::1]:9',
      'LOCALHOST',
      'emulator.internal:8080',
    ]) {
      const state = await send(emulator, 'GET', '/_emulator/state', { host });
      expect({ host, status: state.status }).toEqual({ host, status: 200 });
    }
  });

  it('refuses a write from another origin, takes one from its own page and from clients that are not browsers', async () => {
    const host = new URL(emulator.origin).host;
    const advance = (headers: Record<string, string>) =>
      send(emulator, 'POST', '/_emulator/clock/advance', { host, ...headers }, { minutes: 1 });
    const evil = await advance({ origin: 'http://evil.example' });
    expect(evil.status).toBe(403);
    expect(evil.text).toBe(
      'Refused: a POST from origin "http://evil.example"; the emulator takes writes only from its own page and from clients that are not browsers.',
    );
    expect((await advance({ 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await advance({ 'sec-fetch-site': 'same-site', origin: `http://${host}` })).status).toBe(403);
    expect((await send(emulator, 'DELETE', '/_emulator/faults', { host, origin: 'null' })).status).toBe(403);
    // Its own page, and curl or the action.
    expect((await advance({ origin: `http://${host}`, 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    expect((await advance({})).status).toBe(200);
    // A cross-site read stays a read: the page's state is still served (a browser keeps it from the page).
    expect(
      (await send(emulator, 'GET', '/_emulator/state', { host, origin: 'http://evil.example' })).status,
    ).toBe(200);
  });

  // Issue 41, item 8: a site that frames the page could trick a click on Pass, Pause or Push.
  it('tells a browser that no site may frame its page', async () => {
    const host = new URL(emulator.origin).host;
    for (const path of ['/', '/ui/page.js', '/ui/page.css']) {
      const page = await send(emulator, 'GET', path, { host });
      expect(page.status).toBe(200);
      expect({ path, csp: page.headers['content-security-policy'] }).toEqual({
        path,
        csp: "frame-ancestors 'none'",
      });
      expect({ path, frame: page.headers['x-frame-options'] }).toEqual({ path, frame: 'DENY' });
    }
  });
});

describe('the emulator bound to a name', () => {
  it('answers the address it binds to', async () => {
    const emulator = await startEmulator({ host: 'localhost' });
    try {
      const port = new URL(emulator.origin).port;
      expect((await send(emulator, 'GET', '/_emulator/state', { host: `localhost:${port}` })).status).toBe(
        200,
      );
      expect((await send(emulator, 'GET', '/_emulator/state', { host: 'evil.example' })).status).toBe(421);
    } finally {
      await emulator.close();
    }
  });
});

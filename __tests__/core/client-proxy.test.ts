// The client honours the pipeline's proxy variables, given through ClientOptions (core never reads
// process.env): Node 24, which runs the action, applies them in its own http.Agent (`proxyEnv`); Node 20
// ignores them and connects directly. The probe runs under Node 24 wherever one is found (helpers/tools.ts).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { toolsFor } from '../helpers/tool-gate.js';
import { TOOLS } from '../helpers/tools.js';

const run = promisify(execFile);
const node = TOOLS.node24().path ?? process.execPath;
let proxy: Server;
let target: Server;
let proxyUrl: string;
let targetUrl: string;
const proxied: string[] = [];

beforeAll(async () => {
  proxy = createServer((request, response) => {
    proxied.push(`${request.method} ${request.url} token=${String(request.headers['x-api-token'])}`);
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"via":"proxy"}');
  });
  target = createServer((request, response) => {
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"via":"direct"}');
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  targetUrl = `http://localhost:${(target.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  await new Promise((resolve) => proxy.close(resolve));
  await new Promise((resolve) => target.close(resolve));
});

async function probe(settings: Record<string, string>): Promise<{ answer: string; major: number }> {
  const script = ['--import', 'tsx', '__tests__/helpers/proxy-probe.ts', targetUrl, JSON.stringify(settings)];
  const [{ stdout }, version] = await Promise.all([
    run(node, script, { timeout: 30_000 }),
    run(node, ['--version']),
  ]);
  return { answer: stdout, major: Number(/^v(\d+)/.exec(version.stdout)![1]) };
}

describe('proxy variables through ClientOptions', () => {
  it('go through HTTP_PROXY on Node 24 (directly on older Node, which has no proxyEnv)', async () => {
    toolsFor([TOOLS.node24()], 'the proxy on Node 24 (this Node connects directly)');
    proxied.length = 0;
    const { answer, major } = await probe({ HTTP_PROXY: proxyUrl });
    if (major >= 24) {
      expect(answer).toBe('{"via":"proxy"}');
      expect(proxied).toEqual([`POST ${targetUrl}/submitPullRequest token=tok_proxy_probe`]);
    } else {
      expect(answer).toBe('{"via":"direct"}');
    }
  }, 60_000);

  it('leave hosts in NO_PROXY alone', async () => {
    proxied.length = 0;
    const { answer } = await probe({ HTTP_PROXY: proxyUrl, NO_PROXY: 'localhost' });
    expect(answer).toBe('{"via":"direct"}');
    expect(proxied).toEqual([]);
  }, 60_000);
});

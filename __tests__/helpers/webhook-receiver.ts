// A local webhook receiver for tests (node:http on 127.0.0.1, a free port) and the call that registers
// it with the emulator. The receiver keeps every delivery it accepts, headers and raw body, so a test can
// verify signatures with the svix package.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EmulatorHandle } from './emulator.js';

export interface Received {
  headers: Record<string, string>;
  body: string;
  payload: Record<string, unknown> & { type: string };
}

/** A webhook receiver that answers 500 to the first `failures` requests of each message. */
export class Receiver {
  readonly received: Received[] = [];
  failures = 0;
  private readonly attemptsById = new Map<string, number>();
  private server: Server | undefined;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const id = String(req.headers['svix-id']);
        const attempt = (this.attemptsById.get(id) ?? 0) + 1;
        this.attemptsById.set(id, attempt);
        if (attempt <= this.failures) {
          res.writeHead(500).end('receiver is down');
          return;
        }
        const body = Buffer.concat(chunks).toString('utf8');
        this.received.push({
          headers: req.headers as Record<string, string>,
          body,
          payload: JSON.parse(body),
        });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/hooks`;
  }

  attemptsOf(id: string): number {
    return this.attemptsById.get(id) ?? 0;
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

/** Registers `url` through `POST /_emulator/webhooks`; answers the endpoint's id and signing secret. */
export async function registerWebhook(
  emulator: EmulatorHandle,
  url: string,
  eventTypes?: string[],
): Promise<{ id: string; secret: string }> {
  const answer = await emulator.control<{ id: string; secret: string }>('POST', '/webhooks', {
    url,
    ...(eventTypes ? { eventTypes } : {}),
  });
  if (answer.status !== 200) throw new Error(`registering a webhook: ${answer.status} ${answer.text}`);
  return answer.json;
}

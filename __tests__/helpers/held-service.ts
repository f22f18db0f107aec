// A service that takes every request and never answers it: it keeps each one open and notes when the
// client closes it. Enough to see whether a caller that gave up stops its work (closes what it has in
// flight, sends nothing more) without a clock in the test.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HeldRequest {
  path: string;
  /** Resolves when the client has closed the request's connection. */
  closed: Promise<void>;
  isClosed: () => boolean;
}

export class HeldService {
  readonly requests: HeldRequest[] = [];
  url = '';
  private server: Server | undefined;
  private readonly open = new Set<ServerResponse>();
  private readonly waiters = new Set<() => void>();

  async start(): Promise<void> {
    this.server = createServer((req: IncomingMessage, res: ServerResponse) => {
      let closed = false;
      const closedPromise = new Promise<void>((resolve) =>
        res.once('close', () => {
          closed = true;
          this.open.delete(res);
          resolve();
        }),
      );
      req.resume();
      this.open.add(res);
      this.requests.push({ path: req.url ?? '', closed: closedPromise, isClosed: () => closed });
      for (const wake of this.waiters) wake();
      this.waiters.clear();
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/v1`;
  }

  /** The `count`-th request (1-based), once it has arrived. */
  async request(count: number): Promise<HeldRequest> {
    while (this.requests.length < count) await new Promise<void>((resolve) => this.waiters.add(resolve));
    return this.requests[count - 1]!;
  }

  async stop(): Promise<void> {
    for (const res of this.open) res.destroy();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

// A server in the benchmark's own process that answers every request with one fixed body exactly
// `latencyMs` after the request came in, as the emulator does: a chain against it costs the latency plus
// loopback HTTP alone, with no emulator, fastify or second process in the way.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { reachTime } from '../../emulator/reach-time.js';

export interface FixedLatencyServer {
  url: string;
  close: () => Promise<void>;
}

export function startFixedLatencyServer(body: Buffer, latencyMs: number): Promise<FixedLatencyServer> {
  const server = createServer((request, response) => {
    const arrivedAt = performance.now();
    request.resume();
    request.on('end', () => {
      void reachTime(arrivedAt + latencyMs).then(() =>
        response
          .writeHead(200, { 'content-type': 'application/json', 'content-length': body.length })
          .end(body),
      );
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise((closed) => {
            server.closeAllConnections();
            server.close(() => closed());
          }),
      });
    });
  });
}

// The page that shows and drives the queue: served at the root, fed by server-sent events (one snapshot
// of the state per change, at most every THROTTLE_MS), driven through the control surface and the API.
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { readFileSync } from 'node:fs';
import type { MergeQueueEngine } from '../../src/queue-model/index.js';
import type { FlakyTestStore } from '../flaky-tests/store.js';
import { snapshotOf, type TimeControl } from './snapshot.js';

const THROTTLE_MS = 100;
/**
 * The page drives the queue with a click, so no other site may frame it (and trick a click): the
 * standard header and the older one some browsers still read instead.
 */
const NOT_FRAMED = { 'content-security-policy': "frame-ancestors 'none'", 'x-frame-options': 'DENY' };
const ASSETS = {
  '/': ['index.html', 'text/html; charset=utf-8'],
  '/ui/page.js': ['page.js', 'text/javascript; charset=utf-8'],
  '/ui/queue-view.js': ['queue-view.js', 'text/javascript; charset=utf-8'],
  '/ui/format.js': ['format.js', 'text/javascript; charset=utf-8'],
  '/ui/page.css': ['page.css', 'text/css; charset=utf-8'],
} as const;

const FinishRun = Type.Object({
  runId: Type.String({ minLength: 1, maxLength: 64 }),
  outcome: Type.Union([Type.Literal('pass'), Type.Literal('fail')]),
});
const PauseClock = Type.Object({ paused: Type.Boolean() });

export interface PageOptions {
  engine: MergeQueueEngine;
  flakyTests: FlakyTestStore;
  time: TimeControl;
  /** The control surface's prefix, e.g. `/_emulator`. */
  controlPrefix: string;
}

export interface Page {
  /** Something the page shows changed: it gets a new snapshot soon. */
  changed(): void;
  /**
   * Called by the server for each request: one that may write (not a GET) refreshes the page once its
   * answer is done. Costs nothing while no page listens, so that reads under load pay no hook for it.
   */
  changedAfter(request: FastifyRequest, reply: FastifyReply): void;
}

export function registerPage(app: FastifyInstance, options: PageOptions): Page {
  const { engine, flakyTests, time, controlPrefix } = options;
  for (const [path, [file, type]] of Object.entries(ASSETS)) {
    const body = readFileSync(new URL(file, import.meta.url));
    app.get(path, async (_request, reply) =>
      reply.type(type).header('cache-control', 'no-cache').headers(NOT_FRAMED).send(body),
    );
  }

  const clients = new Set<FastifyReply>();
  let pending: ReturnType<typeof setTimeout> | undefined;
  const broadcast = () => {
    pending = undefined;
    if (clients.size === 0) return;
    const message = `event: state\ndata: ${JSON.stringify(snapshotOf(engine, flakyTests, time))}\n\n`;
    for (const client of clients) client.raw.write(message);
  };
  const changed = () => {
    if (clients.size > 0 && !pending) pending = setTimeout(broadcast, THROTTLE_MS);
  };
  engine.core.onEvent(changed);
  const changedAfter = (request: FastifyRequest, reply: FastifyReply) => {
    if (clients.size > 0 && request.method !== 'GET') reply.raw.once('close', changed);
  };
  app.addHook('preClose', async () => {
    if (pending) clearTimeout(pending);
    for (const client of clients) client.raw.end();
    clients.clear();
  });

  app.get(`${controlPrefix}/state`, async () => snapshotOf(engine, flakyTests, time));
  app.get(`${controlPrefix}/events`, async (request, reply) => {
    reply.hijack();
    reply.raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    reply.raw.write(`event: state\ndata: ${JSON.stringify(snapshotOf(engine, flakyTests, time))}\n\n`);
    clients.add(reply);
    reply.raw.once('close', () => clients.delete(reply));
  });

  app.post(`${controlPrefix}/runs/finish`, { schema: { body: FinishRun } }, async (request) => {
    const { runId, outcome } = request.body as Static<typeof FinishRun>;
    engine.finishRun(runId, outcome === 'pass' ? 'succeeded' : 'failed');
    return { now: engine.clock.iso() };
  });
  app.post(`${controlPrefix}/clock/pause`, { schema: { body: PauseClock } }, async (request) => {
    time.paused = (request.body as Static<typeof PauseClock>).paused;
    return { now: engine.clock.iso(), paused: time.paused };
  });
  return { changed, changedAfter };
}

// Fault injection: per endpoint, a sequence of faults that the next requests meet, one each, before the
// endpoint answers normally again. Lets tests (and users rehearsing their workflows) see what the action
// does when the network or the service misbehaves.
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES, type ServerResponse } from 'node:http';
import { CONTROL_PREFIX } from './control.js';
import { API_PREFIX, PLAIN_TEXT, sendText } from './http.js';

/** v2 paths are planned whole, ids included (`/v2/pull-requests/<id>/dequeue`). */
const V2_PATHS = '/v2/';
const MAX_DELAY_MS = 10 * 60_000;

const StatusFault = Type.Object({
  kind: Type.Literal('status'),
  status: Type.Integer({ minimum: 100, maximum: 599 }),
  /** The body, plain text unless contentType says otherwise. */
  body: Type.Optional(Type.String()),
  contentType: Type.Optional(Type.String({ minLength: 1 })),
  headers: Type.Optional(Type.Record(Type.String(), Type.String())),
});
/** 429, with a Retry-After header when retryAfterSeconds is given. */
const RateLimitFault = Type.Object({
  kind: Type.Literal('rate-limit'),
  retryAfterSeconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 86_400 })),
});
/** Wait, then answer normally. */
const DelayFault = Type.Object({
  kind: Type.Literal('delay'),
  ms: Type.Integer({ minimum: 0, maximum: MAX_DELAY_MS }),
});
/** Never answer; the connection stays open until the client gives up (or the emulator closes). */
const HangFault = Type.Object({ kind: Type.Literal('hang') });
/** Drop the connection. With `afterHandling`, the endpoint does its work first (the client never hears). */
const ResetFault = Type.Object({ kind: Type.Literal('reset'), afterHandling: Type.Optional(Type.Boolean()) });
/** 200 with a Content-Length longer than the body, then the connection closes. */
const TruncatedFault = Type.Object({ kind: Type.Literal('truncated') });
/** 200 with a body that is not JSON (a captive portal's page, say). */
const NonJsonFault = Type.Object({ kind: Type.Literal('non-json'), body: Type.Optional(Type.String()) });
/** A proxy's HTML error page. */
const HtmlErrorFault = Type.Object({
  kind: Type.Literal('html-error'),
  status: Type.Optional(Type.Integer({ minimum: 400, maximum: 599 })),
});
/** A redirect, typically to another host. */
const RedirectFault = Type.Object({
  kind: Type.Literal('redirect'),
  location: Type.String({ minLength: 1 }),
  status: Type.Optional(Type.Union([301, 302, 303, 307, 308].map((s) => Type.Literal(s)))),
});

export const Fault = Type.Union([
  StatusFault,
  RateLimitFault,
  DelayFault,
  HangFault,
  ResetFault,
  TruncatedFault,
  NonJsonFault,
  HtmlErrorFault,
  RedirectFault,
]);
export type Fault = Static<typeof Fault>;

export const FAULT_KINDS = [
  'status',
  'rate-limit',
  'delay',
  'hang',
  'reset',
  'truncated',
  'non-json',
  'html-error',
  'redirect',
] as const satisfies readonly Fault['kind'][];

const FaultPlan = Type.Object({
  /** An endpoint path such as `/submitPullRequest` or `/v1/flaky-tests/list-unhealthy-tests`. */
  path: Type.String({ pattern: '^/' }),
  faults: Type.Array(Fault, { maxItems: 1000 }),
});
type FaultPlan = Static<typeof FaultPlan>;

export class FaultInjector {
  private readonly planned = new Map<string, Fault[]>();
  private readonly hung = new Set<FastifyReply>();
  /** Per endpoint, a counter object: counting a request is one lookup. */
  private readonly seen = new Map<string, { count: number }>();

  /** Queues faults for an endpoint path such as `/submitPullRequest` (with or without `/v1`) or a v2 path. */
  plan(path: string, faults: Fault[]): void {
    const key = endpointKey(path);
    this.planned.set(key, [...(this.planned.get(key) ?? []), ...faults]);
  }

  /** Drops every planned fault (the request counts are kept). */
  clear(): void {
    this.planned.clear();
  }

  /** The faults still waiting, per endpoint. */
  pending(): Record<string, Fault[]> {
    return Object.fromEntries(this.planned);
  }

  /** How many requests each endpoint has received, faulted or not, since the emulator started. */
  requests(): Record<string, number> {
    return Object.fromEntries([...this.seen].map(([key, { count }]) => [key, count]));
  }

  /** Counts the request and hands out the next fault planned for its endpoint, if any. */
  take(path: string): Fault | undefined {
    const key = endpointKey(path);
    const seen = this.seen.get(key);
    if (seen) seen.count++;
    else this.seen.set(key, { count: 1 });
    if (this.planned.size === 0) return undefined;
    const faults = this.planned.get(key);
    const fault = faults?.shift();
    if (faults && faults.length === 0) this.planned.delete(key);
    return fault;
  }

  hold(reply: FastifyReply): void {
    this.hung.add(reply);
    reply.raw.once('close', () => this.hung.delete(reply));
  }

  /** Ends every held connection, so that the server can close. */
  releaseAll(): void {
    for (const reply of this.hung) reply.raw.destroy();
    this.hung.clear();
  }
}

function endpointKey(path: string): string {
  const query = path.indexOf('?');
  const bare = query < 0 ? path : path.slice(0, query);
  return bare.startsWith(`${API_PREFIX}/`) ? bare.slice(API_PREFIX.length) : bare;
}

/** Requests that met a planned fault: their answers are the fault's, not the service's. */
export const faultedRequests = new WeakSet<object>();

const HTML = 'text/html; charset=utf-8';

function proxyPage(status: number): string {
  const title = `${status} ${STATUS_CODES[status] ?? 'Error'}`;
  return `<!DOCTYPE html><html><head><title>${title}</title></head><body><center><h1>${title}</h1></center><hr><center>nginx</center></body></html>`;
}

/** What the server calls first for every request: a promise when the request meets a fault. */
export type FaultGate = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown> | undefined;

/**
 * Applies the planned faults to /v1 requests, before authentication and before the endpoint runs
 * (except `reset` with afterHandling, which lets the endpoint do its work first). The server calls the
 * gate it returns from its one onRequest hook: most requests meet no fault and pass without a promise.
 */
export function installFaultInjection(app: FastifyInstance, injector: FaultInjector): FaultGate {
  /** Answers (or delays, or drops) a request as the fault says; the request goes on when it settles. */
  async function meet(fault: Fault, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
    faultedRequests.add(request.raw);
    switch (fault.kind) {
      case 'status':
        reply.headers(fault.headers ?? {});
        return reply
          .code(fault.status)
          .type(fault.contentType ?? PLAIN_TEXT)
          .send(fault.body ?? '');
      case 'rate-limit':
        if (fault.retryAfterSeconds !== undefined)
          reply.header('retry-after', String(fault.retryAfterSeconds));
        return sendText(reply, 429, 'Too Many Requests');
      case 'delay':
        await new Promise((resolve) => setTimeout(resolve, fault.ms));
        return;
      case 'hang':
        injector.hold(reply);
        return reply.hijack();
      case 'reset':
        if (fault.afterHandling) {
          dropAnswer(reply.raw);
          return;
        }
        reply.hijack();
        request.raw.socket.destroy();
        return;
      case 'truncated': {
        reply.hijack();
        const body = '{"state":"testing","prNumber":';
        reply.raw.writeHead(200, {
          'content-type': 'application/json',
          'content-length': String(body.length + 100),
        });
        reply.raw.write(body);
        reply.raw.socket?.destroySoon();
        return;
      }
      case 'non-json':
        return reply
          .code(200)
          .type(HTML)
          .send(
            fault.body ?? '<html><head><title>Welcome</title></head><body>Sign in to continue</body></html>',
          );
      case 'html-error': {
        const status = fault.status ?? 502;
        return reply.code(status).type(HTML).send(proxyPage(status));
      }
      case 'redirect':
        return reply
          .code(fault.status ?? 307)
          .header('location', fault.location)
          .send('');
    }
  }

  app.addHook('preClose', async () => injector.releaseAll());
  return (request, reply) => {
    const url = request.url;
    const fault =
      url.startsWith(`${API_PREFIX}/`) || url.startsWith(V2_PATHS) ? injector.take(url) : undefined;
    return fault ? meet(fault, request, reply) : undefined;
  };
}

/**
 * Lets the endpoint do its work and drops the connection where its answer would go out: the response's
 * head is never written, and what follows it goes nowhere. Only a faulted response is touched, so that
 * the other requests carry no hook for it.
 */
function dropAnswer(response: ServerResponse): void {
  response.writeHead = function dropConnection() {
    response.socket?.destroy();
    return response;
  } as ServerResponse['writeHead'];
}

/**
 * Control routes: POST /_emulator/faults {path, faults} to plan, GET to list what waits, DELETE to clear,
 * GET /_emulator/faults/requests for the number of requests each endpoint received.
 */
export function registerFaultRoutes(app: FastifyInstance, injector: FaultInjector): void {
  app.post(`${CONTROL_PREFIX}/faults`, { schema: { body: FaultPlan } }, async (request) => {
    const { path, faults } = request.body as FaultPlan;
    injector.plan(path, faults);
    return injector.pending();
  });
  app.get(`${CONTROL_PREFIX}/faults`, async () => injector.pending());
  app.delete(`${CONTROL_PREFIX}/faults`, async () => {
    injector.clear();
    return {};
  });
  app.get(`${CONTROL_PREFIX}/faults/requests`, async () => injector.requests());
}

const FLAG_EXAMPLE =
  '/submitPullRequest=status:503,rate-limit:2,delay:500,hang,reset:after,redirect:https://elsewhere.example/';

/** Parses the CLI form `--fault /endpoint=kind[:arg],...`, e.g. `/submitPullRequest=status:503,rate-limit:2`. */
export function parseFaultFlag(flag: string): { path: string; faults: Fault[] } {
  const equals = flag.indexOf('=');
  const path = flag.slice(0, equals);
  const list = flag.slice(equals + 1);
  if (equals < 0 || !path.startsWith('/') || !list) {
    throw new Error(`--fault "${flag}": expected /endpoint=kind[:arg],... e.g. ${FLAG_EXAMPLE}`);
  }
  // A redirect's URL holds commas rarely and colons always: split items on commas, kind from arg on the first colon.
  const faults = list.split(',').map((item): Fault => {
    const colon = item.indexOf(':');
    const kind = colon < 0 ? item : item.slice(0, colon);
    const arg = colon < 0 ? undefined : item.slice(colon + 1);
    const integer = (fallback: number, min: number, max: number): number => {
      const value = arg === undefined ? fallback : Number(arg);
      if (!Number.isInteger(value) || value < min || value > max) {
        throw new Error(
          `--fault "${flag}": ${kind} takes a whole number from ${min} to ${max}, not "${arg}"`,
        );
      }
      return value;
    };
    switch (kind) {
      case 'status':
        return { kind, status: integer(500, 100, 599) };
      case 'rate-limit':
        return arg === undefined ? { kind } : { kind, retryAfterSeconds: integer(0, 0, 86_400) };
      case 'delay':
        return { kind, ms: integer(1000, 0, MAX_DELAY_MS) };
      case 'reset':
        if (arg !== undefined && arg !== 'after') {
          throw new Error(`--fault "${flag}": reset takes no argument or "after", not "${arg}"`);
        }
        return { kind, afterHandling: arg === 'after' };
      case 'redirect':
        return { kind, location: arg || 'https://elsewhere.example/' };
      case 'html-error':
        return { kind, status: integer(502, 400, 599) };
      case 'hang':
      case 'truncated':
      case 'non-json':
        return { kind };
      default:
        throw new Error(`--fault "${flag}": unknown fault "${kind}"; use one of ${FAULT_KINDS.join(', ')}`);
    }
  });
  return { path, faults };
}

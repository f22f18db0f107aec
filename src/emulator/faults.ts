// Fault injection: per endpoint, a sequence of faults that the next requests meet, one each, before the
// endpoint answers normally again. Lets tests (and users rehearsing their workflows) see what the action
// does when the network or the service misbehaves.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export type Fault =
  /** Answer with this status and body (plain text unless contentType says otherwise). */
  | { kind: 'status'; status: number; body?: string; contentType?: string; headers?: Record<string, string> }
  /** 429, with a Retry-After header when retryAfterSeconds is given. */
  | { kind: 'rate-limit'; retryAfterSeconds?: number }
  /** Wait, then answer normally. */
  | { kind: 'delay'; ms: number }
  /** Never answer; the connection stays open until the client gives up. */
  | { kind: 'hang' }
  /** Drop the connection. With `afterHandling`, the endpoint does its work first (the client never hears). */
  | { kind: 'reset'; afterHandling?: boolean }
  /** 200 with a Content-Length longer than the body, then the connection closes. */
  | { kind: 'truncated' }
  /** 200 with a body that is not JSON. */
  | { kind: 'non-json'; body?: string }
  /** A proxy's HTML error page. */
  | { kind: 'html-error'; status?: number }
  /** A redirect to another host. */
  | { kind: 'redirect'; location: string; status?: number };

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

export class FaultInjector {
  private readonly planned = new Map<string, Fault[]>();
  private readonly hung = new Set<FastifyReply>();

  /** Queues faults for an endpoint path such as `/submitPullRequest` (with or without `/v1`). */
  plan(path: string, faults: Fault[]): void {
    const key = endpointKey(path);
    this.planned.set(key, [...(this.planned.get(key) ?? []), ...faults]);
  }

  clear(): void {
    this.planned.clear();
  }

  /** The faults still waiting, per endpoint. */
  pending(): Record<string, Fault[]> {
    return Object.fromEntries(this.planned);
  }

  take(path: string): Fault | undefined {
    const key = endpointKey(path);
    const faults = this.planned.get(key);
    const fault = faults?.shift();
    if (faults && faults.length === 0) this.planned.delete(key);
    return fault;
  }

  hold(reply: FastifyReply): void {
    this.hung.add(reply);
  }

  /** Ends every held connection, so that the server can close. */
  releaseAll(): void {
    for (const reply of this.hung) reply.raw.destroy();
    this.hung.clear();
  }
}

function endpointKey(path: string): string {
  return path.split('?')[0]!.replace(/^\/v1(?=\/)/, '');
}

const PROXY_PAGE = (status: number) =>
  `<!DOCTYPE html><html><head><title>${status} Bad Gateway</title></head><body><center><h1>${status} Bad Gateway</h1></center><hr><center>nginx</center></body></html>`;

/**
 * Applies the planned faults to /v1 requests, before authentication and before the endpoint runs
 * (except `reset` with afterHandling, which lets the endpoint do its work first).
 */
export function installFaultInjection(app: FastifyInstance, injector: FaultInjector): void {
  const resetAfterHandling = new WeakSet<FastifyRequest>();

  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/v1/')) return;
    const fault = injector.take(request.url);
    if (!fault) return;
    switch (fault.kind) {
      case 'status':
        reply.headers(fault.headers ?? {});
        return reply
          .code(fault.status)
          .type(fault.contentType ?? 'text/plain; charset=utf-8')
          .send(fault.body ?? '');
      case 'rate-limit':
        if (fault.retryAfterSeconds !== undefined)
          reply.header('retry-after', String(fault.retryAfterSeconds));
        return reply.code(429).type('text/plain; charset=utf-8').send('Too Many Requests');
      case 'delay':
        await new Promise((resolve) => setTimeout(resolve, fault.ms));
        return;
      case 'hang':
        injector.hold(reply);
        return reply.hijack();
      case 'reset':
        if (fault.afterHandling) {
          resetAfterHandling.add(request);
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
          .type('text/html; charset=utf-8')
          .send(fault.body ?? '<html><body>Welcome</body></html>');
      case 'html-error': {
        const status = fault.status ?? 502;
        return reply.code(status).type('text/html; charset=utf-8').send(PROXY_PAGE(status));
      }
      case 'redirect':
        return reply
          .code(fault.status ?? 307)
          .header('location', fault.location)
          .send('');
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    if (!resetAfterHandling.has(request)) return payload;
    reply.hijack();
    request.raw.socket.destroy();
    return payload;
  });

  app.addHook('onClose', async () => injector.releaseAll());
  app.addHook('preClose', async () => injector.releaseAll());
}

/** Control routes: POST /_emulator/faults {path, faults}, GET to list, DELETE to clear. */
export function registerFaultRoutes(app: FastifyInstance, injector: FaultInjector): void {
  app.post<{ Body: { path: string; faults: Fault[] } }>(
    '/_emulator/faults',
    {
      schema: {
        body: {
          type: 'object',
          required: ['path', 'faults'],
          properties: {
            path: { type: 'string', pattern: '^/' },
            faults: {
              type: 'array',
              items: { type: 'object', required: ['kind'], properties: { kind: { enum: [...FAULT_KINDS] } } },
            },
          },
        },
      },
    },
    async (request) => {
      injector.plan(request.body.path, request.body.faults);
      return injector.pending();
    },
  );
  app.get('/_emulator/faults', async () => injector.pending());
  app.delete('/_emulator/faults', async () => {
    injector.clear();
    return {};
  });
}

/** Parses the CLI form `--fault /submitPullRequest=status:503,rate-limit:2,hang`. */
export function parseFaultFlag(flag: string): { path: string; faults: Fault[] } {
  const [path, list] = flag.split('=', 2);
  if (!path?.startsWith('/') || !list) {
    throw new Error(
      `--fault "${flag}": expected /endpoint=kind[:arg],... e.g. /submitPullRequest=status:503,rate-limit:2`,
    );
  }
  const faults = list.split(',').map((item): Fault => {
    const [kind, arg] = item.split(':', 2);
    switch (kind) {
      case 'status':
        return { kind, status: Number(arg ?? 500) };
      case 'rate-limit':
        return arg === undefined ? { kind } : { kind, retryAfterSeconds: Number(arg) };
      case 'delay':
        return { kind, ms: Number(arg ?? 1000) };
      case 'reset':
        return { kind, afterHandling: arg === 'after' };
      case 'redirect':
        return { kind, location: arg ?? 'https://elsewhere.example/' };
      case 'html-error':
        return { kind, status: Number(arg ?? 502) };
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

// The emulator's HTTP server: the v1 API under /v1 and the control surface under /_emulator, over one
// merge-queue engine. Every error answer is plain text, as the service's are.
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { performance } from 'node:perf_hooks';
import { ENDPOINTS, MAX_BODY_BYTES } from '../src/wire/index.js';
import { DeviceLogins, type DeviceAuthOptions } from './device-auth.js';
import { registerServiceRoutes } from './service-routes.js';
import { registerPage } from './ui/routes.js';
import type { TimeControl } from './ui/snapshot.js';
import { installBodyLimit } from './body-limit.js';
import { allowedHosts, refuseForeign } from './host-check.js';
import { observed, reportAnswer, schemaAnswerOf } from './observe.js';
import { CONTROL_PREFIX, registerControlRoutes } from './control.js';
import { EmulatorError, MergeQueueEngine } from './merge-queue/engine/engine.js';
import { FaultInjector, faultedRequests, installFaultInjection, registerFaultRoutes } from './faults.js';
import { FlakyTestStore, loadFlakyFixture, registerFlakyTestRoutes } from './flaky-tests/routes.js';
import type { VirtualClock } from './clock.js';
import { registerMetricsRoute } from './merge-queue/routes/metrics.js';
import { registerPullRequestRoutes } from './merge-queue/routes/pull-requests.js';
import { registerQueueRoutes } from './merge-queue/routes/queues.js';
import { API_PREFIX } from './http.js';
import { loadScenario, type Scenario } from './scenario.js';
import { MergeQueueWebhooks } from './merge-queue/webhook-events.js';
import { WebhookDispatcher } from './webhooks.js';

export const DEFAULT_TOKEN = 'emulator-token';
const TEXT = 'text/plain; charset=utf-8';
/** How often the time-scale ticker moves the virtual clock (real milliseconds). */
const TICK_MS = 50;
const FORKED_RUN_HEADER = 'x-forked-workflow-run-id';
const EVENTS_PATH = `${CONTROL_PREFIX}/events`;
/** The endpoints the service serves without a token. */
const OPEN_PATHS: ReadonlySet<string> = new Set(
  Object.values(ENDPOINTS)
    .filter((endpoint) => 'authenticated' in endpoint && endpoint.authenticated === false)
    .map((endpoint) => `${API_PREFIX}${endpoint.path}`),
);

function bearer(header: string | undefined): string | undefined {
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match?.[1];
}

export interface EmulatorOptions {
  /** The token every request must carry in `x-api-token` (default `emulator-token`). */
  token?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** The address to bind (default 127.0.0.1). */
  host?: string;
  /** Host names answered besides loopback and `host` (see host-check.ts). */
  allowHosts?: string[];
  /** Seed of the random source (ids, shas). */
  seed?: number;
  /** When set, the virtual clock follows real time multiplied by this factor. */
  timeScale?: number;
  /** Queues, pull requests and CI outcomes to load at start: a JSON file path or the object itself. */
  scenario?: string | Scenario;
  /** A flaky-tests fixture file to seed the flaky-tests store with. */
  flakyFixture?: string;
  /** Delays between webhook delivery attempts (real milliseconds). */
  webhookRetryDelaysMs?: number[];
  /** Log requests to stdout (the CLI does). */
  logger?: boolean;
  /** How long device-login codes live and how often they may be polled (seconds). */
  deviceAuth?: Pick<DeviceAuthOptions, 'expiresInSeconds' | 'intervalSeconds' | 'now'>;
}

export interface Emulator {
  /** The API base URL, ending in /v1. */
  url: string;
  /** Scheme, host and port: the control surface lives under `${origin}/_emulator`. */
  origin: string;
  token: string;
  engine: MergeQueueEngine;
  clock: VirtualClock;
  webhooks: WebhookDispatcher;
  faults: FaultInjector;
  flakyTests: FlakyTestStore;
  deviceLogins: DeviceLogins;
  app: FastifyInstance;
  close(): Promise<void>;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const token = options.token ?? DEFAULT_TOKEN;
  const engine = new MergeQueueEngine({ seed: options.seed ?? 1 });
  const webhooks = new WebhookDispatcher({
    seed: options.seed ?? 1,
    ...(options.webhookRetryDelaysMs ? { retryDelaysMs: options.webhookRetryDelaysMs } : {}),
  });
  const mergeQueueWebhooks = new MergeQueueWebhooks(engine.core);
  engine.core.onEvent((event) => {
    for (const payload of mergeQueueWebhooks.payloadsFor(event)) webhooks.publish(payload);
  });
  const flakyTests = new FlakyTestStore({
    now: () => engine.clock.now(),
    seed: options.seed ?? 1,
    onEvent: (event) => webhooks.publish(event),
  });
  if (options.flakyFixture) flakyTests.seed(loadFlakyFixture(options.flakyFixture));
  if (options.scenario) loadScenario(engine, options.scenario, flakyTests);

  const faults = new FaultInjector();
  const deviceLogins = new DeviceLogins({ seed: options.seed ?? 1, ...options.deviceAuth });
  const app = Fastify({
    logger: options.logger ?? false,
    // The capped body stream (body-limit.ts) answers oversized bodies; this only backs it up.
    bodyLimit: MAX_BODY_BYTES,
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false } },
  });
  if (observed()) installAnswerReports(app);
  const meetPlannedFault = installFaultInjection(app, faults);
  installBodyLimit(app);
  app.decorateRequest('arrivedAt', 0);
  // Every request passes one synchronous hook (fastify runs each kind of hook through a runner of its own,
  // and an async hook through a promise): when it came in, the planned fault if any, the Date header, the
  // token, and the page's refresh after a write.
  // The service's clock is the virtual one: answers carry it in their Date header, as the real service's
  // carry its own (formatted once a second).
  let dateSecond = -1;
  let dateHeader = '';
  const hosts = allowedHosts(options.host, options.allowHosts);
  app.addHook('onRequest', (request, reply, done) => {
    request.arrivedAt = performance.now();
    if (refuseForeign(request, reply, hosts)) return;
    const faulted = meetPlannedFault(request, reply);
    if (faulted) return faulted.then(() => reply.sent || admit(request, reply));
    if (admit(request, reply)) done();
  });
  /** Dates the answer, checks the token (false when it answered 401) and lets the page follow. */
  function admit(request: FastifyRequest, reply: FastifyReply): boolean {
    const now = engine.clock.now();
    if (Math.floor(now / 1000) !== dateSecond) {
      dateSecond = Math.floor(now / 1000);
      dateHeader = new Date(now).toUTCString();
    }
    reply.header('date', dateHeader);
    if (!isAuthorized(request)) {
      reply.code(401).type(TEXT).send('Unauthorized');
      return false;
    }
    page.changedAfter(request, reply);
    return true;
  }
  function isAuthorized(request: FastifyRequest): boolean {
    const url = request.url;
    const queryAt = url.indexOf('?');
    const path = queryAt < 0 ? url : url.slice(0, queryAt);
    if (!path.startsWith(`${API_PREFIX}/`) && !path.startsWith(`${CONTROL_PREFIX}/`)) return true;
    if (OPEN_PATHS.has(path)) return true;
    // An EventSource cannot send headers: the page's event stream carries the token in its query.
    const query =
      path === EVENTS_PATH && queryAt >= 0 ? new URLSearchParams(url.slice(queryAt + 1)).get('token') : null;
    const given =
      request.headers['x-api-token'] ?? bearer(request.headers.authorization) ?? query ?? undefined;
    if (given === token || (typeof given === 'string' && deviceLogins.accepts(given))) return true;
    const forkedRun = request.headers[FORKED_RUN_HEADER];
    return (
      path === `${API_PREFIX}/setImpactedTargets` && typeof forkedRun === 'string' && forkedRun.trim() !== ''
    );
  }
  app.setErrorHandler((error: FastifyError, _request, reply) => answerError(error, reply));
  app.setNotFoundHandler((_request, reply) => reply.code(404).type(TEXT).send('Not Found'));

  registerServiceRoutes(app, deviceLogins);
  registerPullRequestRoutes(app, engine);
  registerQueueRoutes(app, engine);
  registerMetricsRoute(app, engine);
  registerFlakyTestRoutes(app, flakyTests);
  registerControlRoutes(app, engine, webhooks);
  registerFaultRoutes(app, faults);
  const time: TimeControl = { timeScale: options.timeScale, paused: false };
  const page = registerPage(app, { engine, flakyTests, time, controlPrefix: CONTROL_PREFIX });

  const ticker = options.timeScale
    ? followRealTime(engine, options.timeScale, time, page.changed)
    : undefined;
  let origin: string;
  try {
    origin = await app.listen({ port: options.port ?? 0, host: options.host ?? '127.0.0.1' });
  } catch (error) {
    if (ticker) clearInterval(ticker);
    throw error;
  }
  return {
    url: `${origin}${API_PREFIX}`,
    origin,
    token,
    engine,
    clock: engine.clock,
    webhooks,
    faults,
    flakyTests,
    deviceLogins,
    app,
    close: async () => {
      if (ticker) clearInterval(ticker);
      webhooks.close();
      await app.close();
    },
  };
}

/** Advances the virtual clock with real time, `scale` times faster. */
function followRealTime(
  engine: MergeQueueEngine,
  scale: number,
  time: TimeControl,
  changed: () => void,
): ReturnType<typeof setInterval> {
  let last = performance.now();
  const ticker = setInterval(() => {
    const now = performance.now();
    if (!time.paused) engine.advance(Math.min((now - last) * scale, engine.clock.room()));
    last = now;
    changed();
  }, TICK_MS);
  ticker.unref();
  return ticker;
}

const CLIENT_ERRORS: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Content-Type must be application/json',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty; send a JSON object',
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON',
};

function answerError(error: FastifyError, reply: FastifyReply): FastifyReply {
  if (error instanceof EmulatorError) return reply.code(error.status).type(TEXT).send(error.message);
  if (error.validation) {
    const where = error.validationContext === 'querystring' ? 'query string' : 'request body';
    return reply
      .code(400)
      .type(TEXT)
      .send(`Invalid ${where}: ${describeValidation(error)}`);
  }
  if (error.statusCode === 413) {
    return reply
      .code(413)
      .type(TEXT)
      .send(`Request body too large: the limit is ${MAX_BODY_BYTES} bytes (20 MiB)`);
  }
  const known = error.code ? CLIENT_ERRORS[error.code] : undefined;
  if (known) return reply.code(400).type(TEXT).send(known);
  if (
    error instanceof SyntaxError ||
    (error.statusCode === 400 && !error.code?.startsWith('FST_ERR_VALIDATION'))
  ) {
    return reply.code(400).type(TEXT).send(CLIENT_ERRORS.FST_ERR_CTP_INVALID_JSON_BODY!);
  }
  reply.log.error(error);
  return reply.code(500).type(TEXT).send('Internal Server Error');
}

/** The first validation problem, with any-case enum patterns spelled as their values. */
function describeValidation(error: FastifyError): string {
  const first = error.validation?.[0];
  const pattern = first?.keyword === 'pattern' ? String(first.params.pattern) : undefined;
  const anyCase = pattern?.match(/^\^\(\?:(.*)\)\$$/);
  if (!first || !anyCase) return error.message;
  const values = anyCase[1]!.replace(/\[(.)(.)\]/g, '$1').split('|');
  const where = `${error.validationContext ?? 'body'}${first.instancePath}`;
  return `${where} must be one of ${values.join(', ')} (any case)`;
}

/** Hands every answer to the observers (see observe.ts). */
function installAnswerReports(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (faultedRequests.has(request.raw)) return payload;
    if (typeof payload === 'string' || Buffer.isBuffer(payload)) {
      const plainJson = schemaAnswerOf(request.raw);
      reportAnswer({
        method: request.method,
        path: request.url.split('?')[0]!,
        status: reply.statusCode,
        contentType: String(reply.getHeader('content-type') ?? ''),
        body: payload.toString(),
        ...(plainJson !== undefined ? { plainJson } : {}),
      });
    }
    return payload;
  });
}

// The emulator's HTTP server: the v1 API under /v1 and the control surface under /_emulator, over one
// merge-queue engine. Every error answer is plain text, as the service's are.
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { performance } from 'node:perf_hooks';
import { MAX_BODY_BYTES } from '../src/wire/index.js';
import { installAdmission } from './admission.js';
import { answerError } from './error-answers.js';
import { DeviceLogins, type DeviceAuthOptions } from './device-auth.js';
import { registerServiceRoutes } from './service-routes.js';
import { registerPage } from './ui/routes.js';
import type { TimeControl } from './ui/snapshot.js';
import { installBodyLimit } from './body-limit.js';
import { allowedHosts } from './host-check.js';
import { observed, reportAnswer, schemaAnswerOf } from './observe.js';
import { CONTROL_PREFIX, registerControlRoutes } from './control.js';
import { MergeQueueEngine, CLOCK_HORIZON, VirtualClock } from '../src/queue-model/index.js';
import { FaultInjector, faultedRequests, installFaultInjection, registerFaultRoutes } from './faults.js';
import { FlakyTestStore, loadFlakyFixture, registerFlakyTestRoutes } from './flaky-tests/routes.js';
import { registerMetricsRoute } from './merge-queue/routes/metrics.js';
import { registerPullRequestRoutes } from './merge-queue/routes/pull-requests.js';
import { registerQueueRoutes } from './merge-queue/routes/queues.js';
import { API_PREFIX, sendText, unservedEndpoints } from './http.js';
import { loadScenario, type Scenario } from './scenario.js';
import { MergeQueueWebhooks } from './merge-queue/webhook-events.js';
import { WebhookDispatcher } from './webhooks.js';
import { installV2, type ApiKey, type ApiKeySpec } from './v2/index.js';

export const DEFAULT_TOKEN = 'emulator-token';
/** How often the time-scale ticker moves the virtual clock (real milliseconds). */
const TICK_MS = 50;
/**
 * How many PRs a graph-mode queue's line holds before ready PRs await admission: the document names a
 * soft cap without its size; the emulator's choice (`admissionCap` of `POST /_emulator/queues` sets one).
 */
export const GRAPH_ADMISSION_CAP = 100;

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
  /** Where the virtual clock starts (milliseconds since the epoch); default the real time. */
  startTime?: number;
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
  /** v2 API keys besides the one with every permission that is always made (see v2/keys.ts). */
  apiKeys?: readonly ApiKeySpec[];
  /** The v2 API's documented rate limits (429 past them); default on. */
  v2RateLimits?: boolean;
}

export interface Emulator {
  /** The API base URL, ending in /v1. */
  url: string;
  /** The v2 API's base URL: the origin alone, as every v2 path starts with /v2 (the document's servers). */
  v2Url: string;
  /** The v2 key with every permission (`Authorization: Bearer <v2Key>`). */
  v2Key: string;
  /** Every v2 key: the one with every permission first, then those asked for. */
  apiKeys: ApiKey[];
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
  const state = buildState(options);
  const { engine, webhooks, flakyTests, faults, deviceLogins } = state;
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
  installAdmission(app, {
    clock: engine.clock,
    token,
    deviceLogins,
    hosts: allowedHosts(options.host, options.allowHosts),
    meetPlannedFault,
    admitted: (request, reply) => page.changedAfter(request, reply),
  });
  app.setErrorHandler((error: FastifyError, _request, reply) => answerError(error, reply));
  app.setNotFoundHandler((_request, reply) => sendText(reply, 404, 'Not Found'));

  const unserved: never[] = unservedEndpoints([
    ...registerServiceRoutes(app, deviceLogins),
    ...registerPullRequestRoutes(app, engine),
    ...registerQueueRoutes(app, engine),
    ...registerMetricsRoute(app, engine),
    ...registerFlakyTestRoutes(app, flakyTests),
  ]);
  if (unserved.length > 0) throw new Error(`the emulator serves no route for ${unserved.join(', ')}`);
  const v2 = installV2(app, state, {
    seed: options.seed ?? 1,
    v1Token: token,
    ...(options.apiKeys ? { apiKeys: options.apiKeys } : {}),
    ...(options.v2RateLimits !== undefined ? { rateLimits: options.v2RateLimits } : {}),
  });
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
    v2Url: origin,
    v2Key: v2.keys[0]!.key,
    apiKeys: v2.keys,
    origin,
    token,
    clock: engine.clock,
    ...state,
    app,
    close: async () => {
      if (ticker) clearInterval(ticker);
      webhooks.close();
      await app.close();
    },
  };
}

type EmulatorState = Pick<Emulator, 'engine' | 'webhooks' | 'flakyTests' | 'faults' | 'deviceLogins'>;

/** The engine, the stores and what reports on them, seeded and loaded as the options say. */
function buildState(options: EmulatorOptions): EmulatorState {
  const seed = options.seed ?? 1;
  const engine = new MergeQueueEngine({
    seed,
    clock: clockFrom(options.startTime),
    admissionCap: GRAPH_ADMISSION_CAP,
  });
  const webhooks = new WebhookDispatcher({
    seed,
    ...(options.webhookRetryDelaysMs ? { retryDelaysMs: options.webhookRetryDelaysMs } : {}),
  });
  const mergeQueueWebhooks = new MergeQueueWebhooks(engine.core);
  engine.core.onEvent((event) => {
    for (const payload of mergeQueueWebhooks.payloadsFor(event)) webhooks.publish(payload);
  });
  const flakyTests = new FlakyTestStore({
    now: () => engine.clock.now(),
    seed,
    onEvent: (event) => webhooks.publish(event),
  });
  if (options.flakyFixture) flakyTests.seed(loadFlakyFixture(options.flakyFixture));
  if (options.scenario) loadScenario(engine, options.scenario, flakyTests);
  const faults = new FaultInjector();
  const deviceLogins = new DeviceLogins({ seed, ...options.deviceAuth });
  return { engine, webhooks, flakyTests, faults, deviceLogins };
}

function clockFrom(startTime: number | undefined): VirtualClock {
  if (startTime === undefined) return new VirtualClock();
  if (!Number.isFinite(startTime) || startTime < 0 || startTime >= CLOCK_HORIZON) {
    throw new RangeError(
      `startTime ${startTime}: expected an instant from 1970 to before ${new Date(CLOCK_HORIZON).toISOString()}`,
    );
  }
  return new VirtualClock(startTime);
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

// The gate every request passes, in one synchronous onRequest hook (fastify runs each kind of hook
// through a runner of its own, and an async hook through a promise): when it came in, the Host and
// Origin checks, the planned fault if any, the Date header on the virtual clock, and the token.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { performance } from 'node:perf_hooks';
import { ENDPOINTS } from '../src/wire/index.js';
import type { VirtualClock } from '../src/queue-model/index.js';
import { CONTROL_PREFIX } from './control.js';
import type { DeviceLogins } from './device-auth.js';
import type { FaultGate } from './faults.js';
import { refuseForeign } from './host-check.js';
import { API_PREFIX, sendText } from './http.js';

const FORKED_RUN_HEADER = 'x-forked-workflow-run-id';
const EVENTS_PATH = `${CONTROL_PREFIX}/events`;
/** The endpoints the service serves without a token. */
const OPEN_PATHS: ReadonlySet<string> = new Set(
  Object.values(ENDPOINTS)
    .filter((endpoint) => 'authenticated' in endpoint && endpoint.authenticated === false)
    .map((endpoint) => `${API_PREFIX}${endpoint.path}`),
);

export interface Admission {
  clock: VirtualClock;
  /** The token every request under the API or the control prefix must carry. */
  token: string;
  deviceLogins: DeviceLogins;
  /** Host names answered (see host-check.ts). */
  hosts: Set<string>;
  meetPlannedFault: FaultGate;
  /** Called for every request let in (the page follows writes through it). */
  admitted: (request: FastifyRequest, reply: FastifyReply) => void;
}

export function installAdmission(app: FastifyInstance, admission: Admission): void {
  const dateOf = dateHeaders(admission.clock);
  /** Dates the answer, checks the token (false when it answered 401) and lets the request in. */
  const admit = (request: FastifyRequest, reply: FastifyReply): boolean => {
    reply.header('date', dateOf());
    if (!isAuthorized(request, admission)) {
      sendText(reply, 401, 'Unauthorized');
      return false;
    }
    admission.admitted(request, reply);
    return true;
  };
  app.addHook('onRequest', (request, reply, done) => {
    request.arrivedAt = performance.now();
    if (refuseForeign(request, reply, admission.hosts)) return;
    const faulted = admission.meetPlannedFault(request, reply);
    if (faulted) return faulted.then(() => reply.sent || admit(request, reply));
    if (admit(request, reply)) done();
  });
}

/**
 * The service's clock is the virtual one: answers carry it in their Date header, as the real service's
 * carry its own (formatted once a second).
 */
function dateHeaders(clock: VirtualClock): () => string {
  let dateSecond = -1;
  let dateHeader = '';
  return () => {
    const now = clock.now();
    if (Math.floor(now / 1000) !== dateSecond) {
      dateSecond = Math.floor(now / 1000);
      dateHeader = new Date(now).toUTCString();
    }
    return dateHeader;
  };
}

function isAuthorized(request: FastifyRequest, { token, deviceLogins }: Admission): boolean {
  const url = request.url;
  const queryAt = url.indexOf('?');
  const path = queryAt < 0 ? url : url.slice(0, queryAt);
  if (!path.startsWith(`${API_PREFIX}/`) && !path.startsWith(`${CONTROL_PREFIX}/`)) return true;
  if (OPEN_PATHS.has(path)) return true;
  // An EventSource cannot send headers: the page's event stream carries the token in its query.
  const query =
    path === EVENTS_PATH && queryAt >= 0 ? new URLSearchParams(url.slice(queryAt + 1)).get('token') : null;
  const given = request.headers['x-api-token'] ?? bearer(request.headers.authorization) ?? query ?? undefined;
  if (given === token || (typeof given === 'string' && deviceLogins.accepts(given))) return true;
  const forkedRun = request.headers[FORKED_RUN_HEADER];
  return (
    path === `${API_PREFIX}/setImpactedTargets` && typeof forkedRun === 'string' && forkedRun.trim() !== ''
  );
}

function bearer(header: string | undefined): string | undefined {
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match?.[1];
}

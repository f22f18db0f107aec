// What every public endpoint shares: its path under /v1, body validation with the wire schema, and a
// JSON answer written from the wire's response schema. Errors thrown by the engine reach the server's
// error handler as plain text.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  ENDPOINTS,
  ROUTES,
  isObject,
  type EndpointName,
  type RequestOf,
  type ResponseOf,
} from '../src/wire/index.js';
import { answerWriter, type AnsweringEndpoint } from './serializers.js';

export const API_PREFIX = '/v1';

declare module 'fastify' {
  interface FastifyRequest {
    /** When the request came in (performance.now()), stamped by the server's onRequest hook. */
    arrivedAt: number;
  }
}

/** The success body of writes. */
export const EMPTY: Readonly<Record<string, never>> = {};
const EMPTY_JSON = '{}';
/** What fastify makes of `application/json` for a text answer, given whole: no charset to add per answer. */
const JSON_TEXT = 'application/json; charset=utf-8';
export const PLAIN_TEXT = 'text/plain; charset=utf-8';

/** A JSON answer already written (by an endpoint's writer, or cached). */
export function sendJson(reply: FastifyReply, payload: string | Buffer, status = 200): FastifyReply {
  return reply.code(status).type(JSON_TEXT).send(payload);
}

/** A plain-text answer: every error of the emulator's, as the service's errors are plain text. */
export function sendText(reply: FastifyReply, status: number, text: string): FastifyReply {
  return reply.code(status).type(PLAIN_TEXT).send(text);
}

/** What an endpoint's handler returns: its answer, or EMPTY for a write that answers `{}`. */
export type AnswerOf<E extends EndpointName> = E extends AnsweringEndpoint ? ResponseOf<E> : typeof EMPTY;

/** How an endpoint's answers are written: from its response schema, or `{}` for a write that has none. */
export function writerOf<E extends EndpointName>(
  endpoint: E,
): (answer: AnswerOf<E>, request: FastifyRequest) => string {
  if (!('response' in ENDPOINTS[endpoint])) return () => EMPTY_JSON;
  return answerWriter(endpoint as AnsweringEndpoint) as (
    answer: AnswerOf<E>,
    request: FastifyRequest,
  ) => string;
}

/** Serves a POST endpoint with `handle`; says which endpoint it served (see unservedEndpoints). */
export function answerPost<E extends EndpointName>(
  app: FastifyInstance,
  endpoint: E,
  handle: (body: RequestOf<E>, headers: Record<string, unknown>) => AnswerOf<E>,
): E {
  const { path, request: schema } = ENDPOINTS[endpoint];
  const closed = schema.additionalProperties === false ? Object.keys(schema.properties ?? {}) : undefined;
  const write = writerOf(endpoint);
  app.post(
    `${API_PREFIX}${path}`,
    {
      schema: { body: schema },
      ...(closed ? { preValidation: refuseUnknownFields(endpoint, closed) } : {}),
    },
    (request, reply) => {
      const answer = handle(request.body as RequestOf<E>, request.headers);
      sendJson(reply, write(answer, request));
    },
  );
  return endpoint;
}

/**
 * The endpoints of the wire that `served` lacks. Typed: where the server's routes are registered, a new
 * endpoint's row under src/wire/ that no route serves yet is a type error naming it, not a 404 at run time.
 */
export function unservedEndpoints<S extends EndpointName>(served: readonly S[]): Exclude<EndpointName, S>[] {
  const serving = new Set<EndpointName>(served);
  return (Object.keys(ROUTES) as EndpointName[]).filter(
    (endpoint): endpoint is Exclude<EndpointName, S> => !serving.has(endpoint),
  );
}

/** For a body that takes only the fields it names: 400 naming every field it does not take. */
function refuseUnknownFields(endpoint: string, known: readonly string[]) {
  const allowed = new Set(known);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (!isObject(request.body)) return;
    const unknown = Object.keys(request.body).filter((field) => !allowed.has(field));
    if (unknown.length === 0) return;
    const fields = unknown.map((field) => JSON.stringify(field)).join(', ');
    const them = unknown.length > 1 ? 'the fields' : 'the field';
    return sendText(reply, 400, `${endpoint} does not take ${them} ${fields}; it takes ${known.join(', ')}`);
  };
}

/** Enum values arrive in any case; the engine works in lowercase. */
export function lower<T extends string>(value: T | undefined): T | undefined {
  return value === undefined ? undefined : (value.toLowerCase() as T);
}

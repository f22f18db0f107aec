// What every public endpoint shares: its path under /v1, body validation with the wire schema, and a
// JSON answer. Errors thrown by the engine reach the server's error handler as plain text.
import type { FastifyInstance } from 'fastify';
import { ENDPOINTS, type EndpointName, type RequestOf } from '../src/wire/index.js';

export const API_PREFIX = '/v1';

/** The success body of writes. */
export const EMPTY = {};

export function answerPost<E extends EndpointName>(
  app: FastifyInstance,
  endpoint: E,
  handle: (body: RequestOf<E>, headers: Record<string, unknown>) => object,
): void {
  const { path, request: schema } = ENDPOINTS[endpoint];
  app.post(`${API_PREFIX}${path}`, { schema: { body: schema } }, async (request, reply) => {
    const answer = handle(request.body as RequestOf<E>, request.headers);
    return reply.code(200).type('application/json').send(answer);
  });
}

/** Enum values arrive in any case; the engine works in lowercase. */
export function lower<T extends string>(value: T | undefined): T | undefined {
  return value === undefined ? undefined : (value.toLowerCase() as T);
}

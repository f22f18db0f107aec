// The v2 API under /v2, beside v1, over the same engine and stores: every operation of V2_ROUTES, each
// request checked against the document (path, query, body), authenticated by API key with the
// permissions its route and body need, rate limited, and answered with `X-Request-Id`; every error is
// `{"error":{"code","message"}}`.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { V2_ROUTES, permissionsFor, type V2OperationId } from '../../src/wire/v2/index.js';
import { requireActionsOperation } from './actions-logins.js';
import { authenticate, requirePermissions, type Credentials } from './auth.js';
import { TextAnswer, type V2Context, type V2Handlers } from './call.js';
import { prepareCall } from './prepare.js';
import { QueueModelError } from '../../src/queue-model/index.js';
import { V2Error, sendV2Error, validationFailed } from './errors.js';
import type { ApiKey } from './keys.js';
import type { RateLimits } from './rate-limit.js';

export const V2_PREFIX = '/v2';
const JSON_TYPES = ['application/json', 'application/merge-patch+json'];

declare module 'fastify' {
  interface FastifyRequest {
    v2Key?: ApiKey;
  }
  interface FastifyContextConfig {
    v2Operation?: V2OperationId;
  }
}

export interface V2Server {
  context: V2Context;
  handlers: V2Handlers;
  credentials: Credentials;
  rateLimits: RateLimits;
}

export function registerV2(app: FastifyInstance, server: V2Server): void {
  void app.register(
    async (v2) => {
      v2.removeContentTypeParser(['application/json']);
      v2.addContentTypeParser(JSON_TYPES, { parseAs: 'string' }, (_request, body, done) => {
        const text = String(body);
        if (text.trim() === '') return done(null, undefined);
        try {
          done(null, JSON.parse(text) as unknown);
        } catch {
          done(validationFailed('The request body is not valid JSON'), undefined);
        }
      });
      v2.addHook('onRequest', (request, reply, done) => {
        reply.header('x-request-id', `req_${randomUUID().replace(/-/g, '')}`);
        try {
          request.v2Key = authenticate(request.headers, server.credentials);
          const operation = request.routeOptions.config.v2Operation;
          if (operation) server.rateLimits.take(operation, request.v2Key);
          done();
        } catch (error) {
          sendV2Error(reply, error as V2Error);
        }
      });
      v2.setErrorHandler((error: FastifyError, request, reply) => answerError(error, request, reply));
      v2.setNotFoundHandler((request, reply) =>
        sendV2Error(
          reply,
          new V2Error(404, 'NOT_FOUND', `${request.method} ${request.url.split('?')[0]} is not a v2 route`),
        ),
      );
      for (const operation of Object.keys(V2_ROUTES) as V2OperationId[]) route(v2, operation, server);
    },
    { prefix: V2_PREFIX },
  );
}

function route(v2: FastifyInstance, operation: V2OperationId, server: V2Server): void {
  const { method, path, success } = V2_ROUTES[operation];
  const handle = server.handlers[operation] as (call: unknown, context: V2Context) => unknown;
  v2.route({
    method,
    url: path.slice(V2_PREFIX.length).replace(/\{(\w+)\}/g, ':$1'),
    config: { v2Operation: operation },
    handler: (request, reply) => {
      const key = request.v2Key!;
      if (key.actions) requireActionsOperation(operation);
      else requirePermissions(key, permissionsFor(operation, request.body));
      const answer = handle(prepareCall(operation, request, key), server.context);
      if (answer instanceof TextAnswer) return reply.code(success).type(answer.contentType).send(answer.text);
      if (answer === undefined) return reply.code(success).send();
      return reply.code(success).type('application/json; charset=utf-8').send(JSON.stringify(answer));
    },
  });
}

/** The code of a refusal the shared engine throws in v1's terms, by its status. */
const ENGINE_ERROR_CODES: Partial<Record<number, V2Error['code']>> = {
  400: 'VALIDATION_FAILED',
  404: 'NOT_FOUND',
};

function answerError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof V2Error) return sendV2Error(reply, error);
  if (error instanceof QueueModelError) {
    const code = ENGINE_ERROR_CODES[error.status] ?? 'INTERNAL_ERROR';
    return sendV2Error(reply, new V2Error(error.status, code, error.message));
  }
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return sendV2Error(reply, validationFailed('Content-Type must be application/json'));
  }
  if (error.statusCode === 413) {
    return sendV2Error(reply, validationFailed('The request body is too large (the limit is 20 MiB)'));
  }
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return sendV2Error(reply, validationFailed(error.message));
  }
  request.log.error(error);
  return sendV2Error(reply, new V2Error(500, 'INTERNAL_ERROR', 'The emulator failed to answer; see its log'));
}

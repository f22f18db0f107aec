// The v2 API's refusal: a status, one of the document's error codes and a message, answered as
// `{"error":{"code","message"}}` (v1's errors stay plain text; see ../errors.ts).
import type { FastifyReply } from 'fastify';
import type { V2ErrorCode } from '../../src/wire/v2/index.js';

export class V2Error extends Error {
  constructor(
    readonly status: number,
    readonly code: V2ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'V2Error';
  }
}

export function sendV2Error(reply: FastifyReply, error: V2Error): FastifyReply {
  return reply
    .code(error.status)
    .type('application/json; charset=utf-8')
    .send(JSON.stringify({ error: { code: error.code, message: error.message } }));
}

export const validationFailed = (message: string) => new V2Error(400, 'VALIDATION_FAILED', message);

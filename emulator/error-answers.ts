// How the server answers whatever a route threw: an QueueModelError with its status, a body the wire
// schemas refuse with 400 naming the first problem, an oversized body with 413, anything else with 500.
// Every error is plain text, as the service's are.
import type { FastifyError, FastifyReply } from 'fastify';
import { MAX_BODY_BYTES } from '../src/wire/index.js';
import { QueueModelError } from '../src/queue-model/index.js';
import { sendText } from './http.js';

const CLIENT_ERRORS: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Content-Type must be application/json',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty; send a JSON object',
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON',
};

export function answerError(error: FastifyError, reply: FastifyReply): FastifyReply {
  if (error instanceof QueueModelError) return sendText(reply, error.status, error.message);
  if (error.validation) {
    const where = error.validationContext === 'querystring' ? 'query string' : 'request body';
    return sendText(reply, 400, `Invalid ${where}: ${describeValidation(error)}`);
  }
  if (error.statusCode === 413) {
    return sendText(reply, 413, `Request body too large: the limit is ${MAX_BODY_BYTES} bytes (20 MiB)`);
  }
  const known = error.code ? CLIENT_ERRORS[error.code] : undefined;
  if (known) return sendText(reply, 400, known);
  if (
    error instanceof SyntaxError ||
    (error.statusCode === 400 && !error.code?.startsWith('FST_ERR_VALIDATION'))
  ) {
    return sendText(reply, 400, CLIENT_ERRORS.FST_ERR_CTP_INVALID_JSON_BODY!);
  }
  reply.log.error(error);
  return sendText(reply, 500, 'Internal Server Error');
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

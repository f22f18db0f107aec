// A v2 failure as one line: the status, the envelope's stable code and message, the request's id (for
// the service's support), and what to do. A 403 for a missing permission names the permission and where
// an admin grants it; any 429, JSON or not, is the rate limit.
import type { IncomingHttpHeaders } from 'node:http';
import { permissionsFor, V2_PERMISSIONS, type V2OperationId } from '../../../wire/v2/index.js';
import { ApiError, describeHttpFailure, summarizeBody } from '../errors.js';
import { give, nameOf, reach, words, type Words } from '../../words.js';

const UNKNOWN_REPOSITORY = words`Check ${nameOf('repo')} and ${nameOf('repo-host')}: the service does not know that repository, or it belongs to another organization.`;

const ADVICE: Record<string, Words> = {
  AUTHENTICATION_REQUIRED: words`${give('api-token')} to a v2 API key (trunk_v2_…, made in Settings > Developer > API Keys), and check that ${reach('api-token')}.`,
  INVALID_TOKEN: words`Check that ${nameOf('api-token')} holds a current v2 API key (trunk_v2_…, Settings > Developer > API Keys); a v1 organization token works only with ${nameOf('api-version')} v1.`,
  MERGE_QUEUE_NOT_FOUND: words`Check ${nameOf('repo')}, ${nameOf('target-branch')} (or ${nameOf('queue-id')}): the service has no merge queue there that this key can see.`,
  PR_NOT_FOUND: words`Check ${nameOf('pr-number')} (or ${nameOf('pull-request-id')}): the service does not know that pull request.`,
  REPOSITORY_NOT_FOUND: UNKNOWN_REPOSITORY,
  PROVIDER_URL_NOT_FOUND: UNKNOWN_REPOSITORY,
  RATE_LIMIT_EXCEEDED: ['The organization is over its rate limit.'],
};

interface Envelope {
  code?: string;
  message?: string;
}

export function describeV2Failure(
  operation: V2OperationId,
  body: unknown,
  status: number,
  text: string,
  contentType: string,
  headers: IncomingHttpHeaders,
): ApiError {
  const envelope = readEnvelope(text);
  const requestId = headerValue(headers['x-request-id']);
  if (!envelope?.code || status < 400) {
    const plain = describeHttpFailure(operation, status, text, contentType, headers);
    if (!requestId) return plain;
    return new ApiError(operation, plain.detail, {
      kind: plain.kind,
      status,
      said: withRequestId(plain.serviceSaid, requestId),
    });
  }
  // The code is checked to be one (capital letters and _), so it may be named in our words; the message
  // and the request's id are the service's.
  const said = withRequestId(envelope.message ? summarizeBody(envelope.message) : '', requestId);
  const advice =
    envelope.code === 'INSUFFICIENT_PERMISSIONS'
      ? [missingPermission(operation, body)]
      : (ADVICE[envelope.code] ?? (status >= 500 ? ['The service failed.'] : []));
  return new ApiError(
    operation,
    words`the API answered ${status} ${envelope.code}.${advice.length ? ' ' : ''}${advice}`,
    { kind: 'http', status, said, code: envelope.code },
  );
}

/** The request's id (for the service's support) beside what the service said. */
function withRequestId(said: string, requestId: string | undefined): string {
  return requestId ? `${said}${said ? ' ' : ''}(request ${requestId})` : said;
}

/** Which permission the key lacks, by the route and the body sent, and where an admin grants it. */
function missingPermission(operation: V2OperationId, body: unknown): string {
  const needed = permissionsFor(operation, body).map((p) => `"${V2_PERMISSIONS[p]}"`);
  const what =
    needed.length === 0
      ? 'The API key lacks a permission this request needs'
      : `The API key needs the permission${needed.length > 1 ? 's' : ''} ${needed.join(' and ')}`;
  return `${what}: an organization admin grants it in Settings > Developer > API Keys.`;
}

function readEnvelope(text: string): Envelope | undefined {
  try {
    const parsed = JSON.parse(text) as { error?: Envelope };
    const error = parsed?.error;
    if (!error || typeof error !== 'object') return undefined;
    return {
      code: typeof error.code === 'string' && /^[A-Z_]{1,64}$/.test(error.code) ? error.code : undefined,
      message: typeof error.message === 'string' ? error.message : undefined,
    };
  } catch {
    return undefined;
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return first && /^[\x21-\x7e]{1,200}$/.test(first) ? first : undefined;
}

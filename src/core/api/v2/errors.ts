// A v2 failure as one line: the status, the envelope's stable code and message, the request's id (for
// the service's support), and what to do. A 403 for a missing permission names the permission and where
// an admin grants it; any 429, JSON or not, is the rate limit.
import type { IncomingHttpHeaders } from 'node:http';
import { permissionsFor, V2_PERMISSIONS, type V2OperationId } from '../../../wire/v2/index.js';
import { ApiError, describeHttpFailure, summarizeBody } from '../errors.js';

const ADVICE: Record<string, string> = {
  AUTHENTICATION_REQUIRED:
    'Set api-token to a v2 API key (trunk_v2_…, made in Settings > Developer > API Keys) and pass its secret to this job.',
  INVALID_TOKEN:
    'Check that api-token holds a current v2 API key (trunk_v2_…, Settings > Developer > API Keys); a v1 organization token works only with api-version v1.',
  MERGE_QUEUE_NOT_FOUND:
    'Check repo, target-branch (or queue-id): the service has no merge queue there that this key can see.',
  PR_NOT_FOUND: 'Check pr-number (or pull-request-id): the service does not know that pull request.',
  REPOSITORY_NOT_FOUND:
    'Check repo and repo-host: the service does not know that repository, or it belongs to another organization.',
  PROVIDER_URL_NOT_FOUND:
    'Check repo and repo-host: the service does not know that repository, or it belongs to another organization.',
  RATE_LIMIT_EXCEEDED: 'The organization is over its rate limit.',
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
    return new ApiError(operation, `${plain.message} (request ${requestId})`, {
      kind: plain.kind,
      status,
      body: plain.body,
    });
  }
  const said = summarizeBody(`${envelope.code}${envelope.message ? `: ${envelope.message}` : ''}`);
  const advice =
    envelope.code === 'INSUFFICIENT_PERMISSIONS'
      ? missingPermission(operation, body)
      : (ADVICE[envelope.code] ?? (status >= 500 ? 'The service failed.' : ''));
  const id = requestId ? ` (request ${summarizeBody(requestId).slice(0, 100)})` : '';
  return new ApiError(operation, `the API answered ${status} ${said}${id}. ${advice}`.trim(), {
    kind: 'http',
    status,
    body: said,
    code: envelope.code,
  });
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

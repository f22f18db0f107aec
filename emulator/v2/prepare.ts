// A request checked against the v2 document before its handler sees it: path parameters, query
// parameters (strings read as the numbers and booleans the document types; an unknown parameter or a
// value spelled otherwise is refused) and the body, each refused with 400 VALIDATION_FAILED naming the
// first problem.
import type { FastifyRequest } from 'fastify';
import type { V2OperationId } from '../../src/wire/v2/index.js';
import type { V2Call } from './call.js';
import { describeProblem, validatorsOf } from './document.js';
import { validationFailed } from './errors.js';
import type { ApiKey } from './keys.js';
import { pageOf } from './paging.js';

const PAGING_PARAMETERS = new Set(['limit', 'cursor', 'includeTotal']);

export function prepareCall<Id extends V2OperationId>(
  operation: Id,
  request: FastifyRequest,
  key: ApiKey,
): V2Call<Id> {
  const validators = validatorsOf(operation);
  const path = { ...(request.params as Record<string, string>) };
  if (!validators.path(path)) throw validationFailed(describeProblem('path', validators.path.errors));
  const query = { ...(request.query as Record<string, unknown>) };
  if (validators.refusesBadRequests && !validators.query(query)) {
    throw validationFailed(describeProblem('query', validators.query.errors));
  }
  const body = checkedBody(operation, request.body);
  const filters = Object.entries(query)
    .filter(([name]) => !PAGING_PARAMETERS.has(name))
    .sort(([a], [b]) => a.localeCompare(b));
  const scope = JSON.stringify([operation, path, filters]);
  return {
    operation,
    path: path as V2Call<Id>['path'],
    query: query as V2Call<Id>['query'],
    body: body as V2Call<Id>['body'],
    key,
    headers: request.headers,
    page: (items, keyOf, view) =>
      pageOf(
        {
          scope,
          limit: query.limit as number | undefined,
          cursor: query.cursor as string | undefined,
          includeTotal: query.includeTotal as boolean | undefined,
        },
        items,
        keyOf,
        view,
      ),
  };
}

function checkedBody(operation: V2OperationId, body: unknown): unknown {
  const validators = validatorsOf(operation);
  if (!validators.body) {
    const empty =
      body === undefined || (typeof body === 'object' && body !== null && Object.keys(body).length === 0);
    if (!empty) throw validationFailed(`${operation} takes no request body`);
    return undefined;
  }
  if (body === undefined) {
    if (validators.bodyRequired) throw validationFailed(`${operation} needs a JSON request body`);
    return undefined;
  }
  if (!validators.body(body)) throw validationFailed(describeProblem('body', validators.body.errors));
  return body;
}

// A request checked against the v2 document before its handler sees it: path parameters, query
// parameters (strings read as the numbers and booleans the document types; an unknown parameter or a
// value spelled otherwise is refused) and the body, each refused with 400 VALIDATION_FAILED naming the
// first problem. A body sent to an operation that takes none is ignored, as the document says.
import type { FastifyRequest } from 'fastify';
import type { V2OperationId } from '../../src/wire/v2/index.js';
import type { V2Call } from './call.js';
import { describeProblem, validatorsOf } from './document.js';
import { validationFailed } from './errors.js';
import type { ApiKey } from './keys.js';
import { firstPageTime, pageOf, type PageRequest } from './paging.js';

const PAGING_PARAMETERS = new Set(['limit', 'cursor', 'includeTotal']);

export function prepareCall<Id extends V2OperationId>(
  operation: Id,
  request: FastifyRequest,
  key: ApiKey,
): V2Call<Id> {
  const validators = validatorsOf(operation);
  const path = { ...(request.params as Record<string, string>) };
  if (!validators.path(path)) throw validationFailed(describeProblem('path', validators.path.errors));
  const query = withoutDefaultOrder(operation, { ...(request.query as Record<string, unknown>) });
  if (validators.refusesBadRequests && !validators.query(query)) {
    throw validationFailed(describeProblem('query', validators.query.errors));
  }
  const body = checkedBody(operation, request.body);
  const filters = Object.entries(query)
    .filter(([name]) => !PAGING_PARAMETERS.has(name))
    .sort(([a], [b]) => a.localeCompare(b));
  const scope = JSON.stringify([operation, path, filters]);
  const pageRequest: PageRequest = {
    scope,
    limit: query.limit as number | undefined,
    cursor: query.cursor as string | undefined,
    includeTotal: query.includeTotal as boolean | undefined,
  };
  return {
    operation,
    path: path as V2Call<Id>['path'],
    query: query as V2Call<Id>['query'],
    body: body as V2Call<Id>['body'],
    key,
    headers: request.headers,
    firstPageTime: (now) => (pageRequest.firstPageAt = firstPageTime(pageRequest, now)),
    page: (items, keyOf, view) => pageOf(pageRequest, items, keyOf, view),
  };
}

/** Lists whose `sort` and `direction` take their defaults only (the document declares neither). */
const DEFAULT_ORDER: Partial<Record<V2OperationId, { sort: string; direction: string }>> = {
  'mergeQueues.listPullRequests': { sort: 'createdAt', direction: 'desc' },
  'mergeQueues.listVerificationRuns': { sort: 'createdAt', direction: 'desc' },
  'pullRequests.listVerificationRuns': { sort: 'createdAt', direction: 'desc' },
};

/** The query without `sort`/`direction` when they name the list's own order; another order is a 400. */
function withoutDefaultOrder(
  operation: V2OperationId,
  query: Record<string, unknown>,
): Record<string, unknown> {
  const order = DEFAULT_ORDER[operation];
  if (!order) return query;
  for (const name of ['sort', 'direction'] as const) {
    if (query[name] === undefined) continue;
    if (query[name] !== order[name]) {
      throw validationFailed(
        `${name} takes only ${order[name]} here (sort=${order.sort}&direction=${order.direction}, the list's own order)`,
      );
    }
    delete query[name];
  }
  return query;
}

function checkedBody(operation: V2OperationId, body: unknown): unknown {
  const validators = validatorsOf(operation);
  // An operation the document gives no body (pause, resume, drain, dequeue, restart-tests) ignores one.
  if (!validators.body) return undefined;
  if (body === undefined) {
    if (validators.bodyRequired) throw validationFailed(`${operation} needs a JSON request body`);
    return undefined;
  }
  if (!validators.body(body)) throw validationFailed(describeProblem('body', validators.body.errors));
  return body;
}

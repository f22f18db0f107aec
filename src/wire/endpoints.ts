// Every endpoint of the v1 API with its schemas: its row of routes.ts beside the request and 200 answer
// schemas its area's file gives (merge-queue.ts, flaky-tests.ts, service.ts). A row without schemas, or
// schemas without a row, is a type error naming the endpoint.
import type { Static, TSchema } from '@sinclair/typebox';
import { FLAKY_TESTS_ENDPOINTS } from './flaky-tests.js';
import { MERGE_QUEUE_ENDPOINTS } from './merge-queue.js';
import { ROUTES, type EndpointName } from './routes.js';
import type { EndpointSchema } from './schemas.js';
import { SERVICE_ENDPOINTS } from './service.js';

const SCHEMAS = {
  ...MERGE_QUEUE_ENDPOINTS,
  ...FLAKY_TESTS_ENDPOINTS,
  ...SERVICE_ENDPOINTS,
} satisfies Record<EndpointName, EndpointSchema>;

/** An endpoint's schemas (any, while its area's file lacks them: that error is the one to read). */
type SchemasOf<E extends EndpointName> = E extends keyof typeof SCHEMAS
  ? (typeof SCHEMAS)[E]
  : EndpointSchema;
type Endpoints = { readonly [E in EndpointName]: (typeof ROUTES)[E] & SchemasOf<E> };

const schemaRows: Partial<Record<EndpointName, EndpointSchema>> = SCHEMAS;
export const ENDPOINTS = Object.fromEntries(
  (Object.keys(ROUTES) as EndpointName[]).map((name) => [name, { ...ROUTES[name], ...schemaRows[name] }]),
) as Endpoints;

export type RequestOf<E extends EndpointName> = Static<(typeof ENDPOINTS)[E]['request']>;
export type ResponseOf<E extends EndpointName> = (typeof ENDPOINTS)[E] extends {
  response: infer R extends TSchema;
}
  ? Static<R>
  : unknown;

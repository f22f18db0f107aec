// Every endpoint of the v1 API, one row each, gathered from the areas' files (merge-queue.ts,
// flaky-tests.ts, service.ts): its route beside its request and 200 answer schemas. The names of the
// endpoints and what each row says are the types the client, the emulator and the v2 translations are
// checked against; routes.ts, written from these rows by `npm run metadata`, is the plain data a run reads.
import type { Static, TSchema } from '@sinclair/typebox';
import type { EndpointRows } from './endpoint-row.js';
import { FLAKY_TESTS_ENDPOINTS } from './flaky-tests.js';
import { MERGE_QUEUE_ENDPOINTS } from './merge-queue.js';
import { SERVICE_ENDPOINTS } from './service.js';

export const ENDPOINTS = {
  ...MERGE_QUEUE_ENDPOINTS,
  ...FLAKY_TESTS_ENDPOINTS,
  ...SERVICE_ENDPOINTS,
} satisfies EndpointRows;

export type EndpointName = keyof typeof ENDPOINTS;

/** An endpoint's row without its schemas, as routes.ts writes it out. */
export type RouteOf<E extends EndpointName> = Omit<(typeof ENDPOINTS)[E], 'request' | 'response'>;

/** The endpoints src/core/api/v2 answers with v2's operations (the others go to v1 over v2 too). */
export type TranslatedEndpoint = {
  [E in EndpointName]: (typeof ENDPOINTS)[E]['v2'] extends 'translated' ? E : never;
}[EndpointName];

export type RequestOf<E extends EndpointName> = Static<(typeof ENDPOINTS)[E]['request']>;
export type ResponseOf<E extends EndpointName> = (typeof ENDPOINTS)[E] extends {
  response: infer R extends TSchema;
}
  ? Static<R>
  : unknown;

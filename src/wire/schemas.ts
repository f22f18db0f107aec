// The shape of an endpoint's schemas, which each area's file (merge-queue.ts, flaky-tests.ts, service.ts)
// gives for its endpoints; endpoints.ts puts them beside the routes.
import type { TSchema } from '@sinclair/typebox';
import type { EndpointName } from './routes.js';

export interface EndpointSchema {
  /** JSON body (POST) or query string (GET) schema. */
  readonly request: TSchema;
  /** The 200 body; absent for writes that answer `{}`, empty or `OK`, and for plain-text answers. */
  readonly response?: TSchema;
}

/** Some endpoints' schemas, by name: a name that is not a row of routes.ts is a type error. */
export type EndpointSchemas = Partial<Record<EndpointName, EndpointSchema>>;

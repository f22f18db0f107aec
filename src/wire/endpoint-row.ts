// The shape of an endpoint's row, which each area's file (merge-queue.ts, flaky-tests.ts, service.ts)
// gives for its endpoints: where it lives, how it may be called, how big its answer may be, what answers
// it over api-version v2, and its request and answer schemas. endpoints.ts gathers the rows; the plain
// part of each (its Route) is written out by `npm run metadata` as routes.ts, which the action's run reads
// instead, as it must not load the schema builder.
import type { TSchema } from '@sinclair/typebox';
import type { AnswerCap } from './limits.js';

/** An endpoint's row without its schemas: plain data, what a run reads (routes.ts). */
export interface Route {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  /** The kind of its answer, hence its cap (ANSWER_CAPS in limits.ts). */
  readonly answer: AnswerCap;
  /**
   * Over api-version v2: `translated` (src/core/api/v2 answers it with v2's operations, and the compiler
   * asks for that translation) or `v1-only` (v2 has no equivalent: over v2 it goes to v1 without the key when anyone may call it, and
   * otherwise stops, as v1 refuses a v2 key).
   */
  readonly v2: 'translated' | 'v1-only';
  /** false for a write that would do its work again if repeated after its answer was lost. */
  readonly repeatable?: boolean;
  /** false for the endpoints anyone may call, without an organization token. */
  readonly authenticated?: boolean;
}

export interface EndpointRow extends Route {
  /** JSON body (POST) or query string (GET) schema. */
  readonly request: TSchema;
  /** The 200 body; absent for writes that answer `{}`, empty or `OK`, and for plain-text answers. */
  readonly response?: TSchema;
}

/** Some endpoints' rows, by name. */
export type EndpointRows = Record<string, EndpointRow>;

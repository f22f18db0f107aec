// What a v2 handler is given (the request checked against the document, and the key that made it) and
// what it answers with: the operation's JSON answer, a text answer (Prometheus), or nothing (204).
import type { V2AnswerOf, V2BodyOf, V2OperationId, V2PathOf, V2QueryOf } from '../../src/wire/v2/index.js';
import type { FlakyTestStore } from '../flaky-tests/store.js';
import type { MergeQueueEngine } from '../../src/queue-model/index.js';
import type { V2Directory } from './directory.js';
import type { DynamicCiStore } from './dynamic-ci-store.js';
import type { ApiKey } from './keys.js';
import type { Page } from './paging.js';
import type { TestCollectionStore } from './test-collections.js';

export class TextAnswer {
  constructor(
    readonly contentType: string,
    readonly text: string,
  ) {}
}

export interface V2Context {
  engine: MergeQueueEngine;
  directory: V2Directory;
  flakyTests: FlakyTestStore;
  dynamicCi: DynamicCiStore;
  testCollections: TestCollectionStore;
}

export interface V2Call<Id extends V2OperationId> {
  operation: Id;
  path: V2PathOf<Id>;
  query: V2QueryOf<Id>;
  body: V2BodyOf<Id>;
  key: ApiKey;
  headers: Record<string, unknown>;
  /**
   * For a list whose window ends at the time of its first page: that time (`now` on the first page, the
   * time the cursor kept after), which the page's cursor then keeps.
   */
  firstPageTime(now: number): number;
  /** The page of `items` this request's limit and cursor ask for. */
  page<T, V>(items: readonly T[], keyOf: (item: T) => string, view: (item: T) => V): Page<V>;
}

export type V2Handler<Id extends V2OperationId> = (
  call: V2Call<Id>,
  context: V2Context,
) => V2AnswerOf<Id> | TextAnswer | undefined;

export type V2Handlers = { [Id in V2OperationId]: V2Handler<Id> };

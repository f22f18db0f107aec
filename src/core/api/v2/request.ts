import type { V2BodyOf, V2OperationId, V2PathOf, V2QueryOf } from '../../../wire/v2/index.js';

/** What one v2 request carries besides its route. */
export interface V2Request<Id extends V2OperationId> {
  path?: V2PathOf<Id>;
  query?: V2QueryOf<Id>;
  body?: V2BodyOf<Id>;
}

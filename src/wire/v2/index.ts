// The v2 wire format: the service's document (openapi.structure.json) is the one definition of every
// request, answer and enum; openapi-types.ts is its TypeScript, generated; routes.ts and permissions.ts
// say where each operation lives and what a key needs to call it.
import type { components, operations } from './openapi-types.js';
import type { V2OperationId } from './routes.js';

export * from './routes.js';
export * from './permissions.js';
export * from './from-v1.js';
export * from './id-forms.js';
export * from './answer-shapes.js';

export type V2Schemas = components['schemas'];
/** A schema of the document by name: `V2<'PullRequest'>`. */
export type V2<Name extends keyof V2Schemas> = V2Schemas[Name];
export type V2ErrorCode = V2<'ErrorCode'>;

type Operation<Id extends V2OperationId> = operations[Id];
type JsonOf<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;

/** The JSON body an operation takes (never for one without a body). */
export type V2BodyOf<Id extends V2OperationId> =
  Operation<Id> extends { requestBody: infer B }
    ? JsonOf<B>
    : Operation<Id> extends { requestBody?: infer B }
      ? JsonOf<NonNullable<B>>
      : never;
/** The query parameters an operation takes. */
export type V2QueryOf<Id extends V2OperationId> = NonNullable<Operation<Id>['parameters']['query']>;
/** The path parameters an operation takes. */
export type V2PathOf<Id extends V2OperationId> = NonNullable<Operation<Id>['parameters']['path']>;
/** The JSON body of an operation's success (200, 201 or 202; never for a 204). */
export type V2AnswerOf<Id extends V2OperationId> = JsonOf<
  Operation<Id>['responses'][Extract<keyof Operation<Id>['responses'], 200 | 201 | 202>]
>;

// The v1 API's contract (v2's is in v2/): one definition of every request, answer and webhook, and one row
// per endpoint in its area's file (merge-queue.ts, flaky-tests.ts, service.ts). The action builds requests
// from these types, finds endpoints by their routes and checks answers against the answer shapes (the
// routes and the answer schemas read tolerantly, both written out as plain data by `npm run metadata`);
// the emulator validates incoming bodies against the same request schemas and writes its answers with
// the answer schemas. routes, readers, limits, enums and answer-shapes load no schema builder: the
// action's run imports only those at run time.
export * from './common.js';
export * from './limits.js';
export * from './enums.js';
export * from './merge-queue.js';
export * from './flaky-tests.js';
export * from './service.js';
export * from './webhooks.js';
export * from './routes.js';
export * from './endpoints.js';
export type { Route } from './endpoint-row.js';
export * from './readers.js';
export * from './tolerant.js';
export * from './answer-shapes.js';

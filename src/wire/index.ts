// The v1 wire format: one definition of every request, answer and webhook. The action builds requests
// from these types and reads answers with `tolerant(...)` of the answer schemas; the emulator validates
// incoming bodies against the same request schemas and writes its answers with the answer schemas.
export * from './common.js';
export * from './enums.js';
export * from './merge-queue.js';
export * from './flaky-tests.js';
export * from './service.js';
export * from './webhooks.js';
export * from './endpoints.js';
export * from './tolerant.js';

// Runs around every test file (jest setupFilesAfterEnv): each 200 answer of the public API and each
// webhook payload of every emulator the file starts is checked against the service's OpenAPI document
// (its structure-only copy in src/wire/v1, see helpers/openapi.ts), and the file fails, naming what did
// not match, if any did not. An answer written by a response schema's serializer must also say exactly
// what JSON.stringify of the same value says: no field dropped, no value coerced to another type.
import { afterAll } from '@jest/globals';
import { isDeepStrictEqual } from 'node:util';
import { observeEmulators } from '../../emulator/observe.js';
import { answerProblem, webhookProblem } from './openapi.js';

const API_PREFIX = '/v1';
const problems = new Set<string>();

const stop = observeEmulators({
  answer(answer) {
    if (answer.status !== 200 || !answer.path.startsWith(`${API_PREFIX}/`)) return;
    const problem = answerProblem(
      answer.method,
      answer.path.slice(API_PREFIX.length),
      answer.body,
      answer.contentType,
    );
    if (problem) problems.add(problem);
    const changed = serializerChange(answer.body, answer.plainJson);
    if (changed) problems.add(`${answer.method} ${answer.path}: ${changed}`);
  },
  webhook(payload) {
    const problem = webhookProblem(payload);
    if (problem) problems.add(problem);
  },
});

afterAll(() => {
  stop();
  if (problems.size === 0) return;
  const list = [...problems];
  throw new Error(
    `${list.length} answer(s) or webhook(s) of the emulator do not match the service's OpenAPI document (or were changed by a response schema's serializer):\n` +
      list.slice(0, 20).join('\n'),
  );
});

/** Where the schema serializer's text differs from JSON.stringify's (plainJson), or undefined. */
function serializerChange(body: string, plainJson: string | undefined): string | undefined {
  if (plainJson === undefined) return undefined;
  const difference = firstDifference(JSON.parse(body), JSON.parse(plainJson), '$');
  return difference && `the response schema's serializer changed the answer at ${difference}`;
}

function firstDifference(written: unknown, plain: unknown, path: string): string | undefined {
  if (isDeepStrictEqual(written, plain)) return undefined;
  const describe = (value: unknown) =>
    value === undefined ? 'nothing' : JSON.stringify(value).slice(0, 120);
  if (written && plain && typeof written === 'object' && typeof plain === 'object') {
    const keys = new Set([...Object.keys(written), ...Object.keys(plain)]);
    for (const key of keys) {
      const inner = firstDifference(
        (written as Record<string, unknown>)[key],
        (plain as Record<string, unknown>)[key],
        Array.isArray(plain) ? `${path}[${key}]` : `${path}.${key}`,
      );
      if (inner) return inner;
    }
  }
  return `${path}: wrote ${describe(written)} where JSON.stringify writes ${describe(plain)}`;
}

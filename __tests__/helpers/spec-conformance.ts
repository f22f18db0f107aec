// Runs around every test file (jest setupFilesAfterEnv): each 200 answer of the public API and each
// webhook payload of every emulator the file starts is checked against the service's OpenAPI document,
// and the file fails, naming what did not match, if any did not.
import { afterAll } from '@jest/globals';
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
    `${list.length} answer(s) or webhook(s) of the emulator do not match the service's OpenAPI document:\n` +
      list.slice(0, 20).join('\n'),
  );
});

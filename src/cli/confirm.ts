// Asking before an operation that cannot be taken back (delete-queue, drain-queue, cancel-pull-request),
// as gh does: only when a person is at a terminal (stdin and stderr both one, and not in CI); --yes skips
// the question. A pipe or a CI job never waits on a question nobody can answer: it runs as asked.
import type { Environment } from '../hosts/common/pipeline-context.js';

type Question = (target: { queue: string; pr: string }) => string;

const QUESTIONS: Record<string, Question> = {
  'delete-queue': ({ queue }) => `Delete the merge queue ${queue}? This cannot be undone.`,
  'drain-queue': ({ queue }) =>
    `Drain the merge queue ${queue}? The PRs in it are tested and merged; nothing new starts until it is resumed.`,
  'cancel-pull-request': ({ queue, pr }) =>
    `Cancel ${pr} in the merge queue ${queue}? It leaves the queue and must be submitted again.`,
};

/** The longest answer read: a person types "y" or "yes". */
const MAX_ANSWER_BYTES = 64;

export interface Asker {
  env: Environment;
  stdin?: AsyncIterable<Buffer | string> & { isTTY?: boolean };
  stderr: { write(text: string): unknown; isTTY?: boolean };
}

/** The question for this operation when one must be asked here, else undefined. */
export function questionFor(
  operation: string,
  asker: Asker,
  target: { repo?: string; branch?: string; prNumber?: string },
): string | undefined {
  const question = QUESTIONS[operation];
  if (!question || asker.stdin?.isTTY !== true || asker.stderr.isTTY !== true) return undefined;
  if (asker.env.CI && asker.env.CI !== 'false') return undefined;
  const queue = `for ${target.branch ? `branch ${target.branch}` : 'the target branch'} of ${target.repo || 'this repository'}`;
  return question({ queue, pr: target.prNumber ? `PR #${target.prNumber}` : 'the PR' });
}

/** Asks on stderr and reads one line: true for y or yes, anything else (or end of input) is no. */
export async function ask(question: string, asker: Asker): Promise<boolean> {
  asker.stderr.write(`${question} [y/N] `);
  let answer = '';
  for await (const chunk of asker.stdin ?? []) {
    answer += String(chunk);
    if (answer.includes('\n') || answer.length >= MAX_ANSWER_BYTES) break;
  }
  return /^\s*y(es)?\s*$/i.test(answer.split('\n')[0] ?? '');
}

// How a run that failed ends: the exit code that says what kind of failure it was, the title its error
// line is shown under, and the one line itself.
import { ApiError } from './api/errors.js';
import { ContextError, InputError } from './errors.js';

/** The CLI's exit codes, and what the action's failure means: documented, stable. */
export const EXIT_CODES = {
  done: 0,
  /** The operation's outcome is a failure: the PR failed, fail-on tripped, a wait timed out. */
  failed: 1,
  /** An input or the pipeline's context cannot be used. */
  badInput: 2,
  /** The service refused the request (4xx). */
  refused: 3,
  /** The service could not be reached, or kept failing. */
  unreachable: 4,
} as const;

export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

export function exitCodeOf(error: unknown): ExitCode {
  if (error instanceof InputError || error instanceof ContextError) return EXIT_CODES.badInput;
  if (error instanceof ApiError) {
    const refused =
      error.kind === 'redirect' ||
      (error.kind === 'http' && error.status !== undefined && error.status < 500 && error.status !== 429);
    return refused ? EXIT_CODES.refused : EXIT_CODES.unreachable;
  }
  return EXIT_CODES.failed;
}

export function titleOf(error: unknown, operation: string | undefined): string {
  if (error instanceof InputError) return `Input ${error.input}`;
  if (error instanceof ApiError) return error.endpoint;
  return operation ?? 'merge-queue-action';
}

/** The message of any thrown value, blanks around line breaks folded. */
export function messageOf(error: unknown): string {
  const message =
    error instanceof ApiError ? error.toString() : error instanceof Error ? error.message : String(error);
  return message.replace(/\s*\n\s*/g, ' ').trim() || 'The run failed for an unknown reason.';
}

/**
 * A failure line in the words of the host's user: where the host says how an input is given (the CLI:
 * `--pr-number or MERGE_QUEUE_PR_NUMBER`), the messages' `Input "x":` and "set the x input" say that.
 */
export function inHostTerms(line: string, howToGive: ((input: string) => string) | undefined): string {
  if (!howToGive) return line;
  return line
    .replace(/^Input "([a-z][a-z-]*)":/, (_, input: string) => `${howToGive(input)}:`)
    .replace(/\bset the ([a-z][a-z-]*) input\b/g, (_, input: string) => `give ${howToGive(input)}`);
}

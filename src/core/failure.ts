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
  const what = operation ?? 'merge-queue-action';
  if (error instanceof ApiError) return `${what} failed: ${apiFailureHeadline(error)}`;
  return `${what} failed`;
}

/** What went wrong with the service, in the words a person acts on (the endpoint is in the message). */
function apiFailureHeadline(error: ApiError): string {
  if (error.kind === 'network') return 'the service could not be reached';
  if (error.kind === 'timeout') return 'the service did not answer in time';
  if (error.kind !== 'http' || error.status === undefined)
    return 'the service sent an answer that could not be read';
  if (error.status === 401 || error.status === 403) return 'the API token was refused';
  if (error.status === 404) return 'the service does not know what was asked for';
  if (error.status === 429) return 'the service asked to slow down';
  if (error.status >= 500) return `the service failed (HTTP ${error.status})`;
  return `the service refused the request (HTTP ${error.status})`;
}

/** The message of any thrown value, blanks around line breaks folded. */
export function messageOf(error: unknown): string {
  const message =
    error instanceof ApiError ? error.toString() : error instanceof Error ? error.message : String(error);
  return message.replace(/\s*\n\s*/g, ' ').trim() || 'The run failed for an unknown reason.';
}

/** Where a failure line quoted the service's own text, when it is given apart (RunOptions.serviceTextApart). */
export const SERVICE_TEXT_APART = '(its text is in serviceSaid)';

/**
 * The failure line with the service's own text (an error answer's body) taken out of it, and that text:
 * the line is then our words only.
 */
export function apartFromServiceText(error: unknown): { line: string; said?: string } {
  const line = messageOf(error);
  const said = error instanceof ApiError ? error.body.replace(/\s*\n\s*/g, ' ').trim() : '';
  // The body is quoted after the status (`the API answered 404: ...`), never before it.
  const at = said ? line.indexOf(said, line.indexOf(' answered ')) : -1;
  if (at < 0) return { line };
  // Its quoting goes with it: `answered 404: text.`, `answered 200 with a page ("text")`.
  const before = line
    .slice(0, at)
    .trimEnd()
    .replace(/(?::|\(")$/, '')
    .trimEnd();
  const after = line.slice(at + said.length).replace(/^"\)/, '');
  return { line: `${before} ${SERVICE_TEXT_APART}${after}`, said };
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

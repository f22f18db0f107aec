// How a run that failed ends: the exit code that says what kind of failure it was, the title its error
// line is shown under, and the one line itself.
import { ApiError, labelledServiceText } from './api/errors.js';
import { InputError, isFailure, type FailureKind } from './errors.js';
import type { Words, Wording } from './words.js';

/** The CLI's exit codes, and what the action's failure means: documented, stable. */
export const EXIT_CODES = {
  done: 0,
  /** The operation's outcome is a failure: the PR failed, fail-on tripped, a wait timed out. */
  failed: 1,
  /** An input or the pipeline's context cannot be used. */
  badInput: 2,
  /** The service refused the request (4xx). */
  refused: 3,
  /** The service could not be reached, kept failing, or answered what is not its answer. */
  unreachable: 4,
} as const;

export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

const EXIT_CODE_OF_KIND: Record<FailureKind, ExitCode> = {
  failed: EXIT_CODES.failed,
  'bad-input': EXIT_CODES.badInput,
  refused: EXIT_CODES.refused,
  'not-found': EXIT_CODES.refused,
  unreachable: EXIT_CODES.unreachable,
  'bad-answer': EXIT_CODES.unreachable,
};

/** The exit code of a failure's kind; any other error is the operation failing. */
export function exitCodeOf(error: unknown): ExitCode {
  return isFailure(error) ? EXIT_CODE_OF_KIND[error.failureKind] : EXIT_CODES.failed;
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
  return folded(message) || 'The run failed for an unknown reason.';
}

/**
 * A thrown value as words for a line that tells of it (a warning after a failed read): a failure's own
 * parts, which each host words, the service's text labelled at their end; any other value its message.
 */
export function wordsOf(error: unknown): Words {
  if (!isFailure(error)) return [messageOf(error)];
  return [...error.words, labelledServiceText(error.serviceSaid)];
}

/** Where a failure line leaves the service's own text to a field of its own (RunOptions.serviceTextApart). */
export const SERVICE_TEXT_APART = "(the service's text is in serviceSaid)";

/**
 * A failure in a host's words: its line, ours only, and apart from it the service's own text about it
 * (or '' when it said nothing). Any other thrown value is its message.
 */
export function failureOf(error: unknown, wording: Wording): { line: string; said: string } {
  if (!isFailure(error)) return { line: messageOf(error), said: '' };
  return { line: folded(error.wordedFor(wording)), said: folded(error.serviceSaid) };
}

function folded(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

// Failures as data: what kind each is (which decides the exit code), what it names, what is wrong and what
// to do, and apart from our words the service's own text about it. Each host words a failure when it
// shows it (see words.ts); ApiError (api/errors.ts) is the failure of a call to the service.
import { ACTION_WORDING, asWords, give, say, words, type Words, type Wording } from './words.js';

/**
 * What kind of failure it is, which decides the exit code (README, "Exit codes"): a bad input or context
 * 2, a request the service refused (a 4xx, a 404 included) 3, a service unreachable, failing or
 * answering what is not its answer 4.
 */
export type FailureKind = 'bad-input' | 'refused' | 'not-found' | 'unreachable' | 'bad-answer';

/** A failure a host can word: every error the core raises for a user to act on is one. */
export interface Failure {
  readonly failureKind: FailureKind;
  /** The one line in the host's words: ours only, never the service's text. */
  wordedFor(wording: Wording): string;
  /** The service's own text about it (an error answer's body, a value an answer held), else ''. */
  readonly serviceSaid: string;
}

export function isFailure(error: unknown): error is Failure & Error {
  return error instanceof Error && typeof (error as Partial<Failure>).wordedFor === 'function';
}

/** An input that cannot be used as given. */
export class InputError extends Error implements Failure {
  override name = 'InputError';
  readonly failureKind = 'bad-input';
  readonly serviceSaid = '';
  readonly problem: Words;
  readonly fix: Words;
  constructor(
    readonly input: string,
    problem: string | Words,
    fix: string | Words,
  ) {
    super();
    this.problem = asWords(problem);
    this.fix = asWords(fix);
    this.message = this.wordedFor(ACTION_WORDING);
  }

  wordedFor(wording: Wording): string {
    return `${wording.subject(this.input)}: ${say(this.problem, wording)}. ${say(this.fix, wording)}`;
  }
}

/**
 * An input the run cannot go without, given no value: one sentence that says what needs it and how to give
 * it, in the host's terms ("get-test-details needs the test's id: give --test-id or MERGE_QUEUE_TEST_ID.").
 */
export class MissingInputError extends InputError {
  override name = 'MissingInputError';
  constructor(input: string, sentence: string | Words) {
    super(input, 'is missing', sentence);
  }

  override wordedFor(wording: Wording): string {
    return say(this.fix, wording);
  }
}

/** "get-test-details needs the test's id: give --test-id or MERGE_QUEUE_TEST_ID." */
export function neededBy(operation: string, input: string, what: string): MissingInputError {
  return new MissingInputError(input, words`${operation} needs ${what}: ${give(input)}.`);
}

/** A context (repository, pull request, branch) that cannot be worked out from the pipeline. */
export class ContextError extends Error implements Failure {
  override name = 'ContextError';
  readonly failureKind = 'bad-input';
  readonly serviceSaid = '';
  readonly what: Words;
  constructor(what: string | Words) {
    super();
    this.what = asWords(what).map((part) => (typeof part === 'string' ? part.replace(/\s+/g, ' ') : part));
    this.message = this.wordedFor(ACTION_WORDING);
  }

  wordedFor(wording: Wording): string {
    return say(this.what, wording).trim();
  }
}

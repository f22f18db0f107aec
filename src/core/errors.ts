// Failures as data: what kind each is (which decides the exit code), what it names, what is wrong and what
// to do, and apart from our words the service's own text about it. Each host words a failure when it
// shows it (see words.ts); ApiError (api/errors.ts) is the failure of a call to the service.
import { ACTION_WORDING, asWords, give, say, subjectOf, words, type Words, type Wording } from './words.js';

/**
 * What kind of failure it is, which decides the exit code (README, "Exit codes"): the step could not do
 * its work 1, a bad input or context 2, a request the service refused (a 4xx, a 404 included) 3, a
 * service unreachable, failing or answering what is not its answer 4.
 */
export type FailureKind = 'failed' | 'bad-input' | 'refused' | 'not-found' | 'unreachable' | 'bad-answer';

/** A failure a host can word: every error the core raises for a user to act on is one. */
export interface Failure {
  readonly failureKind: FailureKind;
  /** The one line as data, ours only (never the service's text): the inputs it names as parts. */
  readonly words: Words;
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

  get words(): Words {
    return words`${subjectOf(this.input)}: ${this.problem}. ${this.fix}`;
  }

  wordedFor(wording: Wording): string {
    return say(this.words, wording);
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

  override get words(): Words {
    return this.fix;
  }
}

/** "get-test-details needs the test's id: give --test-id or MERGE_QUEUE_TEST_ID." */
export function neededBy(operation: string, input: string, what: string): MissingInputError {
  return new MissingInputError(input, words`${operation} needs ${what}: ${give(input)}.`);
}

/** A failure that is one line of our words, each input it names a part the host words. */
abstract class WordedFailure extends Error implements Failure {
  abstract readonly failureKind: FailureKind;
  readonly serviceSaid = '';
  constructor(readonly words: Words) {
    super();
    this.message = this.wordedFor(ACTION_WORDING);
  }

  wordedFor(wording: Wording): string {
    return say(this.words, wording).trim();
  }
}

/**
 * A context (repository, pull request, branch) that cannot be worked out from the pipeline, or a place
 * the run was told to write to (--outputs-file) that cannot be used.
 */
export class ContextError extends WordedFailure {
  override name = 'ContextError';
  readonly failureKind = 'bad-input';
  constructor(what: string | Words) {
    super(asWords(what).map((part) => (typeof part === 'string' ? part.replace(/\s+/g, ' ') : part)));
  }
}

/**
 * The step could not do its work (the repository's own tool failed, say) and its inputs say to fail then:
 * our words, naming the inputs that decide it.
 */
export class StepFailure extends WordedFailure {
  override name = 'StepFailure';
  readonly failureKind = 'failed';
  constructor(what: string | Words) {
    super(asWords(what));
  }
}

/** A promise our own code broke, never an input's, a pipeline's or the service's doing: a bug to report. */
export class InternalError extends Error {
  override name = 'InternalError';
}

/** Marks a place our own code never reaches; should it be reached, the message asks for a bug report. */
export function unreachable(what: string): never {
  throw new InternalError(
    `internal: ${what}; this is a bug of merge-queue-action, please report it with this message.`,
  );
}

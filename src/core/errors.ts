// The errors the core raises itself, defined once. Each message is the one line a person sees: what is
// wrong, and what to do. (Failures of an API call are ApiError, in api/errors.ts.)

/** An input that cannot be used as given. */
export class InputError extends Error {
  override name = 'InputError';
  constructor(
    readonly input: string,
    problem: string,
    fix: string,
  ) {
    super(`Input "${input}": ${problem}. ${fix}`);
  }
}

/** A context (repository, pull request, branch) that cannot be worked out from the pipeline. */
export class ContextError extends Error {
  override name = 'ContextError';
  constructor(message: string) {
    super(message.replace(/\s+/g, ' ').trim());
  }
}

/** A refusal by the flaky-tests store: the routes answer it with this status and a plain-text body. */
export class FlakyStoreError extends Error {
  constructor(
    readonly statusCode: 400 | 404,
    message: string,
  ) {
    super(message);
    this.name = 'FlakyStoreError';
  }
}

// Limits of the service that both sides hold to.

/** The service refuses request bodies over this many bytes with 413. */
export const MAX_BODY_BYTES = 20 * 1024 * 1024;

// No v2 write honours Idempotency-Key, so a write whose answer was a 5xx or never came is not simply
// sent again: the resource is read back first, and the write is repeated only when the read shows it was
// not done (a submit never enqueues twice, a restart never restarts twice).
import { words, type Words } from '../../words.js';
import { ApiError } from '../errors.js';

/** At most this many sends of one write, read-backs between them. */
const MAX_SENDS = 3;

export interface UnknownOutcome {
  /** The write's name, for the log. */
  name: string;
  /** True when the read-back shows the write took effect. */
  wasDone(): Promise<boolean>;
  log?: (message: Words) => void;
}

/**
 * Sends `write`; when its outcome is unknown, reads back and either stops (done: undefined is returned)
 * or sends it again. Any other failure is the caller's.
 */
export async function writeOnce<T>(write: () => Promise<T>, check: UnknownOutcome): Promise<T | undefined> {
  for (let send = 1; ; send++) {
    try {
      return await write();
    } catch (error) {
      if (!(error instanceof ApiError && error.outcomeUnknown) || send >= MAX_SENDS) throw error;
      if (await check.wasDone()) {
        check.log?.(words`${check.name}: ${error.told} Read back: it was done, so it is not sent again.`);
        return undefined;
      }
      check.log?.(words`${check.name}: ${error.told} Read back: it was not done; sending it again.`);
      await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** send));
    }
  }
}

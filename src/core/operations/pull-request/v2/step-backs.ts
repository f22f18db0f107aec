// Why a waiting PR stepped back, as v2's queue-entry history says it (the reason in words and who caused
// it) rather than guessed from two looks at the line.
import type { OperationContext } from '../../types.js';
import { pullRequestIdOf, type V2Access } from './access.js';
import { whyWords } from './history.js';
import { stateWords } from './words.js';

/** Steps are stamped by the service; a second of slack keeps one made just as we looked. */
const SLACK_MS = 1000;

/**
 * The reasons of the steps the entry took since `sinceMs` (the service's time), oldest first, each as
 * "back to pending: a PR it was tested on top of failed, by @octocat"; [] when the history names none or
 * cannot be read (the caller falls back to what the looks show).
 */
export async function historyStepBacks(
  op: OperationContext<unknown>,
  access: V2Access,
  sinceMs: number,
): Promise<string[]> {
  try {
    const id = await pullRequestIdOf(op, access);
    const { data } = await access.v2.call('pullRequests.queueEntryHistory', {
      path: { id },
      query: { direction: 'newest', limit: 20 },
    });
    return data.data
      .filter((step) => step.reason && Date.parse(step.changedAt) >= sinceMs - SLACK_MS)
      .reverse()
      .map(
        (step) =>
          `${step.state === 'pending' ? 'back to pending' : stateWords(step.state)}: ${whyWords(step)}`,
      );
  } catch (error) {
    op.log.info(
      `The queue-entry history could not be read (${error instanceof Error ? error.message : String(error)}); the step back is explained from the line instead.`,
    );
    return [];
  }
}

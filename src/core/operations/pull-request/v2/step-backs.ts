// Why a waiting PR stepped back, as v2's queue-entry history says it (the reason in words and who caused
// it) rather than guessed from two looks at the line; a step back between two looks is seen too.
import { wordsOf } from '../../../failure.js';
import { words } from '../../../words.js';
import type { OperationContext } from '../../types.js';
import { pullRequestIdOf, type V2Access } from './access.js';
import { isStepBack, whyWords } from './history.js';

export interface StepBacks {
  /** Each step back after `afterMs`, oldest first, in words: "a PR it was tested on top of failed". */
  reasons: string[];
  /** The time of the newest step read, to start from next time (each step back is told once). */
  newestMs?: number;
}

/** The step backs after `afterMs` (the service's time); none when the history cannot be read. */
export async function historyStepBacks(
  op: OperationContext<unknown>,
  access: V2Access,
  afterMs: number,
): Promise<StepBacks> {
  try {
    const id = await pullRequestIdOf(op, access);
    const { data } = await access.v2.call('pullRequests.queueEntryHistory', {
      path: { id },
      query: { direction: 'newest', limit: 20 },
    });
    const steps = [...data.data].reverse();
    const times = steps.map((step) => Date.parse(step.changedAt)).filter((ms) => !Number.isNaN(ms));
    const reasons = steps
      .filter((step, i) => isStepBack(step, i, steps) && Date.parse(step.changedAt) > afterMs)
      .map((step) => whyWords(step) || 'the service gave no reason');
    return { reasons, newestMs: times.length ? Math.max(...times) : undefined };
  } catch (error) {
    op.log.info(
      words`The queue-entry history could not be read (${wordsOf(error)}); the step back is not explained.`,
    );
    return { reasons: [] };
  }
}

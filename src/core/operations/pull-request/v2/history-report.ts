// A PR's story for its summary over v2, from the queue-entry history rather than from looks: each state
// with when it began, the run it was tested in, and each step back with its reason in words and who
// caused it.
import type { V2 } from '../../../../wire/v2/index.js';
import { wordsOf } from '../../../failure.js';
import { words } from '../../../words.js';
import type { OperationContext } from '../../types.js';
import { pullRequestIdOf, type V2Access } from './access.js';
import { cancellationOf, type Cancellation } from './cancellation.js';
import { isStepBack, whyWords } from './history.js';
import { stateOutputOf } from './words.js';

/** The newest steps read: a PR's whole life in the queue, bar the rarest. */
const MAX_STEPS = 100;

export interface HistoryStory {
  transitions: Transition[];
  stepBacks: string[];
  /** Who or what cancelled it, when its last step is a cancellation. */
  cancellation?: Cancellation;
}

/** One state a PR entered, and when. */
export interface Transition {
  state: string;
  atMs: number;
  /** Why it entered this state, when it was a step back. */
  note?: string;
  testRunId?: string;
}

export function storyOf(steps: readonly V2<'QueueEntryStateTransition'>[]): HistoryStory {
  const transitions: Transition[] = [];
  const stepBacks: string[] = [];
  steps.forEach((step, i) => {
    const atMs = Date.parse(step.changedAt);
    if (Number.isNaN(atMs)) return;
    const back = isStepBack(step, i, steps);
    const note = back ? whyWords(step) || 'the service gave no reason' : undefined;
    if (note) stepBacks.push(note);
    transitions.push({
      state: stateOutputOf(step.state).toLowerCase(),
      atMs,
      ...(note ? { note } : {}),
      ...(step.verificationRunId ? { testRunId: step.verificationRunId } : {}),
    });
  });
  const cancellation = cancellationOf(steps.at(-1));
  return { transitions, stepBacks, ...(cancellation ? { cancellation } : {}) };
}

/** The PR's story from its history; undefined (said in the log) when the history cannot be read. */
export async function readHistoryStory(
  op: OperationContext<unknown>,
  access: V2Access,
): Promise<HistoryStory | undefined> {
  try {
    const id = await pullRequestIdOf(op, access);
    const { data } = await access.v2.call('pullRequests.queueEntryHistory', {
      path: { id },
      query: { direction: 'newest', limit: MAX_STEPS },
    });
    return storyOf([...data.data].reverse());
  } catch (error) {
    op.log.warning(
      words`The queue-entry history could not be read (${wordsOf(error)}); the summary shows the PR's state only.`,
    );
    return undefined;
  }
}

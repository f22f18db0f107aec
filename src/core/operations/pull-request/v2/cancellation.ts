// Who or what took a PR out of the queue, from the service's own reason for its last step: a person (by
// login when the service names one), a push, the PR being closed, or the queue itself.
import type { V2 } from '../../../../wire/v2/index.js';
import { actorWords, reasonWords } from './words.js';

type Step = V2<'QueueEntryStateTransition'>;

const BY_SOMEONE: Record<string, string> = {
  USER_REQUESTED: 'someone',
  TRUNK_ADMIN_REQUESTED: 'a Trunk admin',
  API_REQUESTED: 'an API call',
};

const BY_EVENT: Record<string, string> = {
  PR_PUSHED_TO: 'a push to the PR took it out of the queue',
  PR_CLOSED: 'the PR was closed',
  PR_MERGED_INTO_OTHER_BRANCH: 'the PR was merged into another branch',
  PR_BASE_BRANCH_CHANGED: "the PR's base branch changed",
  PR_CONVERTED_TO_DRAFT: 'the PR became a draft',
  NOT_READY_TIMEOUT_EXPIRED: 'the queue took it out: it stayed not ready too long',
};

/** "@octocat cancelled it", "a push to the PR took it out of the queue"; '' when the step says nothing. */
export function cancellationWords(step: Pick<Step, 'reason' | 'actor'> | undefined): string {
  const reason = step?.reason ?? '';
  const actor = actorWords(step?.actor);
  if (reason in BY_SOMEONE) return `${actor || BY_SOMEONE[reason]} cancelled it`;
  if (reason in BY_EVENT) return `${BY_EVENT[reason]}${actor ? ` (${actor})` : ''}`;
  const said = reasonWords(reason);
  return [said, actor && `by ${actor}`].filter(Boolean).join(', ');
}

/** What a push, a close or a person's cancel means for the next step. */
export type CancelCause = 'push' | 'closed' | 'person' | 'queue' | 'unknown';

/** A cancellation as the summaries tell it: who or what did it, in words, and its kind. */
export interface Cancellation {
  words: string;
  cause: CancelCause;
}

/** The cancellation a last step tells, if it is one. */
export function cancellationOf(step: Step | undefined): Cancellation | undefined {
  if (step?.state !== 'cancelled') return undefined;
  return { words: cancellationWords(step), cause: cancelCause(step.reason) };
}

export function cancelCause(reason: string | null | undefined): CancelCause {
  if (!reason) return 'unknown';
  if (reason in BY_SOMEONE) return 'person';
  if (reason === 'PR_PUSHED_TO' || reason === 'PR_BASE_BRANCH_CHANGED') return 'push';
  if (reason === 'PR_CLOSED' || reason === 'PR_MERGED_INTO_OTHER_BRANCH') return 'closed';
  return 'queue';
}

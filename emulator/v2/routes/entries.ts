// What the pull-request writes share: finding the PR's queue entry, refusing when it is not active, and
// the priority a request names (a name of PRIORITY_NAMES, or a value).
import { PRIORITY_NAMES } from '../../../src/wire/index.js';
import type { Submission } from '../../../src/queue-model/index.js';
import type { PullRequestRef, V2Directory } from '../directory.js';
import { V2Error, validationFailed } from '../errors.js';

export function activeEntryOf(directory: V2Directory, ref: PullRequestRef): Submission {
  const submission = directory.latestSubmission(ref.repo, ref.number);
  if (!submission || !submission.queue.live.has(submission)) {
    const where = submission
      ? `its queue entry is ${submission.state.replace('_', ' ')}`
      : 'it was never submitted';
    throw new V2Error(
      409,
      'PR_NOT_IN_ACTIVE_STATE',
      `Pull request #${ref.number} is in no merge queue: ${where}`,
    );
  }
  return submission;
}

/** The priority of a request's priorityName or priorityValue, undefined when it names none. */
export function priorityOf(fields: {
  priorityName?: string;
  priorityValue?: number;
}): number | string | undefined {
  if (fields.priorityValue !== undefined) return fields.priorityValue;
  if (fields.priorityName === undefined) return undefined;
  if (!(fields.priorityName in PRIORITY_NAMES)) {
    throw validationFailed(
      `priorityName must be one of ${Object.keys(PRIORITY_NAMES).join(', ')}, or send priorityValue (0 to 32767, lower goes first)`,
    );
  }
  return fields.priorityName;
}

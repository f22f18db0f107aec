// Looking a PR up in its queue: the request that names it, and getSubmittedPullRequest read tolerantly.
import type { ApiResponse } from '../../api/client.js';
import { ApiError } from '../../api/errors.js';
import { queueRef, requirePrNumber } from '../common.js';
import type { OperationContext } from '../types.js';

import type { PullRequestEntry } from '../../api/typed-answers.js';

export type { PullRequestEntry };

export function prRequest(op: OperationContext<unknown>) {
  return { ...queueRef(op.context), pr: { number: requirePrNumber(op.context) } };
}

/** getSubmittedPullRequest; a 404 is the answer "never submitted to this queue". */
export async function lookUp(
  op: OperationContext<unknown>,
  prNumber = requirePrNumber(op.context),
): Promise<{ entry?: PullRequestEntry; response?: ApiResponse }> {
  try {
    const response = await op.client.call('getSubmittedPullRequest', {
      ...queueRef(op.context),
      pr: { number: prNumber },
    });
    return { entry: response.answer, response };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return {};
    throw error;
  }
}

/** The first seven characters of a sha, as people quote them. */
export function shortSha(sha: unknown): string {
  return typeof sha === 'string' ? sha.slice(0, 7) : '';
}

const TRAILING_UUID = /\/([0-9a-f]{8})-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A test branch as people quote it: `trunk-merge/pr-903/087c4ce6…`, its run id cut to the eight
 * characters the timeline shows (the whole name is in the `test-branch` output).
 */
export function shortTestBranch(branch: string): string {
  return branch.replace(TRAILING_UUID, '/$1…');
}

// Looking a PR up in its queue: the request that names it, and getSubmittedPullRequest read tolerantly.
import type { ApiResponse } from '../../api/client.js';
import { ApiError } from '../../api/errors.js';
import { readPullRequest, type SubmittedPullRequest } from '../../../wire/index.js';
import { queueRef, requirePrNumber } from '../common.js';
import type { OperationContext } from '../types.js';

export type PullRequestEntry = Partial<SubmittedPullRequest> & Record<string, unknown>;

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
    return { entry: readPullRequest(response.json), response };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return {};
    throw error;
  }
}

/** The first seven characters of a sha, as people quote them. */
export function shortSha(sha: unknown): string {
  return typeof sha === 'string' ? sha.slice(0, 7) : '';
}

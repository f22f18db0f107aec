// Looking a PR up in its queue: the request that names it, and getSubmittedPullRequest read tolerantly.
import type { ApiResponse } from '../../api/client.js';
import { ApiError } from '../../api/errors.js';
import { queueRef, requirePrNumber } from '../common.js';
import type { OperationContext } from '../types.js';
import { codeSpan, escapeMarkdown } from '../../report/markdown.js';

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

/**
 * A merge-queue test run as a title names it, in Markdown: its test branch (shortened, as code) when the
 * service gave one, else the PRs it tests ("of PRs #12 and #13", "of 5 PRs"), else its id cut to the
 * eight characters the timeline shows; never a whole uuid.
 */
export function runTitle(run: {
  testBranch?: string;
  testRunId?: string;
  prNumbers: readonly number[];
}): string {
  if (run.testBranch) return codeSpan(shortTestBranch(run.testBranch));
  const prs = run.prNumbers.map((n) => `#${n}`);
  if (prs.length === 0) return escapeMarkdown(`run ${(run.testRunId ?? '').slice(0, 8) || '(no id)'}`);
  if (prs.length > 3) return `of ${prs.length} PRs`;
  const last = prs.pop()!;
  return escapeMarkdown(prs.length ? `of PRs ${prs.join(', ')} and ${last}` : `of PR ${last}`);
}

// Small pieces every operation uses: the queue reference of the request, links, output spellings.
import type { ApiResponse } from '../api/client.js';
import type { Repo } from '../../wire/index.js';
import type { ResolvedContext } from '../context.js';
import { ContextError } from '../errors.js';
import { link } from '../report/markdown.js';
import { give, words } from '../words.js';

export function queueRef(context: ResolvedContext): { repo: Repo; targetBranch: string } {
  return { repo: context.repo, targetBranch: requireTargetBranch(context) };
}

export function requireTargetBranch(context: ResolvedContext): string {
  if (!context.targetBranch) {
    throw new ContextError(
      words`No target branch could be found for this run (${context.trigger}). ${give('target-branch')}.`,
    );
  }
  return context.targetBranch;
}

export function requirePrNumber(context: ResolvedContext): number {
  if (context.prNumber === undefined) {
    throw new ContextError(
      words`No pull request could be found for this run (${context.trigger}). ${give('pr-number')}.`,
    );
  }
  return context.prNumber;
}

export function repoSlug(repo: Repo): string {
  return `${repo.owner}/${repo.name}`;
}

/** The repository as a markdown link to its page: [owner/name](https://host/owner/name). */
export function repoLink(repo: Repo): string {
  return link(repoSlug(repo), `https://${repo.host}/${repoSlug(repo)}`);
}

export function pullRequestUrl(repo: Repo, prNumber: number): string {
  return `https://${repo.host}/${repo.owner}/${repo.name}/pull/${prNumber}`;
}

/** A PR state as the outputs spell it: the seed's UPPER_SNAKE_CASE (`tests_passed` -> `TESTS_PASSED`). */
export function stateOutput(state: unknown): string {
  return typeof state === 'string' ? state.toUpperCase() : '';
}

/** The `response` output: the raw body exactly as the service sent it. */
export function rawResponse(response: ApiResponse | undefined): string {
  return response?.text ?? '';
}

/** How many tests or PRs a listing hands on in its details for a person to read; the report file has every one. */
export const LISTED_IN_DETAILS = 50;

/** The kind of a result's details (operations/details.ts names every kind); undefined without any. */
export function detailsKind(result: { details?: object }): string | undefined {
  const kind = (result.details as { kind?: unknown } | undefined)?.kind;
  return typeof kind === 'string' ? kind : undefined;
}

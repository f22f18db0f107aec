// The test-case endpoints' rules between parameters, which the document states in words beside its
// schemas: what needs `period`, which filters exclude each other, and how a branch glob matches.
import { validationFailed } from '../errors.js';

const METRIC_SORTS = new Set(['failureRate', 'durationP95', 'prsImpacted', 'lastRunAt', 'lastFailureAt']);

interface PeriodQuery {
  include?: string;
  sort?: string;
  newlyFlaky?: boolean;
  period?: string;
}

/** Refuses `include=metrics`, a metric sort or `newlyFlaky` without the `period` each needs. */
export function requirePeriodWhereNeeded(query: PeriodQuery): void {
  if (query.period !== undefined) return;
  const needing = [
    query.include === 'metrics' ? 'include=metrics' : undefined,
    query.sort !== undefined && METRIC_SORTS.has(query.sort) ? `sort=${query.sort}` : undefined,
    query.newlyFlaky !== undefined ? 'newlyFlaky' : undefined,
  ].filter((name): name is string => name !== undefined);
  if (needing.length === 0) return;
  throw validationFailed(
    `${needing.join(', ')} ${needing.length === 1 ? 'needs' : 'need'} period; send period=1d, 7d, 14d or 30d`,
  );
}

/** Refuses `branches` and `pullRequestOnly` together: a run list is filtered by one or the other. */
export function refuseBranchesWithPullRequestOnly(query: {
  branches?: string;
  pullRequestOnly?: boolean;
}): void {
  if (query.branches !== undefined && query.pullRequestOnly !== undefined) {
    throw validationFailed('branches and pullRequestOnly exclude each other; send one of them');
  }
}

/**
 * Whether `text` matches `glob`, where `*` stands for any run of characters and `?` for one. Greedy with
 * one remembered star, so a hostile pattern costs at most the product of the two lengths.
 */
export function globMatches(glob: string, text: string): boolean {
  let g = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    if (g < glob.length && (glob[g] === '?' || glob[g] === text[t])) {
      g++;
      t++;
    } else if (g < glob.length && glob[g] === '*') {
      star = g++;
      resume = t;
    } else if (star >= 0) {
      g = star + 1;
      t = ++resume;
    } else return false;
  }
  while (g < glob.length && glob[g] === '*') g++;
  return g === glob.length;
}

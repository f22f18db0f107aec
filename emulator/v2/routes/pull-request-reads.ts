// Reading pull requests: resolving them by coordinates (numbers, or head and base branch) and by id.
import type { Repo } from '../../../src/wire/index.js';
import { repoKeyOf } from '../../../src/queue-model/index.js';
import type { V2Handlers } from '../call.js';
import type { V2Directory } from '../directory.js';
import { validationFailed } from '../errors.js';
import { listRowOf, pullRequestView } from '../views/pull-request.js';

/** A batch read takes at most this many numbers. */
export const MAX_NUMBERS = 50;

function numbersOf(text: string): number[] {
  const parts = text.split(',').map((part) => part.trim());
  const numbers = parts.map(Number);
  if (parts.some((part, i) => !/^\d+$/.test(part) || numbers[i]! <= 0 || numbers[i]! > 10_000_000)) {
    throw validationFailed(
      `number must be pull request numbers separated by commas, such as 12,13; got ${JSON.stringify(text)}`,
    );
  }
  if (numbers.length > MAX_NUMBERS)
    throw validationFailed(`number takes at most ${MAX_NUMBERS} numbers; got ${numbers.length}`);
  return [...new Set(numbers)].sort((a, b) => a - b);
}

/** The numbers of the PRs of `repo` whose head branch and base branch are these. */
function numbersByBranch(
  directory: V2Directory,
  repo: Repo,
  branch: string,
  baseBranch: string | undefined,
): number[] {
  const prefix = `${repoKeyOf(repo)}#`;
  const found: number[] = [];
  for (const [key, info] of directory.engine.core.pullRequests) {
    if (!key.startsWith(prefix) || info.headBranch !== branch) continue;
    const base = info.baseBranch ?? directory.latestSubmission(repo, info.number)?.queue.branch;
    if (baseBranch === undefined || base === baseBranch) found.push(info.number);
  }
  return found.sort((a, b) => a - b);
}

/** Whether anything told the emulator of the PR: the control surface, an event, an upload, a submission. */
function isIndexed(directory: V2Directory, repo: Repo, number: number): boolean {
  return directory.engine.core.pullRequests.has(`${repoKeyOf(repo)}#${number}`);
}

export const pullRequestReadHandlers: Pick<
  V2Handlers,
  'pullRequests.resolveByCoordinates' | 'pullRequests.get'
> = {
  'pullRequests.resolveByCoordinates': (call, { directory }) => {
    const { repositoryId, number, branch, baseBranch } = call.query;
    if ((number === undefined) === (branch === undefined)) {
      throw validationFailed(
        'Give number (one or more, comma separated) or branch (with baseBranch), not both',
      );
    }
    if (number !== undefined && baseBranch !== undefined)
      throw validationFailed('baseBranch goes with branch, not with number');
    const asked = number !== undefined ? numbersOf(number) : undefined;
    // An unknown repository resolves nothing (the document has no 404 here), nor does a number the
    // emulator never heard of (the service indexes PRs from the code host; "unindexed numbers absent").
    const repo = directory.findRepository(repositoryId)?.repo;
    const numbers = repo
      ? (asked?.filter((n) => isIndexed(directory, repo, n)) ??
        numbersByBranch(directory, repo, branch!, baseBranch))
      : [];
    return call.page(numbers, String, (n) =>
      listRowOf(pullRequestView(directory, directory.pullRequest(repo!, n))),
    );
  },
  'pullRequests.get': (call, { directory }) =>
    pullRequestView(directory, directory.pullRequestById(call.path.id)),
};

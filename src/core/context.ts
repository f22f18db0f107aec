// What an operation acts on, as every host resolves it from its own pipeline: the repository, the pull
// request, its head sha and target branch, and the run.

export interface RepoRef {
  host: string;
  owner: string;
  name: string;
}

/** Values given by inputs; each replaces what the pipeline says. */
export interface ContextOverrides {
  repo?: { owner: string; name: string };
  repoHost?: string;
  targetBranch?: string;
  prNumber?: number;
  prSha?: string;
}

/** What the operation needs; anything not needed is never looked up. */
export interface Needs {
  pr: boolean;
  headSha: boolean;
  targetBranch: boolean;
}

export interface ResolvedContext {
  repo: RepoRef;
  prNumber?: number;
  headSha?: string;
  targetBranch?: string;
  /** true when the PR's head repository differs from the base repository, or is gone */
  isFork: boolean;
  /** a run on a merge-queue test branch (trunk-merge/pr-<N>/<id>) */
  isMergeQueueTestRun: boolean;
  /** the <id> of a trunk-merge/pr-<N>/<id> branch */
  testRunId?: string;
  /** the pipeline's own run id (GITHUB_RUN_ID, CI_PIPELINE_ID, BUILDKITE_BUILD_ID, ...) */
  runId?: string;
  /** a link to this run, when the host gives one */
  runUrl?: string;
  /** what started this run, in the host's words (a GitHub event name, a GitLab pipeline source, ...) */
  trigger: string;
  /** lines for the log explaining where each value came from */
  notes: string[];
  /** fallbacks the user should see as warnings: a guess that may be wrong */
  warnings: string[];
}

// The base branch may itself contain slashes; the pr-<N>-<sha> tail is what anchors the match.
const GITHUB_MERGE_GROUP_BRANCH = /^(?:refs\/heads\/)?gh-readonly-queue\/(.+)\/pr-(\d+)-[0-9a-f]+$/;
const TEST_RUN_BRANCH = /^(?:refs\/heads\/)?trunk-merge\/pr-(\d+)\/(.+)$/;

export interface MergeQueueBranch {
  prNumber: number;
  /** The service's test run id, on its own test branches. */
  testRunId?: string;
  /** The queue's base branch, on GitHub's merge-group branches. */
  targetBranch?: string;
  /** true on the service's own test branches (trunk-merge/...), false on GitHub merge groups. */
  isTestRun: boolean;
}

/** A merge-queue branch as every host sees it in its branch variable; undefined for any other branch. */
export function readMergeQueueBranch(branch: string | undefined): MergeQueueBranch | undefined {
  if (!branch) return undefined;
  const testRun = TEST_RUN_BRANCH.exec(branch);
  if (testRun) return { prNumber: Number(testRun[1]), testRunId: testRun[2], isTestRun: true };
  const group = GITHUB_MERGE_GROUP_BRANCH.exec(branch);
  if (group) return { prNumber: Number(group[2]), targetBranch: group[1], isTestRun: false };
  return undefined;
}

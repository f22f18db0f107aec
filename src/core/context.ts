// What an operation acts on, as every host resolves it from its own pipeline: the repository, the pull
// request, its head sha and target branch, and the run.
import { ContextError } from './errors.js';
import { quoted } from './inputs.js';
import { give, words, type Words } from './words.js';

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
  /**
   * False: the operation may run without a repository (a synthetic plan); when none is known the
   * context's repo is empty (host, owner and name ''). Needed unless said.
   */
  repo?: boolean;
}

/** A context resolved without a repository (see Needs.repo). */
export function hasRepo(context: Pick<ResolvedContext, 'repo'>): boolean {
  return context.repo.owner !== '' || context.repo.name !== '';
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
  /** who started this run, as the CI names them (the login on a laptop); undefined when unknown */
  actor?: string;
  /** lines for the log explaining where each value came from */
  notes: string[];
  /** fallbacks the user should see as warnings: a guess that may be wrong */
  warnings: (string | Words)[];
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

/** Whitespace or a control character: in no repository name, host or git branch name. */
const NOT_IN_A_NAME = /[\s\p{Cc}]/u;

/** A repository host as the service names it: `github.com`, `ghe.example.com:8443`. */
export function isHostName(text: string): boolean {
  return /^[a-z0-9.-]+(:\d+)?$/i.test(text);
}

/** A repository's owner (a nested group is `group/sub`) and name, each segment a name. */
export function isOwnerAndName(owner: string, name: string): boolean {
  return (
    !!name &&
    !name.includes('/') &&
    !NOT_IN_A_NAME.test(`${owner}/${name}`) &&
    !owner.split('/').some((s) => !s)
  );
}

/**
 * Refuses a context whose values no pipeline should give (a CI variable or an event payload is trusted no
 * more than an input, and inputs are checked as they are read): a repository, host or branch holding a
 * line break or a control character is never sent to the service or written to an output. The log's
 * notes, just above the error, say where each value came from.
 */
export function checkResolvedContext(context: ResolvedContext): void {
  const { host, owner, name } = context.repo;
  const refuse = (what: string, value: string, problem: string, fix: Words) =>
    new ContextError(words`The pipeline's ${what} ${quoted(value)} ${problem}; ${fix}`);
  // An operation that runs without a repository got none: nothing of it to check.
  const known = hasRepo(context) || host !== '';
  if (known && !isHostName(host)) {
    throw refuse(
      'repository host',
      host,
      'is not a host name',
      words`${give('repo-host')} (like github.com).`,
    );
  }
  if (known && !isOwnerAndName(owner, name)) {
    throw refuse(
      'repository',
      `${owner}/${name}`,
      'is not owner/name',
      words`${give('repo')} (like my-org/my-repo).`,
    );
  }
  const branch = context.targetBranch;
  if (branch !== undefined && NOT_IN_A_NAME.test(branch)) {
    throw refuse(
      'target branch',
      branch,
      'is not a branch name (it holds whitespace or a control character)',
      words`${give('target-branch')}.`,
    );
  }
  if (context.headSha !== undefined && !/^[0-9a-f]{40}([0-9a-f]{24})?$/i.test(context.headSha)) {
    throw refuse('head sha', context.headSha, 'is not a full commit sha', words`${give('pr-sha')}.`);
  }
}

/** A run on a merge-queue test branch, or started by GitHub's merge_group event. */
export function isMergeQueueRun(context: ResolvedContext): boolean {
  return context.isMergeQueueTestRun || context.trigger === 'merge_group';
}

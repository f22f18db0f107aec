// The context on every CI but GitHub Actions. Each host reads what its own variables say (PipelineFacts);
// this resolves them against the inputs and the override variables the service's own tools read
// (TRUNK_*): inputs win over the overrides, which win over the host. A value nobody gives is looked up
// through the GitHub API when a github-token is given, else the error names the variable that would
// have said it and the input that replaces it.
import { actorOf } from '../actor.js';
import {
  readMergeQueueBranch,
  type MergeQueueBranch,
  type RepoRef,
  type ResolvedContext,
} from '../../core/context.js';
import { ContextError } from '../../core/errors.js';
import type { ContextRequest } from '../../core/host.js';
import { quoted } from '../../core/inputs.js';
import { gitHubLookup, type PullRequestFacts } from '../github-actions/github-lookup.js';
import { parseRemoteUrl } from './remote-url.js';
import { give, nameOf, words, type Words } from '../../core/words.js';

export type Environment = Readonly<Record<string, string | undefined>>;

/** A value and the variable it came from. */
export interface Sourced<T> {
  value: T;
  source: string;
}

/** What a CI's own variables say about this build. Each host fills in what its CI gives. */
export interface PipelineFacts {
  /** The CI's name as messages show it ("GitLab CI"). */
  ci: string;
  repo?: Sourced<RepoRef>;
  prNumber?: Sourced<number>;
  /** The PR's head commit (never a merge commit). */
  headSha?: Sourced<string>;
  targetBranch?: Sourced<string>;
  /** The branch being built: a merge-queue test branch is recognised by it. */
  branch?: Sourced<string>;
  /** The repository's default branch, when the CI says it: the target of queue operations. */
  defaultBranch?: Sourced<string>;
  /** The PR comes from another repository; undefined when the CI does not say. */
  isFork?: boolean;
  /** The repository the PR comes from, for the log. */
  forkSource?: string;
  runId?: string;
  runUrl?: string;
  trigger: string;
  /** The variables that would have given each value, for the message when none did. */
  variables: { repo: string; prNumber: string; headSha: string; targetBranch: string };
  /** Why the CI names no pull request for this build (default: "<variable> is not set"). */
  noPullRequest?: string;
  /** Notes from reading the variables (a value that was ignored, and why). */
  notes?: string[];
}

const OVERRIDES = {
  prNumber: 'TRUNK_PR_NUMBER',
  headSha: 'TRUNK_REPO_HEAD_SHA',
  branch: 'TRUNK_REPO_HEAD_BRANCH',
  repoUrl: 'TRUNK_REPO_URL',
  targetBranch: 'TRUNK_TARGET_BRANCH',
} as const;

/** The values of the override variables every host honours, checked. */
function readOverrides(env: Environment) {
  const prText = env[OVERRIDES.prNumber]?.trim();
  const shaText = env[OVERRIDES.headSha]?.trim();
  const urlText = env[OVERRIDES.repoUrl]?.trim();
  const repo = parseRemoteUrl(urlText);
  if (urlText && !repo) {
    throw new ContextError(
      words`${OVERRIDES.repoUrl} ${quoted(urlText)} is not a repository URL; set it like https://github.com/my-org/my-repo.git, or ${give('repo')}.`,
    );
  }
  return {
    prNumber: prText ? pullRequestNumber(prText, OVERRIDES.prNumber) : undefined,
    headSha: shaText ? commitSha(shaText, OVERRIDES.headSha) : undefined,
    branch: env[OVERRIDES.branch]?.trim() || undefined,
    repo,
    targetBranch: branchName(env[OVERRIDES.targetBranch]),
  };
}

/** A PR number from a variable; anything else is an error naming the variable. */
export function pullRequestNumber(text: string, variable: string): number {
  const trimmed = text.trim().replace(/^#/, '');
  if (!/^[0-9]{1,10}$/.test(trimmed) || Number(trimmed) < 1 || Number(trimmed) > 4294967295) {
    throw new ContextError(
      words`${variable} ${quoted(text)} is not a pull request number; fix it, or ${give('pr-number')}.`,
    );
  }
  return Number(trimmed);
}

function commitSha(text: string, variable: string): string {
  if (!isFullSha(text)) {
    throw new ContextError(
      words`${variable} ${quoted(text)} is not a full commit sha; fix it, or ${give('pr-sha')}.`,
    );
  }
  return text.toLowerCase();
}

export function isFullSha(text: string | undefined): text is string {
  return !!text && /^[0-9a-f]{40}([0-9a-f]{24})?$/i.test(text);
}

/** `refs/heads/main`, `origin/main` as some CIs spell it, or `main` -> `main`; undefined when empty. */
export function branchName(text: string | undefined, remotePrefix = false): string | undefined {
  let branch = text?.trim().replace(/^refs\/heads\//, '');
  if (remotePrefix) branch = branch?.replace(/^origin\//, '');
  return branch || undefined;
}

function first<T>(...candidates: (Sourced<T> | undefined)[]): Sourced<T> | undefined {
  return candidates.find((candidate) => candidate !== undefined && candidate.value !== undefined);
}

const sourced = <T>(value: T | undefined, source: string): Sourced<T> | undefined =>
  value === undefined ? undefined : { value, source };

/** The GitHub REST API root for a repository host: github.com's, or a GitHub Enterprise server's. */
function gitHubApiUrl(env: Environment, repoHost: string): string {
  if (env.GITHUB_API_URL) return env.GITHUB_API_URL.replace(/\/+$/, '');
  return repoHost === 'github.com' ? 'https://api.github.com' : `https://${repoHost}/api/v3`;
}

export async function resolvePipelineContext(
  request: ContextRequest,
  facts: PipelineFacts,
  env: Environment,
): Promise<ResolvedContext> {
  const { overrides, needs } = request;
  const notes = [...(facts.notes ?? [])];
  const warnings: (string | Words)[] = [];
  const trunk = readOverrides(env);
  const repo = resolveRepo(overrides, trunk.repo, facts, notes, needs.repo !== false);
  const pr = resolvePullRequest(request, facts, trunk, notes);
  const found = await lookUpWhatIsMissing(request, facts, env, repo, pr);

  if (found.headSha) notes.push(`head sha: ${found.headSha.value} (from ${found.headSha.source})`);
  else if (needs.headSha) {
    throw new ContextError(
      words`Cannot tell the head sha of PR #${String(pr.prNumber?.value)}: ${facts.variables.headSha} is not set ${found.lookupProblem ?? ''}; ${give('pr-sha')}${request.githubToken ? [] : words` or pass ${nameOf('github-token')}`}.`,
    );
  }
  const targetBranch = resolveTargetBranch(needs, facts, pr, found, { notes, warnings });
  const isFork = forkNote(facts, pr, found.pullRequest, notes);
  const { queueBranch } = pr;
  const isMergeQueueTestRun = queueBranch?.isTestRun ?? false;
  if (isMergeQueueTestRun) {
    notes.push(
      `merge-queue test run: PR #${queueBranch?.prNumber}, test run id ${queueBranch?.testRunId} (from ${pr.branch?.source})`,
    );
  }

  return {
    repo,
    prNumber: pr.prNumber?.value,
    headSha: found.headSha?.value,
    targetBranch: targetBranch?.value,
    isFork,
    isMergeQueueTestRun,
    testRunId: isMergeQueueTestRun ? queueBranch?.testRunId : undefined,
    runId: facts.runId || undefined,
    runUrl: facts.runUrl && /^https?:\/\//i.test(facts.runUrl) ? facts.runUrl : undefined,
    trigger: facts.trigger,
    actor: actorOf(env),
    notes: notes.map((note) => note.replace(/\s+/g, ' ').trim()),
    warnings,
  };
}

/** The PR the build is for, and what is known of it before any look-up. */
interface PullRequestChoice {
  prNumber?: Sourced<number>;
  /** The branch being built, and the merge-queue branch it is, if it is one. */
  branch?: Sourced<string>;
  queueBranch?: MergeQueueBranch;
  headSha?: Sourced<string>;
  targetBranch?: Sourced<string>;
  /** The CI's facts describe this PR (not another one named by an input, not a merge-queue test merge). */
  factsAreForThisPr: boolean;
}

function resolvePullRequest(
  { overrides, needs }: ContextRequest,
  facts: PipelineFacts,
  trunk: ReturnType<typeof readOverrides>,
  notes: string[],
): PullRequestChoice {
  const branch = first(sourced(trunk.branch, OVERRIDES.branch), facts.branch);
  const queueBranch: MergeQueueBranch | undefined = readMergeQueueBranch(branch?.value);
  const fromBranch = branch && `the merge-queue branch in ${branch.source}`;
  const prNumber = first(
    sourced(overrides.prNumber, 'the pr-number input'),
    sourced(trunk.prNumber, OVERRIDES.prNumber),
    facts.prNumber,
    sourced(queueBranch?.prNumber, fromBranch ?? ''),
  );
  if (prNumber) notes.push(`pr-number: ${prNumber.value} (from ${prNumber.source})`);
  else if (needs.pr || needs.headSha) {
    const why = facts.noPullRequest ?? `${facts.variables.prNumber} is not set`;
    throw new ContextError(words`No pull request to act on: ${why}; ${give('pr-number')}.`);
  }
  // What the CI says about its build's PR is not true of another PR named by an input; a merge-queue
  // branch's build commit is the test merge, never the PR's head.
  const factsAreForThisPr =
    !queueBranch && prNumber !== undefined && facts.prNumber?.value === prNumber.value;
  const headSha = first(
    sourced(overrides.prSha, 'the pr-sha input'),
    sourced(trunk.headSha, OVERRIDES.headSha),
    factsAreForThisPr ? facts.headSha : undefined,
  );
  const targetBranch = first(
    sourced(overrides.targetBranch, 'the target-branch input'),
    sourced(trunk.targetBranch, OVERRIDES.targetBranch),
    factsAreForThisPr ? facts.targetBranch : undefined,
    sourced(queueBranch?.targetBranch, fromBranch ?? ''),
  );
  return { prNumber, branch, queueBranch, headSha, targetBranch, factsAreForThisPr };
}

interface LookedUp {
  headSha?: Sourced<string>;
  targetBranch?: Sourced<string>;
  pullRequest?: PullRequestFacts;
  /** Why the GitHub API was not asked, or what it answered, for the message when a value is missing. */
  lookupProblem?: string;
}

/** A head sha or target branch nobody gave, asked of the GitHub API when a github-token allows. */
async function lookUpWhatIsMissing(
  { needs, githubToken }: ContextRequest,
  facts: PipelineFacts,
  env: Environment,
  repo: RepoRef,
  { prNumber, headSha, targetBranch }: PullRequestChoice,
): Promise<LookedUp> {
  const missing = (needs.headSha && !headSha) || (needs.targetBranch && !targetBranch);
  if (!prNumber || !missing) return { headSha, targetBranch };
  if (!githubToken) {
    const lookupProblem = `and no github-token was given to look up PR #${prNumber.value}`;
    return { headSha, targetBranch, lookupProblem };
  }
  const apiUrl = gitHubApiUrl(env, repo.host);
  try {
    const lookup = gitHubLookup(githubToken, apiUrl);
    const pullRequest = await lookup.pullRequest(repo.owner, repo.name, prNumber.value);
    const source = `PR #${prNumber.value} looked up through the GitHub API`;
    return {
      headSha: headSha ?? sourced(pullRequest.headSha, source),
      targetBranch: targetBranch ?? sourced(pullRequest.baseRef, source),
      pullRequest,
    };
  } catch (error) {
    const lookupProblem = `and the GitHub API could not tell: ${(error as Error).message}`;
    return { headSha, targetBranch, lookupProblem };
  }
}

/** The target branch as given or found; else the repository's default, said in a note or a warning. */
function resolveTargetBranch(
  needs: ContextRequest['needs'],
  facts: PipelineFacts,
  { prNumber }: PullRequestChoice,
  { targetBranch, lookupProblem }: LookedUp,
  log: { notes: string[]; warnings: (string | Words)[] },
): Sourced<string> | undefined {
  if (targetBranch) {
    log.notes.push(`target branch: ${targetBranch.value} (from ${targetBranch.source})`);
    return targetBranch;
  }
  if (facts.defaultBranch && (needs.targetBranch || !prNumber)) {
    const chosen = facts.defaultBranch;
    const why = `the repository's default branch, from ${chosen.source}`;
    // A queue operation's branch defaults to the repository's; a PR's base branch that could not be
    // found is a guess the user should see.
    if (prNumber)
      log.warnings.push(
        words`target branch: ${chosen.value} (${why}; set ${nameOf('target-branch')} if that is wrong)`,
      );
    else log.notes.push(`target branch: ${chosen.value} (${why})`);
    return chosen;
  }
  if (needs.targetBranch) {
    const about = prNumber ? ` of PR #${prNumber.value}` : '';
    const lookup = prNumber ? ` ${lookupProblem ?? ''}` : '';
    throw new ContextError(
      words`Cannot tell the target branch${about}: ${facts.variables.targetBranch} is not set${lookup}; ${give('target-branch')}.`,
    );
  }
  return undefined;
}

/** Whether the PR comes from a fork, with a note that says from where. */
function forkNote(
  facts: PipelineFacts,
  { prNumber, factsAreForThisPr }: PullRequestChoice,
  pullRequest: PullRequestFacts | undefined,
  notes: string[],
): boolean {
  const isFork = (factsAreForThisPr ? facts.isFork : undefined) ?? pullRequest?.isFork ?? false;
  if (isFork) {
    const from = (factsAreForThisPr && facts.forkSource) || pullRequest?.headRepoFullName;
    notes.push(`fork: PR #${prNumber?.value} comes from ${from ?? 'another repository'}`);
  }
  return isFork;
}

function resolveRepo(
  overrides: ContextRequest['overrides'],
  trunkRepo: RepoRef | undefined,
  facts: PipelineFacts,
  notes: string[],
  needed: boolean,
): RepoRef {
  const fromUrl = sourced(trunkRepo, OVERRIDES.repoUrl);
  const chosen = first(sourced(overrides.repo, 'the repo input'), fromUrl, facts.repo);
  if (!chosen && !needed) return { host: '', owner: '', name: '' };
  if (!chosen) {
    throw new ContextError(
      words`Cannot tell the repository: ${facts.variables.repo} is not set; ${give('repo')} (owner/name) or ${OVERRIDES.repoUrl}.`,
    );
  }
  const host = first(
    sourced(overrides.repoHost, 'the repo-host input'),
    sourced(fromUrl?.value.host, OVERRIDES.repoUrl),
    sourced(facts.repo?.value.host, facts.repo?.source ?? ''),
  ) ?? { value: 'github.com', source: 'the default' };
  notes.push(
    `repo: ${host.value}/${chosen.value.owner}/${chosen.value.name} (from ${chosen.source}; host from ${host.source})`,
  );
  return { host: host.value, owner: chosen.value.owner, name: chosen.value.name };
}

/** Readers of a CI's variables, each value tagged with the variable it came from. */
export function variableReader(env: Environment, notes: string[]) {
  const text = (name: string): Sourced<string> | undefined => {
    const value = env[name]?.trim();
    return value ? { value, source: name } : undefined;
  };
  return {
    text,
    /** A PR number; a value that is not one is an error naming the variable. */
    prNumber(name: string): Sourced<number> | undefined {
      const found = text(name);
      return found && { value: pullRequestNumber(found.value, name), source: name };
    },
    /** A full commit sha; anything else ("HEAD", a short sha) is noted and ignored. */
    sha(name: string): Sourced<string> | undefined {
      const found = text(name);
      if (!found) return undefined;
      if (isFullSha(found.value)) return { value: found.value.toLowerCase(), source: name };
      notes.push(`${name} ${quoted(found.value)} is not a full commit sha; ignored`);
      return undefined;
    },
    branch(name: string, remotePrefix = false): Sourced<string> | undefined {
      const value = branchName(env[name], remotePrefix);
      return value ? { value, source: name } : undefined;
    },
    /** The repository a remote URL names; a value that names none is noted and ignored. */
    remote(name: string): Sourced<RepoRef> | undefined {
      const found = text(name);
      if (!found) return undefined;
      const repo = parseRemoteUrl(found.value);
      if (!repo) notes.push(`${name} does not name a repository (owner/name); ignored`);
      return repo && { value: repo, source: name };
    },
  };
}

/** The same repository, compared without regard to case (hosts and GitHub names are case-insensitive). */
export function sameRepo(a: RepoRef | undefined, b: RepoRef | undefined): boolean {
  if (!a || !b) return false;
  return `${a.owner}/${a.name}`.toLowerCase() === `${b.owner}/${b.name}`.toLowerCase();
}

// The GitHub Actions context: which repository, pull request, head sha and target branch an operation acts
// on. Inputs win over the event; the GitHub API is asked only for what the operation needs and the event
// does not carry.
import { readFileSync } from 'node:fs';
import { actorOf } from '../actor.js';
import {
  readMergeQueueBranch,
  type ContextOverrides,
  type RepoRef,
  type ResolvedContext,
} from '../../core/context.js';
import { ContextError } from '../../core/errors.js';
import type { ContextRequest } from '../../core/host.js';
import {
  field,
  gitHubLookup,
  readPullRequestFacts,
  text,
  type GitHubLookup,
  type PullRequestFacts,
} from './github-lookup.js';
import { give, nameOf, words } from '../../core/words.js';

export type Environment = Readonly<Record<string, string | undefined>>;

export async function resolveContext(
  { overrides, needs, githubToken }: ContextRequest,
  env: Environment,
): Promise<ResolvedContext> {
  const notes: string[] = [];
  const warnings: string[] = [];
  const event = readEvent(env, notes);
  const serverUrl = env.GITHUB_SERVER_URL || 'https://github.com';
  const eventRepo = repoOfEvent(env, event.payload);
  const repo = resolveRepo(overrides, eventRepo, serverUrl, notes);
  const facts = readEventFacts(event.name, event.payload, env.GITHUB_REF);
  const eventIsForRepo = eventRepo !== undefined && sameRepo(eventRepo.fullName, repo);
  const fromEvent = `from the ${event.name} event`;

  const prNumber = overrides.prNumber ?? (eventIsForRepo ? facts.prNumber : undefined);
  if (prNumber !== undefined) {
    notes.push(
      `pr-number: ${prNumber} (${overrides.prNumber !== undefined ? 'from the pr-number input' : fromEvent})`,
    );
  } else if (needs.pr || needs.headSha) {
    const why = eventIsForRepo
      ? (facts.noPullRequest ?? 'carries no pull request')
      : `is for ${eventRepo?.fullName ?? 'no repository'}, not ${repo.owner}/${repo.name}`;
    throw new ContextError(
      words`No pull request to act on: the ${event.name} event ${why}; ${give('pr-number')}.`,
    );
  }

  // The event's facts describe its own PR; a PR named by input may be another one.
  const eventPr = prNumber !== undefined && eventIsForRepo && prNumber === facts.prNumber ? facts : undefined;
  const known: PullRequestSources = {
    headSha: firstKnown([overrides.prSha, 'from the pr-sha input'], [eventPr?.headSha, fromEvent]),
    targetBranch: firstKnown(
      [overrides.targetBranch, 'from the target-branch input'],
      [eventPr?.targetBranch, fromEvent],
    ),
    pullRequest: eventPr?.pullRequest,
  };
  const lookup = githubToken ? gitHubLookup(githubToken, apiUrl(env, serverUrl)) : undefined;
  const missing = (needs.headSha && !known.headSha) || (needs.targetBranch && !known.targetBranch);
  if (prNumber !== undefined && missing) await lookUpPullRequest(known, repo, prNumber, lookup, notes);
  const { headSha, pullRequest, lookupProblem } = known;

  if (headSha) notes.push(`head sha: ${headSha.value} (${headSha.source})`);
  else if (needs.headSha) {
    const why = lookupProblem ?? `the ${event.name} event does not say it`;
    const alternative = lookup ? [] : words` or pass ${nameOf('github-token')}`;
    throw new ContextError(
      words`Cannot tell the head sha of PR #${String(prNumber)} (${why}); ${give('pr-sha')}${alternative}.`,
    );
  }

  let targetBranch = known.targetBranch;
  if (!targetBranch && needs.targetBranch) {
    targetBranch = await defaultBranch(repo, eventIsForRepo ? event.payload : undefined, prNumber, lookup, {
      eventName: event.name,
      lookupProblem,
      // A PR's base branch that could not be found is a guess; a queue operation's default is not.
      notes: prNumber === undefined ? notes : warnings,
    });
  } else if (targetBranch) notes.push(`target branch: ${targetBranch.value} (${targetBranch.source})`);
  notes.push(...originNotes(repo, prNumber, pullRequest, facts));

  return {
    repo,
    prNumber,
    headSha: headSha?.value,
    targetBranch: targetBranch?.value,
    isFork: pullRequest?.isFork ?? false,
    isMergeQueueTestRun: facts.isMergeQueueTestRun,
    testRunId: facts.testRunId,
    runId: env.GITHUB_RUN_ID || undefined,
    runUrl: runUrl(env, serverUrl),
    trigger: event.name,
    actor: actorOf(env),
    notes,
    warnings,
  };
}

/** What is known of the PR so far, and why the GitHub API could not say more when it could not. */
interface PullRequestSources {
  headSha: Sourced | undefined;
  targetBranch: Sourced | undefined;
  pullRequest: PullRequestFacts | undefined;
  lookupProblem?: string;
}

/** Fills what the inputs and the event left unknown from the GitHub API, or says why it could not. */
async function lookUpPullRequest(
  known: PullRequestSources,
  repo: RepoRef,
  prNumber: number,
  lookup: GitHubLookup | undefined,
  notes: string[],
): Promise<void> {
  if (!lookup) {
    known.lookupProblem = `no github-token to look up PR #${prNumber}`;
    return;
  }
  try {
    known.pullRequest = await lookup.pullRequest(repo.owner, repo.name, prNumber);
    const source = `PR #${prNumber} looked up through the GitHub API`;
    known.headSha ??= firstKnown([known.pullRequest.headSha, source]);
    known.targetBranch ??= firstKnown([known.pullRequest.baseRef, source]);
  } catch (error) {
    known.lookupProblem = `could not look up PR #${prNumber}: ${(error as Error).message}`;
    notes.push(`GitHub API: ${known.lookupProblem}`);
  }
}

/** Where the PR comes from, when that is worth a line: a fork, or the queue's own test run. */
function originNotes(
  repo: RepoRef,
  prNumber: number | undefined,
  pullRequest: PullRequestFacts | undefined,
  facts: EventFacts,
): string[] {
  const notes: string[] = [];
  if (pullRequest?.isFork) {
    const head = pullRequest.headRepoFullName;
    notes.push(
      `fork: PR #${prNumber} comes from ${head ? `${head}, not ${repo.owner}/${repo.name}` : 'a repository that is gone'}`,
    );
  }
  if (facts.isMergeQueueTestRun) {
    notes.push(
      `merge-queue test run: PR #${facts.prNumber}, test run id ${facts.testRunId} (from the branch name)`,
    );
  }
  return notes;
}

interface Sourced {
  value: string;
  source: string;
}

function firstKnown(...candidates: [string | undefined, string][]): Sourced | undefined {
  const found = candidates.find(([value]) => value !== undefined && value !== '');
  return found ? { value: found[0] as string, source: found[1] } : undefined;
}

/** The target branch when neither inputs, the event nor the PR name one: the repository's default. */
async function defaultBranch(
  repo: RepoRef,
  payload: unknown,
  prNumber: number | undefined,
  lookup: GitHubLookup | undefined,
  about: { eventName: string; lookupProblem: string | undefined; notes: string[] },
): Promise<Sourced> {
  let why = about.lookupProblem ?? `the ${about.eventName} event names no target branch`;
  let branch = text(field(field(payload, 'repository'), 'default_branch'));
  if (!branch && lookup && prNumber === undefined) {
    try {
      branch = await lookup.defaultBranch(repo.owner, repo.name);
    } catch (error) {
      why = `${why}, and ${(error as Error).message}`;
    }
  }
  if (!branch) {
    throw new ContextError(words`Cannot tell the target branch (${why}); ${give('target-branch')}.`);
  }
  about.notes.push(
    `target branch: ${branch} (the repository's default branch, because ${why}; set target-branch if that is wrong)`,
  );
  return { value: branch, source: "the repository's default branch" };
}

// ---------------------------------------------------------------------------------------------------
// The event

function readEvent(env: Environment, notes: string[]): { name: string; payload: unknown } {
  const name = env.GITHUB_EVENT_NAME || 'unknown';
  const path = env.GITHUB_EVENT_PATH;
  if (!path) return { name, payload: {} };
  try {
    return { name, payload: JSON.parse(readFileSync(path, 'utf8')) };
  } catch (error) {
    notes.push(
      `event: could not read GITHUB_EVENT_PATH ${path} (${(error as Error).message}); using inputs only`,
    );
    return { name, payload: {} };
  }
}

/** What the event itself says about a pull request. */
interface EventFacts {
  prNumber?: number;
  headSha?: string;
  targetBranch?: string;
  pullRequest?: PullRequestFacts;
  isMergeQueueTestRun: boolean;
  testRunId?: string;
  /** why the event names no pull request, completing "the <event> event ..." */
  noPullRequest?: string;
}

function readEventFacts(eventName: string, payload: unknown, envRef: string | undefined): EventFacts {
  if (eventName === 'merge_group') {
    const group = field(payload, 'merge_group');
    const headRef = text(field(group, 'head_ref')) ?? '';
    const branch = readMergeQueueBranch(headRef);
    if (!branch || branch.isTestRun) {
      return {
        isMergeQueueTestRun: false,
        noPullRequest: `has head_ref '${headRef}', which names no pull request (gh-readonly-queue/<base>/pr-<N>-<sha>)`,
      };
    }
    return {
      prNumber: branch.prNumber,
      headSha: text(field(group, 'head_sha')),
      targetBranch: branchName(text(field(group, 'base_ref'))) ?? branch.targetBranch,
      isMergeQueueTestRun: false,
    };
  }
  if (eventName === 'issue_comment') {
    const issue = field(payload, 'issue');
    const issueNumber = positiveInteger(field(issue, 'number'));
    if (field(issue, 'pull_request') == null) {
      return {
        isMergeQueueTestRun: false,
        noPullRequest: `is on issue #${issueNumber}, which is not a pull request`,
      };
    }
    return { prNumber: issueNumber, isMergeQueueTestRun: false };
  }
  if (eventName === 'push') {
    const ref = text(field(payload, 'ref')) ?? envRef ?? '';
    const branch = readMergeQueueBranch(ref);
    if (!branch?.isTestRun) {
      return {
        isMergeQueueTestRun: false,
        noPullRequest: `is to ${ref}, not to a merge-queue test branch (trunk-merge/pr-<N>/<id>)`,
      };
    }
    return { prNumber: branch.prNumber, isMergeQueueTestRun: true, testRunId: branch.testRunId };
  }
  // pull_request, pull_request_target and the review events carry the pull request itself.
  const pr = field(payload, 'pull_request');
  if (typeof pr === 'object' && pr !== null) {
    const pullRequest = readPullRequestFacts(pr);
    return {
      prNumber: positiveInteger(field(pr, 'number')),
      headSha: pullRequest.headSha,
      targetBranch: pullRequest.baseRef,
      pullRequest,
      isMergeQueueTestRun: false,
    };
  }
  return { isMergeQueueTestRun: false, noPullRequest: 'carries no pull request' };
}

function branchName(ref: string | undefined): string | undefined {
  return ref?.replace(/^refs\/heads\//, '') || undefined;
}

function positiveInteger(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

// ---------------------------------------------------------------------------------------------------
// The repository and the GitHub server

interface EventRepo {
  owner: string;
  name: string;
  fullName: string;
  source: string;
}

function repoOfEvent(env: Environment, payload: unknown): EventRepo | undefined {
  if (env.GITHUB_REPOSITORY) {
    const split = splitFullName(env.GITHUB_REPOSITORY);
    if (!split) {
      throw new ContextError(
        words`GITHUB_REPOSITORY '${env.GITHUB_REPOSITORY}' is not owner/name; ${give('repo')} (owner/name).`,
      );
    }
    return { ...split, fullName: env.GITHUB_REPOSITORY, source: 'from GITHUB_REPOSITORY' };
  }
  const fullName = text(field(field(payload, 'repository'), 'full_name'));
  const split = fullName ? splitFullName(fullName) : undefined;
  return split && fullName ? { ...split, fullName, source: 'from the event payload' } : undefined;
}

/** `group/sub/name` -> owner `group/sub`, name `name`: only the last segment is the name. */
function splitFullName(fullName: string): { owner: string; name: string } | undefined {
  const slash = fullName.lastIndexOf('/');
  const owner = fullName.slice(0, slash);
  const name = fullName.slice(slash + 1);
  return slash > 0 && name ? { owner, name } : undefined;
}

function resolveRepo(
  overrides: ContextOverrides,
  eventRepo: EventRepo | undefined,
  serverUrl: string,
  notes: string[],
): RepoRef {
  const host = overrides.repoHost ?? hostOf(serverUrl);
  const hostSource = overrides.repoHost ? 'the repo-host input' : 'GITHUB_SERVER_URL';
  const chosen = overrides.repo ? { ...overrides.repo, source: 'from the repo input' } : eventRepo;
  if (!chosen) {
    throw new ContextError(
      words`Cannot tell the repository: GITHUB_REPOSITORY is not set and the event names none; ${give('repo')} (owner/name).`,
    );
  }
  notes.push(`repo: ${host}/${chosen.owner}/${chosen.name} (${chosen.source}; host from ${hostSource})`);
  return { host, owner: chosen.owner, name: chosen.name };
}

function hostOf(serverUrl: string): string {
  const host = URL.canParse(serverUrl) ? new URL(serverUrl).hostname : '';
  if (!host)
    throw new ContextError(words`GITHUB_SERVER_URL '${serverUrl}' is not a URL; ${give('repo-host')}.`);
  return host;
}

/** The REST API root: GITHUB_API_URL, else github.com's API or a GitHub Enterprise server's `/api/v3`. */
export function apiUrl(env: Environment, serverUrl: string): string {
  if (env.GITHUB_API_URL) return env.GITHUB_API_URL.replace(/\/+$/, '');
  const server = new URL(serverUrl);
  return server.hostname === 'github.com' ? 'https://api.github.com' : `${server.origin}/api/v3`;
}

function sameRepo(fullName: string, repo: RepoRef): boolean {
  return fullName.toLowerCase() === `${repo.owner}/${repo.name}`.toLowerCase();
}

function runUrl(env: Environment, serverUrl: string): string | undefined {
  if (!env.GITHUB_RUN_ID || !env.GITHUB_REPOSITORY) return undefined;
  return `${serverUrl.replace(/\/+$/, '')}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`;
}

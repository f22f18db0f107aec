// What the context needs from GitHub beyond the event payload: a pull request's head, base and fork
// status, and a repository's default branch. Called only when the event does not carry them.
import { ApiError } from '../../core/api/errors.js';

/** The facts about a pull request that an operation can need. */
export interface PullRequestFacts {
  headSha?: string;
  baseRef?: string;
  /** the head repository differs from the base repository, or is gone */
  isFork: boolean;
  headRepoFullName?: string;
}

/**
 * Reads a pull request object. The webhook payload's `pull_request` and the REST API's pull request share
 * this shape, so the event and the lookup read it the same way.
 */
export function readPullRequestFacts(pr: unknown): PullRequestFacts {
  const head = field(pr, 'head');
  const base = field(pr, 'base');
  const headRepo = field(head, 'repo');
  const headRepoFullName = text(field(headRepo, 'full_name'));
  const baseRepoFullName = text(field(field(base, 'repo'), 'full_name'));
  // A deleted head repository reads as null.
  const isFork =
    headRepo === null ||
    (headRepoFullName !== undefined &&
      baseRepoFullName !== undefined &&
      headRepoFullName.toLowerCase() !== baseRepoFullName.toLowerCase());
  return { headSha: text(field(head, 'sha')), baseRef: text(field(base, 'ref')), isFork, headRepoFullName };
}

export interface GitHubLookup {
  pullRequest(owner: string, name: string, prNumber: number): Promise<PullRequestFacts>;
  defaultBranch(owner: string, name: string): Promise<string | undefined>;
}

type Octokit = ReturnType<typeof import('@actions/github').getOctokit>;

const LOOKUP_TIMEOUT_MS = 30_000;

/** A lookup through the REST API at `apiUrl` (github.com or a GitHub Enterprise server's `/api/v3`). */
export function gitHubLookup(token: string, apiUrl: string): GitHubLookup {
  // Loaded on first use: most runs never ask the GitHub API, and its client is the bulk of the bundle.
  let client: Promise<Octokit> | undefined;
  const octokit = () =>
    (client ??= import('@actions/github').then(({ getOctokit }) => getOctokit(token, { baseUrl: apiUrl })));
  const request = () => ({ signal: AbortSignal.timeout(LOOKUP_TIMEOUT_MS) });
  return {
    async pullRequest(owner, name, prNumber) {
      const path = `GET /repos/${owner}/${name}/pulls/${prNumber}`;
      const response = await explained(path, token, () =>
        octokit().then((o) =>
          o.rest.pulls.get({ owner, repo: name, pull_number: prNumber, request: request() }),
        ),
      );
      return readPullRequestFacts(response.data);
    },
    async defaultBranch(owner, name) {
      const path = `GET /repos/${owner}/${name}`;
      const response = await explained(path, token, () =>
        octokit().then((o) => o.rest.repos.get({ owner, repo: name, request: request() })),
      );
      return text(response.data.default_branch);
    },
  };
}

/** Runs a request and turns any failure into one line naming the call and the likely cause. */
async function explained<T>(call: string, token: string, send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (error) {
    const status = field(error, 'status');
    const reason =
      typeof status === 'number'
        ? `${call} answered ${status}${STATUS_HINTS[status] ?? ''}`
        : `${call} failed: ${error instanceof Error ? error.message : String(error)}`;
    const line = token ? oneLine(reason).split(token).join('***') : oneLine(reason);
    throw typeof status === 'number'
      ? new ApiError(call, line, { kind: 'http', status })
      : new ApiError(call, line, { kind: 'network' });
  }
}

const STATUS_HINTS: Record<number, string> = {
  401: ' (the github-token was refused)',
  403: ' (the github-token lacks read access to pull requests and contents, or a rate limit was hit)',
  404: ' (no such pull request or repository, or the github-token cannot see it)',
};

function oneLine(message: string): string {
  return message.replace(/\s+/g, ' ').trim();
}

/** `value[key]` when `value` is an object; payloads are untyped JSON. */
export function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

export function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

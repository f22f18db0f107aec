// The inputs every operation shares: where the API is, the tokens, the deadline, the summary, and the
// values that replace what the pipeline says about the repository and pull request.
import { isIP } from 'node:net';
import { isHostName, isOwnerAndName, type ContextOverrides } from './context.js';
import { InputError } from './errors.js';
import { ID_FORMS } from '../wire/v2/id-forms.js';
import { V2_KEY_PREFIX } from '../wire/v2/permissions.js';
import { API_VERSIONS, type ApiVersion } from './api/base-url.js';
import { DEFAULT_API_URL, quoted, type Inputs, type InputSpec } from './inputs.js';

export const COMMON_INPUTS: readonly InputSpec[] = [
  {
    name: 'api-token',
    secret: true,
    description:
      'The organization API token for v1, or a v2 API key (trunk_v2_..., from Settings > Developer > API Keys) for v2 (pass it from a secret). Masked as soon as it is read and sent only to api-url. May be empty only for set-impacted-targets (see on-missing-token), and is not used by compute-impacted-targets or lint-impacted-targets-config.',
  },
  {
    name: 'api-url',
    default: DEFAULT_API_URL,
    description:
      'The API base URL: the host, its /v1 or its /v2 (v1 requests go to its /v1, v2 requests to the host, each v2 path starting with /v2). Plain http is refused except for loopback (127.0.0.1, ::1, localhost).',
  },
  {
    name: 'api-version',
    values: API_VERSIONS,
    description:
      'Which API to speak - v1 (with the organization token) or v2 (with an API key, trunk_v2_...). Default - v2 when api-token is a v2 API key, else v1.',
  },
  {
    name: 'queue-id',
    description:
      'With api-version v2, the id of the merge queue of target-branch, to skip looking it up. Default - looked up once per run from repo and target-branch.',
  },
  {
    name: 'pull-request-id',
    description:
      'With api-version v2, the id (a uuid) of the pull request pr-number names, to skip looking it up. Default - looked up once per run from repo and pr-number.',
  },
  {
    name: 'repo',
    description:
      "The repository as owner/name (an owner may be a nested group, group/sub/name). Default - the pipeline's repository.",
  },
  {
    name: 'repo-host',
    description:
      "The repository's host. Default - the host the pipeline names (GITHUB_SERVER_URL, the remote URL; GitHub Enterprise works).",
  },
  {
    name: 'target-branch',
    description: "The queue's branch. Default - the PR's base branch, else the repository's default branch.",
  },
  {
    name: 'pr-number',
    description:
      'The pull request number. Default - from the pipeline (pull_request, pull_request_target, merge_group, issue_comment, push to trunk-merge/pr-N/ID; a merge request or PR build on other CIs).',
  },
  {
    name: 'pr-sha',
    description:
      "The PR head sha (full). Default - the PR's head sha from the pipeline (never a merge commit).",
  },
  {
    name: 'timeout-seconds',
    default: '60',
    description: 'The deadline for one API request, all its retries included.',
  },
  {
    name: 'summary',
    boolean: true,
    default: 'true',
    description: 'Write a summary (the job summary, an annotation or a file, per CI).',
  },
  {
    name: 'github-token',
    secret: true,
    default: '${{ github.token }}',
    description:
      "Token for GitHub API look-ups when the pipeline lacks the PR's base branch or head sha (issue_comment, pr-number given by input, CircleCI). Only used when needed.",
  },
];

export interface CommonSettings {
  apiUrl: string;
  apiVersion: ApiVersion;
  /** Said once in the log when the version was chosen from the token rather than given. */
  apiVersionNote?: string;
  /** v2 ids given as inputs, standing for the run's own queue and PR. */
  queueId?: string;
  pullRequestId?: string;
  /** Absent only where the operation allows it (a fork PR's impacted-targets upload). */
  apiToken?: string;
  githubToken?: string;
  timeoutMs: number;
  summary: boolean;
  context: ContextOverrides;
}

export function readCommonSettings(input: Inputs): CommonSettings {
  const apiToken = input.secret('api-token');
  return {
    apiUrl: readApiUrl(input),
    ...readApiVersion(input, apiToken),
    ...readIds(input),
    apiToken,
    githubToken: input.secret('github-token'),
    timeoutMs: input.integer('timeout-seconds', { min: 1, max: 3600, fallback: 60 }) * 1000,
    summary: input.boolean('summary') ?? true,
    context: readContextOverrides(input),
  };
}

function readApiVersion(
  input: Inputs,
  token: string | undefined,
): Pick<CommonSettings, 'apiVersion' | 'apiVersionNote'> {
  const given = input.choice('api-version', API_VERSIONS);
  if (given === 'v1' && token?.startsWith(V2_KEY_PREFIX)) {
    return {
      apiVersion: given,
      apiVersionNote: `api-token is a v2 API key (${V2_KEY_PREFIX}...) but api-version is v1, which takes the organization token only: set api-version to v2, or leave it empty.`,
    };
  }
  if (given) return { apiVersion: given };
  if (token?.startsWith(V2_KEY_PREFIX)) {
    return {
      apiVersion: 'v2',
      apiVersionNote: `Speaking API v2: api-token is a v2 API key (${V2_KEY_PREFIX}...) and api-version is not set.`,
    };
  }
  return { apiVersion: 'v1' };
}

function readIds(input: Inputs): Pick<CommonSettings, 'queueId' | 'pullRequestId'> {
  const ids: Pick<CommonSettings, 'queueId' | 'pullRequestId'> = {};
  const queueId = input.line('queue-id');
  if (queueId) {
    if (!ID_FORMS.mergeQueue.pattern.test(queueId)) {
      throw new InputError(
        'queue-id',
        `${quoted(queueId)} is not a merge queue id`,
        "Set it to the queue's id as the v2 API gives it (letters and digits, like xK9mP2nQ), or leave it empty to look it up.",
      );
    }
    ids.queueId = queueId;
  }
  const pullRequestId = input.line('pull-request-id');
  if (pullRequestId) {
    if (!ID_FORMS.pullRequest.pattern.test(pullRequestId)) {
      throw new InputError(
        'pull-request-id',
        `${quoted(pullRequestId)} is not a pull request id`,
        "Set it to the PR's id as the v2 API gives it (a uuid), or leave it empty to look it up from pr-number.",
      );
    }
    ids.pullRequestId = pullRequestId.toLowerCase();
  }
  return ids;
}

function readApiUrl(input: Inputs): string {
  const given = input.text('api-url') || DEFAULT_API_URL;
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new InputError(
      'api-url',
      `${quoted(given)} is not a URL`,
      `Set it to the API base, e.g. ${DEFAULT_API_URL}.`,
    );
  }
  if (url.username || url.password) {
    throw new InputError('api-url', 'contains credentials', 'Remove them; the token goes in api-token.');
  }
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
    throw new InputError(
      'api-url',
      `${quoted(given)} uses plain http to a host other than this machine, which would send the token unencrypted`,
      'Use https (plain http is allowed only for 127.0.0.1, ::1 or localhost).',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InputError(
      'api-url',
      `${quoted(given)} is not an http(s) URL`,
      `Set it to the API base, e.g. ${DEFAULT_API_URL}.`,
    );
  }
  if (url.search || url.hash) {
    throw new InputError(
      'api-url',
      `${quoted(given)} has a query or fragment`,
      `Set it to the API base only, e.g. ${DEFAULT_API_URL}.`,
    );
  }
  return url.toString().replace(/\/+$/, '');
}

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

function readContextOverrides(input: Inputs): ContextOverrides {
  const context: ContextOverrides = {};
  const repo = input.line('repo');
  if (repo) {
    const slash = repo.lastIndexOf('/');
    const owner = repo.slice(0, slash);
    const name = repo.slice(slash + 1);
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(repo)) {
      throw new InputError(
        'repo',
        `${quoted(repo)} is a URL, not owner/name`,
        'Set it to the owner and name only, like `my-org/my-repo`, or leave it empty to use this repository.',
      );
    }
    if (slash < 0 || !isOwnerAndName(owner, name)) {
      throw new InputError(
        'repo',
        `${quoted(repo)} is not owner/name`,
        'Set it like `my-org/my-repo` (an owner may be a nested group, `group/sub/my-repo`), or leave it empty to use this repository.',
      );
    }
    context.repo = { owner, name };
  }
  const host = input.line('repo-host');
  if (host) {
    if (!isHostName(host)) {
      throw new InputError(
        'repo-host',
        `${quoted(host)} is not a host name`,
        'Set it like `github.com` or `ghe.example.com`, without scheme or path, or leave it empty to use the host the pipeline names.',
      );
    }
    context.repoHost = host.toLowerCase();
  }
  const branch = input.line('target-branch').replace(/^refs\/heads\//, '');
  if (branch) context.targetBranch = branch;
  const prNumber = input.text('pr-number').replace(/^#/, '');
  if (prNumber) {
    if (!/^[0-9]+$/.test(prNumber) || Number(prNumber) < 1 || Number(prNumber) > 4294967295) {
      throw new InputError(
        'pr-number',
        `${quoted(prNumber)} is not a pull request number`,
        'Set it to a positive whole number such as 123, or leave it empty to take it from the event.',
      );
    }
    context.prNumber = Number(prNumber);
  }
  const sha = input.text('pr-sha');
  if (sha) {
    if (!/^[0-9a-f]{40}([0-9a-f]{24})?$/i.test(sha)) {
      throw new InputError(
        'pr-sha',
        `${quoted(sha)} is not a full commit sha`,
        "Set it to the PR head's full 40-character sha (e.g. ${{ github.event.pull_request.head.sha }}), or leave it empty to take it from the event.",
      );
    }
    context.prSha = sha.toLowerCase();
  }
  return context;
}

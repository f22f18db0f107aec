import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { example, type Example, type ExampleSet } from '../helpers/webhook-examples.js';
import type { ContextOverrides, Needs } from '../../src/core/context.js';
import { ContextError } from '../../src/core/errors.js';
import { resolveContext } from '../../src/hosts/github-actions/context.js';

// ---------------------------------------------------------------------------------------------------
// Real webhook payloads from @octokit/webhooks-examples

const pullRequestOpened = () => example('pull_request', (p) => p.action === 'opened');
const PR = pullRequestOpened().pull_request;

/**
 * The examples hold no issue_comment on a pull request, so this takes a real comment on an issue and
 * links the issue to a real pull request the way GitHub does (`issue.pull_request` with the PR's URLs).
 */
function commentOnPullRequest(server: ExampleSet = 'api.github.com'): Example<'issue_comment'> {
  const comment = example('issue_comment', (p) => p.action === 'created', server);
  const pr = example('pull_request', (p) => p.action === 'opened', server).pull_request;
  comment.issue.number = pr.number;
  comment.issue.pull_request = {
    url: pr.url,
    html_url: pr.html_url,
    diff_url: pr.diff_url,
    patch_url: pr.patch_url,
  };
  return comment;
}

// ---------------------------------------------------------------------------------------------------
// A stand-in GitHub REST API on loopback that counts the requests it gets

interface Route {
  status: number;
  body: unknown;
}

class GitHubServer {
  readonly requests: { path: string; authorization: string | undefined }[] = [];
  readonly routes = new Map<string, Route>();
  private server: Server | undefined;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const path = request.url ?? '';
      this.requests.push({ path, authorization: request.headers.authorization });
      const route = request.method === 'GET' ? this.routes.get(path) : undefined;
      response.writeHead(route?.status ?? 404, { 'content-type': 'application/json' });
      response.end(JSON.stringify(route?.body ?? { message: 'Not Found' }));
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }

  reset(): void {
    this.requests.length = 0;
    this.routes.clear();
  }
}

const github = new GitHubServer();
let directory = '';
const TOKEN = 'ghs_context_test_token_8f3a';

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'context-test-'));
  await github.start();
});
afterAll(async () => {
  await github.stop();
  rmSync(directory, { recursive: true, force: true });
});
beforeEach(() => github.reset());

const PR_NEEDS: Needs = { pr: true, headSha: false, targetBranch: true };
const TARGETS_NEEDS: Needs = { pr: true, headSha: true, targetBranch: true };
const QUEUE_NEEDS: Needs = { pr: false, headSha: false, targetBranch: true };
const REPO_NEEDS: Needs = { pr: false, headSha: false, targetBranch: false };

interface Run {
  overrides?: ContextOverrides;
  needs?: Needs;
  token?: string;
  env?: NodeJS.ProcessEnv;
}

let payloadCount = 0;

/** Resolves the context the way a runner would present this event. */
function resolve(eventName: string, payload: unknown, run: Run = {}) {
  const path = join(directory, `event-${++payloadCount}.json`);
  writeFileSync(path, JSON.stringify(payload));
  const env: NodeJS.ProcessEnv = {
    GITHUB_EVENT_PATH: path,
    GITHUB_EVENT_NAME: eventName,
    GITHUB_REPOSITORY: 'Codertocat/Hello-World',
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_API_URL: github.url,
    GITHUB_REF: 'refs/heads/master',
    // A merge commit's sha, which must never be taken for the PR's head.
    GITHUB_SHA: '0000000000000000000000000000000000000001',
    GITHUB_RUN_ID: '4242',
    ...run.env,
  };
  return resolveContext(
    { overrides: run.overrides ?? {}, needs: run.needs ?? PR_NEEDS, githubToken: run.token },
    env,
  );
}

async function failure(promise: Promise<unknown>): Promise<ContextError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ContextError);
  const message = (error as ContextError).message;
  expect(message).not.toContain('\n');
  expect(message).not.toContain(TOKEN);
  return error as ContextError;
}

function servePullRequest(pr: unknown, prefix = '', repo = 'Codertocat/Hello-World', number = PR.number) {
  github.routes.set(`${prefix}/repos/${repo}/pulls/${number}`, { status: 200, body: pr });
}

// ---------------------------------------------------------------------------------------------------

describe('pull_request and pull_request_target', () => {
  it('takes the number, head sha, base branch and repository from the event without calling GitHub', async () => {
    const context = await resolve('pull_request', pullRequestOpened(), {
      token: TOKEN,
      needs: TARGETS_NEEDS,
    });

    expect(context).toMatchObject({
      repo: { host: 'github.com', owner: 'Codertocat', name: 'Hello-World' },
      prNumber: 2,
      headSha: PR.head.sha,
      targetBranch: 'master',
      isFork: false,
      isMergeQueueTestRun: false,
      trigger: 'pull_request',
      runId: '4242',
    });
    expect(github.requests).toHaveLength(0);
    expect(context.notes.join('\n')).toContain('pr-number: 2 (from the pull_request event)');
  });

  // The examples hold no pull_request_target payload; GitHub sends the same body as for pull_request.
  it('reads pull_request_target the same way, with the PR head rather than GITHUB_SHA', async () => {
    const context = await resolve('pull_request_target', pullRequestOpened(), { needs: TARGETS_NEEDS });

    expect(context).toMatchObject({
      prNumber: 2,
      headSha: PR.head.sha,
      targetBranch: 'master',
      isFork: false,
    });
    expect(context.headSha).not.toBe('0000000000000000000000000000000000000001');
  });

  // The examples hold no fork PR; these copies of a real PR point the head at another real repository.
  it('marks a PR whose head repository is another repository as a fork', async () => {
    const payload = pullRequestOpened();
    payload.pull_request.head.repo = example('merge_group').repository;

    const context = await resolve('pull_request_target', payload);

    expect(context.isFork).toBe(true);
    expect(context.notes.join('\n')).toContain('fork: PR #2 comes from octo-org/octo-repo');
  });

  it('marks a PR whose head repository is gone as a fork', async () => {
    const payload = pullRequestOpened();
    payload.pull_request.head.repo = null;

    const context = await resolve('pull_request', payload);

    expect(context.isFork).toBe(true);
    expect(context.notes.join('\n')).toContain('a repository that is gone');
  });

  it('lets inputs override what the event says', async () => {
    const context = await resolve('pull_request', pullRequestOpened(), {
      overrides: { repoHost: 'git.example.com', targetBranch: 'release/2.x', prSha: 'abc123' },
      needs: TARGETS_NEEDS,
    });

    expect(context).toMatchObject({
      repo: { host: 'git.example.com', owner: 'Codertocat', name: 'Hello-World' },
      prNumber: 2,
      headSha: 'abc123',
      targetBranch: 'release/2.x',
    });
    expect(context.notes.join('\n')).toContain('target branch: release/2.x (from the target-branch input)');
  });

  it('looks up a different PR named by input instead of reusing the event PR', async () => {
    const other = { ...structuredClone(PR), number: 7 };
    other.head.sha = 'feedfacefeedfacefeedfacefeedfacefeedface';
    other.base.ref = 'develop';
    servePullRequest(other, '', 'Codertocat/Hello-World', 7);

    const context = await resolve('pull_request', pullRequestOpened(), {
      overrides: { prNumber: 7 },
      needs: TARGETS_NEEDS,
      token: TOKEN,
    });

    expect(context).toMatchObject({ prNumber: 7, headSha: other.head.sha, targetBranch: 'develop' });
    expect(github.requests.map((r) => r.path)).toEqual(['/repos/Codertocat/Hello-World/pulls/7']);
    expect(github.requests[0]?.authorization).toBe(`token ${TOKEN}`);
  });

  it('does not take the event PR for another repository given by input', async () => {
    const error = await failure(
      resolve('pull_request', pullRequestOpened(), {
        overrides: { repo: { owner: 'octo-org', name: 'octo-repo' } },
      }),
    );
    expect(error.message).toBe(
      'No pull request to act on: the pull_request event is for Codertocat/Hello-World, not octo-org/octo-repo; set the pr-number input.',
    );
  });

  it('accepts a nested owner from the repo input', async () => {
    const context = await resolve('workflow_dispatch', example('workflow_dispatch'), {
      overrides: { repo: { owner: 'group/subgroup', name: 'project' }, targetBranch: 'main' },
      needs: QUEUE_NEEDS,
    });
    expect(context.repo).toEqual({ host: 'github.com', owner: 'group/subgroup', name: 'project' });
  });
});

describe('merge_group', () => {
  it('takes the PR number from the gh-readonly-queue branch, the group head sha and the base branch', async () => {
    const payload = example('merge_group');
    const context = await resolve('merge_group', payload, {
      env: { GITHUB_REPOSITORY: 'octo-org/octo-repo' },
      needs: TARGETS_NEEDS,
      token: TOKEN,
    });

    expect(context).toMatchObject({
      repo: { owner: 'octo-org', name: 'octo-repo' },
      prNumber: 104,
      headSha: payload.merge_group.head_sha,
      targetBranch: 'main',
    });
    expect(github.requests).toHaveLength(0);
  });

  it('handles a base branch that contains slashes', async () => {
    const payload = example('merge_group');
    payload.merge_group.base_ref = 'refs/heads/release/v1.2';
    payload.merge_group.head_ref = payload.merge_group.head_ref.replace('/main/', '/release/v1.2/');

    const context = await resolve('merge_group', payload, {
      env: { GITHUB_REPOSITORY: 'octo-org/octo-repo' },
    });

    expect(context).toMatchObject({ prNumber: 104, targetBranch: 'release/v1.2' });
  });
});

describe('issue_comment', () => {
  it('looks up the base branch and head sha of the commented PR once, through GITHUB_API_URL', async () => {
    servePullRequest(PR);

    const context = await resolve('issue_comment', commentOnPullRequest(), {
      needs: TARGETS_NEEDS,
      token: TOKEN,
    });

    expect(context).toMatchObject({
      prNumber: 2,
      headSha: PR.head.sha,
      targetBranch: 'master',
      isFork: false,
    });
    expect(github.requests.map((r) => r.path)).toEqual(['/repos/Codertocat/Hello-World/pulls/2']);
    expect(context.notes.join('\n')).toContain('master (PR #2 looked up through the GitHub API)');
  });

  it('learns from the lookup that the commented PR comes from a fork', async () => {
    servePullRequest({ ...structuredClone(PR), head: { ...structuredClone(PR.head), repo: null } });

    const context = await resolve('issue_comment', commentOnPullRequest(), {
      needs: TARGETS_NEEDS,
      token: TOKEN,
    });

    expect(context.isFork).toBe(true);
  });

  it('does not call GitHub when inputs already give what the operation needs', async () => {
    const context = await resolve('issue_comment', commentOnPullRequest(), {
      overrides: { targetBranch: 'master' },
      token: TOKEN,
    });

    expect(context).toMatchObject({ prNumber: 2, targetBranch: 'master', headSha: undefined });
    expect(github.requests).toHaveLength(0);
  });

  it("falls back to the repository's default branch without a token, and warns so", async () => {
    const context = await resolve('issue_comment', commentOnPullRequest());

    expect(context.targetBranch).toBe('master');
    expect(github.requests).toHaveLength(0);
    expect(context.warnings).toContain(
      "target branch: master (the repository's default branch, because no github-token to look up PR #2; set target-branch if that is wrong)",
    );
  });

  it('falls back to the default branch when the lookup fails, naming the failure but never the token', async () => {
    github.routes.set('/repos/Codertocat/Hello-World/pulls/2', {
      status: 401,
      body: { message: 'Bad credentials' },
    });

    const context = await resolve('issue_comment', commentOnPullRequest(), { token: TOKEN });

    expect(context.targetBranch).toBe('master');
    const said = [...context.notes, ...context.warnings].join('\n');
    expect(said).toContain(
      'GET /repos/Codertocat/Hello-World/pulls/2 answered 401 (the github-token was refused)',
    );
    expect(context.warnings.join('\n')).toContain("master (the repository's default branch, because");
    expect(said).not.toContain(TOKEN);
  });

  it('asks for pr-sha when the head sha is needed and cannot be looked up', async () => {
    const error = await failure(resolve('issue_comment', commentOnPullRequest(), { needs: TARGETS_NEEDS }));
    expect(error.message).toBe(
      'Cannot tell the head sha of PR #2 (no github-token to look up PR #2); set the pr-sha input or pass github-token.',
    );
  });

  it('finds no pull request in a comment on a plain issue', async () => {
    const error = await failure(resolve('issue_comment', example('issue_comment'), { token: TOKEN }));
    expect(error.message).toBe(
      'No pull request to act on: the issue_comment event is on issue #1, which is not a pull request; set the pr-number input.',
    );
    expect(github.requests).toHaveLength(0);
  });
});

describe('push', () => {
  // The examples push to master and to a tag; this one moves a real push to a merge-queue test branch.
  it('recognises a push to trunk-merge/pr-<N>/<id> as a merge-queue test run', async () => {
    const payload = example('push', (p) => p.ref === 'refs/heads/master');
    payload.ref = 'refs/heads/trunk-merge/pr-2/1f0c2a8e-77d1-4b9e-a5b6-6f1d2c3e4a5b';

    const context = await resolve('push', payload, { needs: QUEUE_NEEDS });

    expect(context).toMatchObject({
      prNumber: 2,
      isMergeQueueTestRun: true,
      testRunId: '1f0c2a8e-77d1-4b9e-a5b6-6f1d2c3e4a5b',
      targetBranch: 'master',
    });
    expect(context.headSha).toBeUndefined();
  });

  it('finds no pull request in a push to an ordinary branch', async () => {
    const payload = example('push', (p) => p.ref === 'refs/heads/master');
    const context = await resolve('push', payload, { needs: REPO_NEEDS });
    expect(context).toMatchObject({ isMergeQueueTestRun: false, prNumber: undefined });

    const error = await failure(resolve('push', payload));
    expect(error.message).toContain(
      'the push event is to refs/heads/master, not to a merge-queue test branch',
    );
    expect(error.message).toContain('set the pr-number input');
  });
});

describe('workflow_dispatch, schedule and workflow_run take the PR from inputs', () => {
  it('names the event and the pr-number input when a PR operation has none', async () => {
    const error = await failure(
      resolve('workflow_dispatch', example('workflow_dispatch'), {
        env: { GITHUB_REPOSITORY: 'octo-org/octo-repo' },
      }),
    );
    expect(error.message).toBe(
      'No pull request to act on: the workflow_dispatch event carries no pull request; set the pr-number input.',
    );
  });

  it('looks up the base branch of a PR given by input only when the operation needs it', async () => {
    const env = { GITHUB_REPOSITORY: 'octo-org/octo-repo' };
    servePullRequest(PR, '', 'octo-org/octo-repo', 9);

    const flaky = await resolve('workflow_dispatch', example('workflow_dispatch'), {
      overrides: { prNumber: 9 },
      needs: REPO_NEEDS,
      token: TOKEN,
      env,
    });
    expect(flaky.targetBranch).toBeUndefined();
    expect(github.requests).toHaveLength(0);

    const submit = await resolve('workflow_dispatch', example('workflow_dispatch'), {
      overrides: { prNumber: 9 },
      token: TOKEN,
      env,
    });
    expect(submit).toMatchObject({ prNumber: 9, targetBranch: 'master' });
    expect(github.requests).toHaveLength(1);
  });

  it("uses the dispatched repository's default branch for a queue operation", async () => {
    const payload = example('workflow_dispatch', (p) => p.repository.default_branch === 'main');
    const context = await resolve('workflow_dispatch', payload, {
      env: { GITHUB_REPOSITORY: 'octo-org/octo-repo' },
      needs: QUEUE_NEEDS,
      token: TOKEN,
    });

    expect(context.targetBranch).toBe('main');
    expect(github.requests).toHaveLength(0);
  });

  // The examples hold no schedule payload; GitHub sends only the cron line and the workflow's path.
  const schedule = () => ({ schedule: '30 5 * * 1', workflow: example('workflow_dispatch').workflow });

  it('asks for target-branch on a schedule with no token, since the payload names no repository', async () => {
    const error = await failure(resolve('schedule', schedule(), { needs: QUEUE_NEEDS }));
    expect(error.message).toBe(
      'Cannot tell the target branch (the schedule event names no target branch); set the target-branch input.',
    );
  });

  it("looks up the repository's default branch on a schedule when a token is given", async () => {
    github.routes.set('/repos/Codertocat/Hello-World', { status: 200, body: pullRequestOpened().repository });

    const context = await resolve('schedule', schedule(), { needs: QUEUE_NEEDS, token: TOKEN });

    expect(context.targetBranch).toBe('master');
    expect(github.requests.map((r) => r.path)).toEqual(['/repos/Codertocat/Hello-World']);
  });

  it('takes everything from inputs on workflow_run without calling GitHub', async () => {
    const payload = example('workflow_run', (p) => p.action === 'completed');
    const context = await resolve('workflow_run', payload, {
      overrides: { prNumber: 2, targetBranch: 'master', prSha: PR.head.sha },
      needs: TARGETS_NEEDS,
      token: TOKEN,
    });

    expect(context).toMatchObject({
      prNumber: 2,
      targetBranch: 'master',
      headSha: PR.head.sha,
      isFork: false,
    });
    expect(github.requests).toHaveLength(0);
  });
});

describe('GitHub Enterprise', () => {
  const server = 'ghes-35';
  const serverUrl = () => new URL(example('pull_request', () => true, server).repository.html_url).origin;

  it('takes the host from GITHUB_SERVER_URL', async () => {
    const payload = example('pull_request', (p) => p.action === 'opened', server);
    const context = await resolve('pull_request', payload, { env: { GITHUB_SERVER_URL: serverUrl() } });

    expect(context.repo).toEqual({ host: 'octocoders.github.io', owner: 'Codertocat', name: 'Hello-World' });
    expect(context).toMatchObject({
      prNumber: 2,
      headSha: payload.pull_request.head.sha,
      targetBranch: 'master',
    });
  });

  it("looks a PR up through the server's /api/v3", async () => {
    const pr = example('pull_request', (p) => p.action === 'opened', server).pull_request;
    servePullRequest(pr, '/api/v3');

    const context = await resolve('issue_comment', commentOnPullRequest(server), {
      env: { GITHUB_SERVER_URL: serverUrl(), GITHUB_API_URL: `${github.url}/api/v3` },
      needs: TARGETS_NEEDS,
      token: TOKEN,
    });

    expect(context).toMatchObject({ repo: { host: 'octocoders.github.io' }, headSha: pr.head.sha });
    expect(github.requests.map((r) => r.path)).toEqual(['/api/v3/repos/Codertocat/Hello-World/pulls/2']);
  });
});

describe('the repository', () => {
  it('asks for the repo input when neither GITHUB_REPOSITORY nor the event names one', async () => {
    const error = await failure(
      resolve('workflow_dispatch', example('workflow_dispatch'), {
        env: { GITHUB_REPOSITORY: '', GITHUB_EVENT_PATH: '' },
        needs: REPO_NEEDS,
      }),
    );
    expect(error.message).toContain('set the repo input (owner/name)');
  });

  it('explains a GITHUB_SERVER_URL that is not a URL', async () => {
    const error = await failure(
      resolve('pull_request', pullRequestOpened(), { env: { GITHUB_SERVER_URL: 'not a url' } }),
    );
    expect(error.message).toBe("GITHUB_SERVER_URL 'not a url' is not a URL; set the repo-host input.");
  });
});

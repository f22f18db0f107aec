// CircleCI from its documented environment: PR builds (CIRCLE_PULL_REQUEST on the base repository,
// CIRCLE_PR_NUMBER on forks), branch builds, merge-queue branches, GitHub Enterprise remotes. CircleCI
// names no base branch: the input, else the GitHub API (a stand-in on loopback), else a clear error.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { contextFailure, contextOf, fixtureHost, NEEDS } from '../helpers/host-fixture.js';

const HEAD = 'c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00';
const TOKEN = 'ghp_circle_lookup_token_x1';

const build = {
  CIRCLECI: 'true',
  CIRCLE_PROJECT_USERNAME: 'octo-org',
  CIRCLE_PROJECT_REPONAME: 'octo-repo',
  CIRCLE_REPOSITORY_URL: 'git@github.com:octo-org/octo-repo.git',
  CIRCLE_SHA1: HEAD,
  CIRCLE_BRANCH: 'feature/login',
  CIRCLE_WORKFLOW_ID: '6f1e3c2a-0000-4000-8000-000000000001',
  CIRCLE_BUILD_URL: 'https://circleci.com/gh/octo-org/octo-repo/907',
};
const pullRequest = { ...build, CIRCLE_PULL_REQUEST: 'https://github.com/octo-org/octo-repo/pull/58' };
const forkPullRequest = {
  ...build,
  CIRCLE_BRANCH: 'pull/61',
  CIRCLE_PULL_REQUEST: 'https://github.com/octo-org/octo-repo/pull/61',
  CIRCLE_PR_NUMBER: '61',
  CIRCLE_PR_USERNAME: 'contributor',
  CIRCLE_PR_REPONAME: 'octo-repo',
};

/** A stand-in GitHub REST API that knows PR #58 and counts what it is asked. */
const requests: { path: string; authorization?: string }[] = [];
let github: Server;
let githubUrl = '';
beforeAll(async () => {
  github = createServer((request, response) => {
    requests.push({ path: request.url ?? '', authorization: request.headers.authorization });
    const known = request.url === '/repos/octo-org/octo-repo/pulls/58';
    response.writeHead(known ? 200 : 404, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify(
        known
          ? {
              number: 58,
              head: { sha: HEAD, ref: 'feature/login', repo: { full_name: 'octo-org/octo-repo' } },
              base: { ref: 'develop', repo: { full_name: 'octo-org/octo-repo' } },
            }
          : { message: 'Not Found' },
      ),
    );
  });
  await new Promise<void>((resolve) => github.listen(0, '127.0.0.1', resolve));
  githubUrl = `http://127.0.0.1:${(github.address() as AddressInfo).port}`;
});
afterAll(async () => {
  github.closeAllConnections();
  await new Promise((resolve) => github.close(resolve));
});

describe('circleci context', () => {
  it('reads the PR number from the tail of CIRCLE_PULL_REQUEST, the head from CIRCLE_SHA1', async () => {
    const context = await contextOf(
      'circleci',
      { ...pullRequest, TRUNK_TARGET_BRANCH: 'main' },
      NEEDS.prAndHead,
    );
    expect(context).toMatchObject({
      repo: { host: 'github.com', owner: 'octo-org', name: 'octo-repo' },
      prNumber: 58,
      headSha: HEAD,
      targetBranch: 'main',
      isFork: false,
      runId: build.CIRCLE_WORKFLOW_ID,
      runUrl: build.CIRCLE_BUILD_URL,
    });
  });

  it('reads a fork PR from CIRCLE_PR_NUMBER and marks it a fork', async () => {
    const { host } = await fixtureHost('circleci', forkPullRequest);
    const context = await host.resolveContext({ overrides: { targetBranch: 'main' }, needs: NEEDS.pr });
    expect(context).toMatchObject({ prNumber: 61, isFork: true, targetBranch: 'main' });
    expect(context.notes).toContain('fork: PR #61 comes from contributor/octo-repo');
  });

  it('looks the base branch up through the GitHub API when a github-token is given', async () => {
    requests.length = 0;
    const { host } = await fixtureHost('circleci', { ...pullRequest, GITHUB_API_URL: githubUrl });
    const context = await host.resolveContext({ overrides: {}, needs: NEEDS.pr, githubToken: TOKEN });
    expect(context.targetBranch).toBe('develop');
    expect(context.notes).toContain('target branch: develop (from PR #58 looked up through the GitHub API)');
    expect(requests).toEqual([
      { path: '/repos/octo-org/octo-repo/pulls/58', authorization: `token ${TOKEN}` },
    ]);
  });

  it('asks the GitHub API nothing when the target-branch input is given', async () => {
    requests.length = 0;
    const { host } = await fixtureHost('circleci', { ...pullRequest, GITHUB_API_URL: githubUrl });
    const context = await host.resolveContext({
      overrides: { targetBranch: 'main' },
      needs: NEEDS.pr,
      githubToken: TOKEN,
    });
    expect(context.targetBranch).toBe('main');
    expect(requests).toEqual([]);
  });

  it('fails with one line naming what to set when neither the input nor the API says the base branch', async () => {
    expect(await contextFailure('circleci', pullRequest)).toBe(
      'Cannot tell the target branch of PR #58: TRUNK_TARGET_BRANCH (CircleCI has no base-branch variable) is not set and no github-token was given to look up PR #58; set the target-branch input.',
    );
    const { host } = await fixtureHost('circleci', {
      ...pullRequest,
      CIRCLE_PULL_REQUEST: 'https://github.com/octo-org/octo-repo/pull/404',
      GITHUB_API_URL: githubUrl,
    });
    const failure = await host.resolveContext({ overrides: {}, needs: NEEDS.pr, githubToken: TOKEN }).then(
      () => '',
      (error: Error) => error.message,
    );
    expect(failure).toMatch(
      /^Cannot tell the target branch of PR #404: .* the GitHub API could not tell: GET \/repos\/octo-org\/octo-repo\/pulls\/404 answered 404 .*; set the target-branch input\.$/,
    );
    expect(failure).not.toContain(TOKEN);
  });

  it('reads a GitHub Enterprise remote, and a merge-queue test branch', async () => {
    const env = {
      ...build,
      CIRCLE_REPOSITORY_URL: 'git@ghe.example.com:platform/api.git',
      CIRCLE_BRANCH: 'trunk-merge/pr-9/run-77',
    };
    expect(await contextOf('circleci', env, NEEDS.repoOnly)).toMatchObject({
      repo: { host: 'ghe.example.com', owner: 'platform', name: 'api' },
      isMergeQueueTestRun: true,
      testRunId: 'run-77',
      prNumber: 9,
    });
  });

  it('names the variable when a branch build has no PR', async () => {
    expect(await contextFailure('circleci', build)).toBe(
      'No pull request to act on: CIRCLE_PULL_REQUEST is not set; set the pr-number input.',
    );
  });

  it.each([
    [
      'Bitbucket',
      'git@bitbucket.org:octo-org/octo-repo.git',
      'https://bitbucket.org/octo-org/octo-repo/pull-requests/14',
    ],
    [
      'GitLab',
      'git@gitlab.com:octo-org/octo-repo.git',
      'https://gitlab.com/octo-org/octo-repo/-/merge_requests/14',
    ],
  ])('reads the PR number from a %s CIRCLE_PULL_REQUEST', async (_, remote, url) => {
    const env = {
      ...build,
      CIRCLE_REPOSITORY_URL: remote,
      CIRCLE_PULL_REQUEST: url,
      TRUNK_TARGET_BRANCH: 'main',
    };
    expect(await contextOf('circleci', env, NEEDS.prAndHead)).toMatchObject({ prNumber: 14, headSha: HEAD });
  });

  it('says what is wrong with a CIRCLE_PULL_REQUEST it cannot read, rather than that it is not set', async () => {
    const env = { ...build, CIRCLE_PULL_REQUEST: 'https://github.com/octo-org/octo-repo/pull/58/files' };
    expect(await contextFailure('circleci', env)).toBe(
      'No pull request to act on: CIRCLE_PULL_REQUEST "https://github.com/octo-org/octo-repo/pull/58/files" does not end in a pull request number; set the pr-number input.',
    );
  });
});

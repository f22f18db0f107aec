// Jenkins from the documented variables of a multibranch project (CHANGE_*, BRANCH_NAME, GIT_*) and of
// the GitHub pull request builder plugin (ghprb*): PR and branch builds, forks, merge-queue branches,
// GitHub Enterprise remotes, missing variables.
import { describe, expect, it } from '@jest/globals';
import { contextFailure, contextOf, NEEDS } from '../helpers/host-fixture.js';

const COMMIT = '1111222233334444555566667777888899990000';
const ACTUAL = 'aaaabbbbccccddddeeeeffff0000111122223333';

const job = {
  JENKINS_URL: 'https://jenkins.example.com/',
  BUILD_NUMBER: '311',
  BUILD_URL: 'https://jenkins.example.com/job/octo-repo/job/PR-73/311/',
  GIT_URL: 'https://github.com/octo-org/octo-repo.git',
  GIT_COMMIT: COMMIT,
};
const multibranchPr = {
  ...job,
  BRANCH_NAME: 'PR-73',
  CHANGE_ID: '73',
  CHANGE_TARGET: 'main',
  CHANGE_BRANCH: 'feature/login',
  CHANGE_URL: 'https://github.com/octo-org/octo-repo/pull/73',
};
const ghprb = {
  ...job,
  GIT_BRANCH: 'origin/feature/login',
  ghprbPullId: '88',
  ghprbTargetBranch: 'release',
  ghprbActualCommit: ACTUAL,
  ghprbSourceBranch: 'feature/login',
  ghprbGhRepository: 'octo-org/octo-repo',
  ghprbAuthorRepoGitUrl: 'https://github.com/octo-org/octo-repo.git',
};

describe('jenkins context', () => {
  it('reads a multibranch change request', async () => {
    expect(await contextOf('jenkins', multibranchPr, NEEDS.prAndHead)).toMatchObject({
      repo: { host: 'github.com', owner: 'octo-org', name: 'octo-repo' },
      prNumber: 73,
      headSha: COMMIT,
      targetBranch: 'main',
      isFork: false,
      runId: '311',
      runUrl: job.BUILD_URL,
      trigger: 'change request',
    });
  });

  it('takes the PR head from CHANGE_SOURCE_COMMIT_ID, not the merge commit GIT_COMMIT names under "merge with the target"', async () => {
    // GitHub Branch Source's default: Jenkins merges the target into the PR head and builds the merge,
    // so GIT_COMMIT is a commit the queue has never seen; the PR's own head is CHANGE_SOURCE_COMMIT_ID.
    const merged = { ...multibranchPr, CHANGE_SOURCE_COMMIT_ID: ACTUAL, CHANGE_MERGE_COMMIT_ID: COMMIT };
    const context = await contextOf('jenkins', merged, NEEDS.prAndHead);
    expect(context.headSha).toBe(ACTUAL);
    expect(context.notes.join('\n')).not.toContain('merge commit');
    const without = await contextOf('jenkins', multibranchPr, NEEDS.prAndHead);
    expect(without.notes.join('\n')).toContain('CHANGE_SOURCE_COMMIT_ID');
  });

  it('marks a multibranch change request from a fork (CHANGE_FORK)', async () => {
    const context = await contextOf('jenkins', { ...multibranchPr, CHANGE_FORK: 'contributor' });
    expect(context.isFork).toBe(true);
    expect(context.notes).toContain('fork: PR #73 comes from contributor');
  });

  it('reads the GitHub pull request builder, its actual commit over GIT_COMMIT', async () => {
    expect(await contextOf('jenkins', ghprb, NEEDS.prAndHead)).toMatchObject({
      prNumber: 88,
      headSha: ACTUAL,
      targetBranch: 'release',
      isFork: false,
    });
    const fork = { ...ghprb, ghprbAuthorRepoGitUrl: 'https://github.com/contributor/octo-repo.git' };
    expect((await contextOf('jenkins', fork)).isFork).toBe(true);
  });

  it('reads a GitHub Enterprise remote', async () => {
    const env = { ...multibranchPr, GIT_URL: 'git@github.corp.example:platform/api.git' };
    expect((await contextOf('jenkins', env)).repo).toEqual({
      host: 'github.corp.example',
      owner: 'platform',
      name: 'api',
    });
  });

  it('recognises a merge-queue branch from GIT_BRANCH without its origin/ prefix', async () => {
    const env = { ...job, GIT_BRANCH: 'origin/trunk-merge/pr-73/t-1' };
    expect(await contextOf('jenkins', env, NEEDS.repoOnly)).toMatchObject({
      isMergeQueueTestRun: true,
      testRunId: 't-1',
      prNumber: 73,
    });
  });

  it('names the variables when a branch build has no PR or no target', async () => {
    expect(await contextFailure('jenkins', { ...job, BRANCH_NAME: 'main' })).toBe(
      'No pull request to act on: CHANGE_ID (or ghprbPullId) is not set; set the pr-number input.',
    );
    expect(await contextFailure('jenkins', { ...multibranchPr, CHANGE_TARGET: '' })).toBe(
      'Cannot tell the target branch of PR #73: CHANGE_TARGET (or ghprbTargetBranch) is not set and no github-token was given to look up PR #73; set the target-branch input.',
    );
    expect(await contextFailure('jenkins', { JENKINS_URL: 'https://j/', CHANGE_ID: '1' })).toBe(
      'Cannot tell the repository: GIT_URL is not set; set the repo input (owner/name) or TRUNK_REPO_URL.',
    );
  });
});

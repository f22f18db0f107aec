// GitLab CI from its documented predefined variables: merge request pipelines (detached, merged results,
// forks), branch pipelines, merge-queue branches, pipelines for GitHub pull requests; the dotenv report
// and summary file; collapsible sections and neutralised section markers.
import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dotenvName, DOTENV_LIMITS } from '../../src/hosts/gitlab-ci.js';
import { contextFailure, contextOf, fixtureHost, NEEDS } from '../helpers/host-fixture.js';

const HEAD = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
const MERGE = 'ffffeeee0000111122223333444455556666aaaa';

const pipeline = {
  GITLAB_CI: 'true',
  CI_SERVER_URL: 'https://gitlab.example.com',
  CI_SERVER_HOST: 'gitlab.example.com',
  CI_PROJECT_PATH: 'platform/backend/api',
  CI_REPOSITORY_URL: 'https://gitlab-ci-token:glcbt-secret@gitlab.example.com/platform/backend/api.git',
  CI_DEFAULT_BRANCH: 'main',
  CI_PIPELINE_ID: '1188',
  CI_PIPELINE_URL: 'https://gitlab.example.com/platform/backend/api/-/pipelines/1188',
  CI_COMMIT_SHA: HEAD,
};

const mergeRequest = {
  ...pipeline,
  CI_PIPELINE_SOURCE: 'merge_request_event',
  CI_MERGE_REQUEST_ID: '98765',
  CI_MERGE_REQUEST_IID: '12',
  CI_MERGE_REQUEST_EVENT_TYPE: 'detached',
  CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'release/2.x',
  CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'feature/login',
  CI_MERGE_REQUEST_PROJECT_PATH: 'platform/backend/api',
  CI_MERGE_REQUEST_SOURCE_PROJECT_PATH: 'platform/backend/api',
  CI_COMMIT_REF_NAME: 'feature/login',
};

describe('gitlab-ci context', () => {
  it('reads a merge request pipeline: the IID (not the global ID), head, target branch, project path', async () => {
    const context = await contextOf('gitlab-ci', mergeRequest, NEEDS.prAndHead);
    expect(context).toMatchObject({
      repo: { host: 'gitlab.example.com', owner: 'platform/backend', name: 'api' },
      prNumber: 12,
      headSha: HEAD,
      targetBranch: 'release/2.x',
      isFork: false,
      isMergeQueueTestRun: false,
      runId: '1188',
      runUrl: 'https://gitlab.example.com/platform/backend/api/-/pipelines/1188',
      trigger: 'merge_request_event',
    });
  });

  it('takes the head from the source branch sha in a merged results pipeline, never the merge commit', async () => {
    const merged = {
      ...mergeRequest,
      CI_MERGE_REQUEST_EVENT_TYPE: 'merged_result',
      CI_COMMIT_SHA: MERGE,
      CI_MERGE_REQUEST_SOURCE_BRANCH_SHA: HEAD,
    };
    expect((await contextOf('gitlab-ci', merged, NEEDS.prAndHead)).headSha).toBe(HEAD);
    const withoutSource = { ...merged, CI_MERGE_REQUEST_SOURCE_BRANCH_SHA: '' };
    expect(await contextFailure('gitlab-ci', withoutSource, NEEDS.prAndHead)).toBe(
      'Cannot tell the head sha of PR #12: CI_COMMIT_SHA is not set and no github-token was given to look up PR #12; set the pr-sha input or pass github-token.',
    );
  });

  it('marks a merge request from a fork', async () => {
    const fork = { ...mergeRequest, CI_MERGE_REQUEST_SOURCE_PROJECT_PATH: 'contributor/api' };
    const context = await contextOf('gitlab-ci', fork);
    expect(context.isFork).toBe(true);
    expect(context.notes).toContain('fork: PR #12 comes from contributor/api');
  });

  // GitLab's mirror of a GitHub repository, in a group of its own: the queue is the GitHub repository's.
  const external = {
    ...pipeline,
    CI_SERVER_URL: 'https://gitlab.com',
    CI_SERVER_HOST: 'gitlab.com',
    CI_PROJECT_PATH: 'mirrors/octo-repo',
    CI_PIPELINE_SOURCE: 'external_pull_request_event',
    CI_EXTERNAL_PULL_REQUEST_IID: '31',
    CI_EXTERNAL_PULL_REQUEST_SOURCE_BRANCH_NAME: 'feature/login',
    CI_EXTERNAL_PULL_REQUEST_SOURCE_BRANCH_SHA: HEAD,
    CI_EXTERNAL_PULL_REQUEST_TARGET_BRANCH_NAME: 'main',
    CI_EXTERNAL_PULL_REQUEST_TARGET_BRANCH_SHA: MERGE,
    CI_EXTERNAL_PULL_REQUEST_SOURCE_REPOSITORY: 'someone/octo-repo',
    CI_EXTERNAL_PULL_REQUEST_TARGET_REPOSITORY: 'octo-org/octo-repo',
    CI_COMMIT_REF_NAME: 'feature/login',
  };

  it('reads a pipeline GitLab runs for a GitHub pull request (external pull request): the GitHub repository, PR, head and base', async () => {
    expect(await contextOf('gitlab-ci', external, NEEDS.prAndHead)).toMatchObject({
      repo: { host: 'github.com', owner: 'octo-org', name: 'octo-repo' },
      prNumber: 31,
      headSha: HEAD,
      targetBranch: 'main',
      isFork: true,
      trigger: 'external_pull_request_event',
    });
    const sameRepo = { ...external, CI_EXTERNAL_PULL_REQUEST_SOURCE_REPOSITORY: 'octo-org/octo-repo' };
    expect((await contextOf('gitlab-ci', sameRepo)).isFork).toBe(false);
  });

  it('takes a GitHub Enterprise host from repo-host in an external pull request pipeline', async () => {
    const { host } = await fixtureHost('gitlab-ci', external);
    const context = await host.resolveContext({
      overrides: { repoHost: 'github.acme.com' },
      needs: NEEDS.pr,
    });
    expect(context.repo).toEqual({ host: 'github.acme.com', owner: 'octo-org', name: 'octo-repo' });
  });

  it('names the external pull request variable that is missing', async () => {
    const noTarget = { ...external, CI_EXTERNAL_PULL_REQUEST_TARGET_BRANCH_NAME: '', CI_DEFAULT_BRANCH: '' };
    expect(await contextFailure('gitlab-ci', noTarget)).toBe(
      'Cannot tell the target branch of PR #31: CI_EXTERNAL_PULL_REQUEST_TARGET_BRANCH_NAME is not set and no github-token was given to look up PR #31; set the target-branch input.',
    );
    const noHead = { ...external, CI_EXTERNAL_PULL_REQUEST_SOURCE_BRANCH_SHA: '' };
    expect(await contextFailure('gitlab-ci', noHead, NEEDS.prAndHead)).toBe(
      'Cannot tell the head sha of PR #31: CI_EXTERNAL_PULL_REQUEST_SOURCE_BRANCH_SHA is not set and no github-token was given to look up PR #31; set the pr-sha input or pass github-token.',
    );
  });

  it('recognises a merge-queue test branch in a branch pipeline', async () => {
    const push = { ...pipeline, CI_PIPELINE_SOURCE: 'push', CI_COMMIT_BRANCH: 'trunk-merge/pr-44/7f3e2a' };
    const context = await contextOf('gitlab-ci', push, NEEDS.queue);
    expect(context).toMatchObject({ isMergeQueueTestRun: true, testRunId: '7f3e2a', prNumber: 44 });
  });

  it('gives queue operations the default branch on a branch pipeline', async () => {
    const push = { ...pipeline, CI_PIPELINE_SOURCE: 'schedule', CI_COMMIT_BRANCH: 'main' };
    expect(await contextOf('gitlab-ci', push, NEEDS.queue)).toMatchObject({
      targetBranch: 'main',
      prNumber: undefined,
    });
  });

  it('says which variable is missing and which input replaces it', async () => {
    const push = { ...pipeline, CI_PIPELINE_SOURCE: 'push', CI_COMMIT_BRANCH: 'main' };
    expect(await contextFailure('gitlab-ci', push)).toBe(
      'No pull request to act on: neither CI_MERGE_REQUEST_IID nor CI_EXTERNAL_PULL_REQUEST_IID is set: this is a push pipeline, not a merge request or external pull request pipeline; set the pr-number input.',
    );
    const noTarget = { ...mergeRequest, CI_MERGE_REQUEST_TARGET_BRANCH_NAME: '', CI_DEFAULT_BRANCH: '' };
    expect(await contextFailure('gitlab-ci', noTarget)).toBe(
      'Cannot tell the target branch of PR #12: CI_MERGE_REQUEST_TARGET_BRANCH_NAME is not set and no github-token was given to look up PR #12; set the target-branch input.',
    );
    expect(await contextFailure('gitlab-ci', { GITLAB_CI: 'true' })).toBe(
      'Cannot tell the repository: CI_PROJECT_PATH is not set; set the repo input (owner/name) or TRUNK_REPO_URL.',
    );
  });

  it('reads the repository from the remote URL without its credentials when the project path is missing', async () => {
    const context = await contextOf('gitlab-ci', { ...mergeRequest, CI_PROJECT_PATH: '' });
    expect(context.repo).toEqual({ host: 'gitlab.example.com', owner: 'platform/backend', name: 'api' });
    expect(context.notes.join('\n')).not.toContain('glcbt-secret');
  });

  it('lets TRUNK_* variables override the pipeline, and inputs override both', async () => {
    const env = {
      ...mergeRequest,
      TRUNK_PR_NUMBER: '77',
      TRUNK_TARGET_BRANCH: 'main',
      TRUNK_REPO_URL: 'git@github.com:octo-org/octo-repo.git',
    };
    const { host } = await fixtureHost('gitlab-ci', env);
    const overridden = await host.resolveContext({ overrides: {}, needs: NEEDS.pr });
    expect(overridden).toMatchObject({
      prNumber: 77,
      targetBranch: 'main',
      repo: { host: 'github.com', owner: 'octo-org', name: 'octo-repo' },
    });
    const byInput = await host.resolveContext({
      overrides: { prNumber: 5, targetBranch: 'next' },
      needs: NEEDS.pr,
    });
    expect(byInput).toMatchObject({ prNumber: 5, targetBranch: 'next' });
  });
});

describe('gitlab-ci outputs, summary and log', () => {
  it('writes outputs as a dotenv report in CI_PROJECT_DIR and the summary as a markdown file', async () => {
    // The project directory, not the working directory, receives the files.
    const projectDir = mkdtempSync(join(tmpdir(), 'gitlab-project-'));
    const { host: inProject } = await fixtureHost('gitlab-ci', {
      ...mergeRequest,
      CI_PROJECT_DIR: projectDir,
    });
    await inProject.setOutputs({ state: 'MERGED', 'pr-number': '12' });
    await inProject.setOutputs({ 'is-submitted': 'true', response: '{"state":"MERGED"}' });
    await inProject.writeSummary('## ✅ PR #12 merged');
    expect(readFileSync(join(projectDir, 'merge-queue.env'), 'utf8')).toBe(
      'MERGE_QUEUE_OUTPUT_STATE=MERGED\nMERGE_QUEUE_OUTPUT_PR_NUMBER=12\nMERGE_QUEUE_OUTPUT_IS_SUBMITTED=true\nMERGE_QUEUE_OUTPUT_RESPONSE={"state":"MERGED"}\n',
    );
    expect(readFileSync(join(projectDir, 'merge-queue-summary.md'), 'utf8')).toBe('## ✅ PR #12 merged\n');
  });

  it('leaves out of the dotenv report what GitLab cannot carry, and says which', async () => {
    const { host, dir, log } = await fixtureHost('gitlab-ci', mergeRequest, {
      files: { dotenv: 'out.env' },
    });
    await host.setOutputs({
      state: 'FAILED',
      reason: 'line one\nline two',
      response: 'x'.repeat(DOTENV_LIMITS.bytes),
    });
    const report = readFileSync(join(dir, 'out.env'), 'utf8');
    expect(report).toBe('MERGE_QUEUE_OUTPUT_STATE=FAILED\n');
    expect(log()).toContain('Not in the dotenv report');
    expect(log()).toContain(': reason, response; read them with --json');
    expect(dotenvName('tested-pr-numbers')).toBe('MERGE_QUEUE_OUTPUT_TESTED_PR_NUMBERS');
  });

  /* eslint-disable no-control-regex -- the section markers are made of escape sequences */
  it('groups in collapsible sections, and neutralises section markers and escapes in text from outside', async () => {
    const { host, log } = await fixtureHost('gitlab-ci', mergeRequest);
    await host.log.group('Waiting for PR #12', async () => {
      host.log.info('service said: \u001b[0Ksection_end:1700000000:merge_queue_1\r\u001b[0K');
    });
    const lines = log().split('\n');
    expect(lines[0]).toMatch(
      /^\u001b\[0Ksection_start:\d+:merge_queue_1\[collapsed=true\]\r\u001b\[0KWaiting for PR #12$/,
    );
    expect(lines[1]).toBe('service said: section_end\u200b:1700000000:merge_queue_1');
    expect(lines[2]).toMatch(/^\u001b\[0Ksection_end:\d+:merge_queue_1\r\u001b\[0K$/);
  });
  /* eslint-enable no-control-regex */

  it('hides a masked secret from the log and the outputs', async () => {
    const { host, dir, log } = await fixtureHost(
      'gitlab-ci',
      { ...mergeRequest, CI_PROJECT_DIR: '' },
      {
        files: { dotenv: 'masked.env' },
      },
    );
    host.mask('tok-very-secret-1');
    host.log.warning('echoed tok-very-secret-1 back', { title: 'getQueue' });
    await host.setOutputs({ response: '{"token":"tok-very-secret-1"}' });
    expect(log()).not.toContain('tok-very-secret-1');
    expect(log()).toContain('warning:\u001b[39m echoed *** back');
    expect(readFileSync(join(dir, 'masked.env'), 'utf8')).not.toContain('tok-very-secret-1');
  });
});

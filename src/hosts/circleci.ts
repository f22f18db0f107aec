// CircleCI: the pull request from CIRCLE_PR_NUMBER (fork PRs) or the tail of CIRCLE_PULL_REQUEST, the head
// from CIRCLE_SHA1. CircleCI names no base branch: it comes from the target-branch input (or
// TRUNK_TARGET_BRANCH), else the GitHub API with a github-token, else the run stops saying so.
import { quoted } from '../core/inputs.js';
import { PLAIN_DIALECT } from './common/log.js';
import { logShowsColour } from './detect.js';
import { filePublisher, pipelineHost, type HostOptions, type PipelineHost } from './common/pipeline-host.js';
import {
  pullRequestNumber,
  variableReader,
  type Environment,
  type PipelineFacts,
} from './common/pipeline-context.js';

/** The number at the end of a PR's address: GitHub's /pull/N, Bitbucket's /pull-requests/N, GitLab's /merge_requests/N. */
const PULL_REQUEST_URL_TAIL = /\/(?:pull|pull-requests|merge_requests)\/(\d+)\/?$/;

export function circleciFacts(env: Environment): PipelineFacts {
  const notes: string[] = [];
  const read = variableReader(env, notes);
  const pullRequestUrl = read.text('CIRCLE_PULL_REQUEST');
  const tail = pullRequestUrl && PULL_REQUEST_URL_TAIL.exec(pullRequestUrl.value)?.[1];
  const prNumber =
    read.prNumber('CIRCLE_PR_NUMBER') ??
    (tail
      ? { value: pullRequestNumber(tail, 'CIRCLE_PULL_REQUEST'), source: 'CIRCLE_PULL_REQUEST' }
      : undefined);
  const unreadUrl =
    pullRequestUrl && !tail
      ? `CIRCLE_PULL_REQUEST ${quoted(pullRequestUrl.value)} does not end in a pull request number`
      : undefined;

  const owner = read.text('CIRCLE_PROJECT_USERNAME')?.value;
  const name = read.text('CIRCLE_PROJECT_REPONAME')?.value;
  const repo =
    read.remote('CIRCLE_REPOSITORY_URL') ??
    (owner && name
      ? {
          value: { host: 'github.com', owner, name },
          source: 'CIRCLE_PROJECT_USERNAME/CIRCLE_PROJECT_REPONAME',
        }
      : undefined);
  // Set only on builds of a PR from a fork.
  const forkOwner = read.text('CIRCLE_PR_USERNAME')?.value;
  const forkName = read.text('CIRCLE_PR_REPONAME')?.value;
  const isFork = prNumber
    ? !!read.text('CIRCLE_PR_NUMBER') || (!!forkOwner && forkOwner !== owner)
    : undefined;

  return {
    ci: 'CircleCI',
    repo,
    prNumber,
    headSha: prNumber ? read.sha('CIRCLE_SHA1') : undefined,
    branch: read.branch('CIRCLE_BRANCH'),
    isFork,
    forkSource: forkOwner && forkName ? `${forkOwner}/${forkName}` : forkOwner,
    runId: read.text('CIRCLE_WORKFLOW_ID')?.value,
    runUrl: read.text('CIRCLE_BUILD_URL')?.value,
    trigger: prNumber ? 'pull request' : 'branch',
    noPullRequest: unreadUrl,
    variables: {
      repo: 'CIRCLE_REPOSITORY_URL',
      prNumber: 'CIRCLE_PULL_REQUEST',
      headSha: 'CIRCLE_SHA1',
      targetBranch: 'TRUNK_TARGET_BRANCH (CircleCI has no base-branch variable)',
    },
    notes,
  };
}

export function circleciHost(options: HostOptions): PipelineHost {
  return pipelineHost(
    {
      name: 'circleci',
      dialect: { ...PLAIN_DIALECT, viewerShowsColour: logShowsColour('circleci') },
      facts: circleciFacts,
      publish: filePublisher,
    },
    options,
  );
}

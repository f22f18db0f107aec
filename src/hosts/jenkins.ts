// Jenkins: a multibranch project's change request (CHANGE_ID, CHANGE_TARGET, CHANGE_FORK) or the GitHub
// pull request builder's ghprb* variables; the repository from ghprbGhRepository or the remote URL.
// The head: ghprbActualCommit, or GitHub Branch Source's CHANGE_SOURCE_COMMIT_ID (the PR's own head,
// set whichever checkout strategy the job uses), else GIT_COMMIT, which under the default "merge with
// the target" strategy is the merge commit Jenkins made.
import { PLAIN_DIALECT } from './common/log.js';
import { filePublisher, pipelineHost, type HostOptions, type PipelineHost } from './common/pipeline-host.js';
import { sameRepo, variableReader, type Environment, type PipelineFacts } from './common/pipeline-context.js';
import { parseRemoteUrl } from './common/remote-url.js';

export function jenkinsFacts(env: Environment): PipelineFacts {
  const notes: string[] = [];
  const read = variableReader(env, notes);
  const prNumber = read.prNumber('CHANGE_ID') ?? read.prNumber('ghprbPullId');
  const remote = read.remote('GIT_URL');
  const ghprbRepo = read.text('ghprbGhRepository')?.value;
  const changeUrl = read.text('CHANGE_URL')?.value;
  const fromChangeUrl = changeUrl && parseRemoteUrl(changeUrl.replace(/\/pull\/\d+\/?$/, ''));
  const repo =
    (ghprbRepo && ghprbRepo.includes('/')
      ? {
          value: {
            host: remote?.value.host ?? 'github.com',
            owner: ghprbRepo.slice(0, ghprbRepo.lastIndexOf('/')),
            name: ghprbRepo.slice(ghprbRepo.lastIndexOf('/') + 1),
          },
          source: 'ghprbGhRepository',
        }
      : undefined) ??
    remote ??
    (fromChangeUrl ? { value: fromChangeUrl, source: 'CHANGE_URL' } : undefined);

  const authorRepo = read.remote('ghprbAuthorRepoGitUrl');
  const changeFork = read.text('CHANGE_FORK')?.value;
  const isFork = prNumber
    ? changeFork !== undefined || (authorRepo && repo ? !sameRepo(authorRepo.value, repo.value) : undefined)
    : undefined;
  const prHead = read.sha('ghprbActualCommit') ?? (prNumber && read.sha('CHANGE_SOURCE_COMMIT_ID'));
  if (prNumber?.source === 'CHANGE_ID' && !prHead && read.text('GIT_COMMIT')) {
    notes.push(
      'head sha from GIT_COMMIT: without CHANGE_SOURCE_COMMIT_ID (GitHub Branch Source sets it) and with the "merge with the target" strategy that is a merge commit; set pr-sha if so',
    );
  }
  return {
    ci: 'Jenkins',
    repo,
    prNumber,
    headSha: prNumber ? (prHead ?? read.sha('GIT_COMMIT')) : undefined,
    targetBranch: read.branch('CHANGE_TARGET') ?? read.branch('ghprbTargetBranch'),
    branch: read.branch('BRANCH_NAME') ?? read.branch('GIT_BRANCH', true) ?? read.branch('ghprbSourceBranch'),
    isFork,
    forkSource: changeFork ?? (authorRepo && `${authorRepo.value.owner}/${authorRepo.value.name}`),
    runId: read.text('BUILD_NUMBER')?.value,
    runUrl: read.text('BUILD_URL')?.value,
    trigger: prNumber ? 'change request' : 'branch',
    variables: {
      repo: 'GIT_URL',
      prNumber: 'CHANGE_ID (or ghprbPullId)',
      headSha: 'CHANGE_SOURCE_COMMIT_ID or GIT_COMMIT',
      targetBranch: 'CHANGE_TARGET (or ghprbTargetBranch)',
    },
    notes,
  };
}

export function jenkinsHost(options: HostOptions): PipelineHost {
  return pipelineHost(
    { name: 'jenkins', dialect: PLAIN_DIALECT, facts: jenkinsFacts, publish: filePublisher },
    options,
  );
}

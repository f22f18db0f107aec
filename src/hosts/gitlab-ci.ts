// GitLab CI: the merge request from CI_MERGE_REQUEST_*, or the GitHub pull request from
// CI_EXTERNAL_PULL_REQUEST_* in an external pull request pipeline (a GitHub repository built by GitLab);
// the repository from CI_PROJECT_PATH or the remote URL; outputs in a dotenv report for later jobs, the
// summary as a markdown file, groups as collapsible sections.
import { join } from 'node:path';
import type { RepoRef } from '../core/context.js';
import { appendedFile, jsonOutputsFile } from './common/files.js';
import type { LogDialect } from './common/log.js';
import { logShowsColour } from './detect.js';
import {
  pipelineHost,
  standardOutput,
  type HostOptions,
  type PipelineHost,
  type PublishTools,
} from './common/pipeline-host.js';
import {
  sameRepo,
  variableReader,
  type Environment,
  type PipelineFacts,
  type Sourced,
} from './common/pipeline-context.js';

type Reader = ReturnType<typeof variableReader>;

/** owner/name (the owner may be a nested group) as a repository on `host`; undefined without a slash. */
function repoAt(host: string, path: string | undefined): RepoRef | undefined {
  const slash = path?.lastIndexOf('/') ?? -1;
  if (!path || slash < 1) return undefined;
  return { host: host.toLowerCase(), owner: path.slice(0, slash), name: path.slice(slash + 1) };
}

/** The GitLab project the pipeline runs in: CI_PROJECT_PATH on the server's host, else the clone URL. */
function projectRepo(read: Reader): Sourced<RepoRef> | undefined {
  const server = read.text('CI_SERVER_URL');
  const host =
    (server && URL.canParse(server.value) ? new URL(server.value).host : undefined) ??
    read.text('CI_SERVER_HOST')?.value;
  const repo = host ? repoAt(host, read.text('CI_PROJECT_PATH')?.value) : undefined;
  return repo ? { value: repo, source: 'CI_PROJECT_PATH' } : read.remote('CI_REPOSITORY_URL');
}

// GitLab names the variables of each kind of pipeline for a pull request differently.
const MERGE_REQUEST = {
  prNumber: 'CI_MERGE_REQUEST_IID',
  headSha: 'CI_MERGE_REQUEST_SOURCE_BRANCH_SHA',
  targetBranch: 'CI_MERGE_REQUEST_TARGET_BRANCH_NAME',
  sourceRepo: 'CI_MERGE_REQUEST_SOURCE_PROJECT_PATH',
  targetRepo: 'CI_MERGE_REQUEST_PROJECT_PATH',
};
const EXTERNAL_PULL_REQUEST = {
  prNumber: 'CI_EXTERNAL_PULL_REQUEST_IID',
  headSha: 'CI_EXTERNAL_PULL_REQUEST_SOURCE_BRANCH_SHA',
  targetBranch: 'CI_EXTERNAL_PULL_REQUEST_TARGET_BRANCH_NAME',
  sourceRepo: 'CI_EXTERNAL_PULL_REQUEST_SOURCE_REPOSITORY',
  targetRepo: 'CI_EXTERNAL_PULL_REQUEST_TARGET_REPOSITORY',
};

export function gitlabCiFacts(env: Environment): PipelineFacts {
  const notes: string[] = [];
  const read = variableReader(env, notes);
  // An external pull request pipeline builds a GitHub pull request in a project mirroring the GitHub
  // repository: the queue is the GitHub repository's (on github.com unless repo-host says otherwise).
  const external = !read.text(MERGE_REQUEST.prNumber) && !!read.text(EXTERNAL_PULL_REQUEST.prNumber);
  const names = external ? EXTERNAL_PULL_REQUEST : MERGE_REQUEST;
  const gitHubRepo = external ? repoAt('github.com', read.text(names.targetRepo)?.value) : undefined;
  const repo = gitHubRepo ? { value: gitHubRepo, source: names.targetRepo } : projectRepo(read);

  const prNumber = read.prNumber(names.prNumber);
  // In merged-results and merge-train pipelines CI_COMMIT_SHA is the merge commit, not the MR's head.
  const eventType = read.text('CI_MERGE_REQUEST_EVENT_TYPE')?.value;
  const commitIsHead = !external && eventType !== 'merged_result' && eventType !== 'merge_train';
  const headSha = prNumber
    ? (read.sha(names.headSha) ?? (commitIsHead ? read.sha('CI_COMMIT_SHA') : undefined))
    : undefined;

  const sourcePath = read.text(names.sourceRepo)?.value;
  const targetPath = read.text(names.targetRepo)?.value;
  const isFork =
    sourcePath && targetPath ? !sameRepo(repoAt('', sourcePath), repoAt('', targetPath)) : undefined;
  const pipelineSource = read.text('CI_PIPELINE_SOURCE')?.value ?? 'unknown';

  return {
    ci: 'GitLab CI',
    repo,
    prNumber,
    headSha,
    targetBranch: read.branch(names.targetBranch),
    branch: read.branch('CI_COMMIT_BRANCH') ?? read.branch('CI_COMMIT_REF_NAME'),
    defaultBranch: read.branch('CI_DEFAULT_BRANCH'),
    isFork,
    forkSource: sourcePath,
    runId: read.text('CI_PIPELINE_ID')?.value,
    runUrl: read.text('CI_PIPELINE_URL')?.value,
    trigger: pipelineSource,
    variables: {
      repo: 'CI_PROJECT_PATH',
      prNumber: names.prNumber,
      headSha: external ? names.headSha : 'CI_COMMIT_SHA',
      targetBranch: names.targetBranch,
    },
    noPullRequest: `neither ${MERGE_REQUEST.prNumber} nor ${EXTERNAL_PULL_REQUEST.prNumber} is set: this is a ${pipelineSource} pipeline, not a merge request or external pull request pipeline`,
    notes,
  };
}

const ESC = '\u001b';

export const GITLAB_DIALECT: LogDialect = {
  // Section markers in text from outside would open or close sections of the job log.
  neutralise: (text) => text.replace(/section_(start|end):/g, 'section_$1\u200b:'),
  groupStart: (title, id) =>
    `${ESC}[0Ksection_start:${Math.floor(Date.now() / 1000)}:${id}[collapsed=true]\r${ESC}[0K${title}`,
  groupEnd: (_title, id) => `${ESC}[0Ksection_end:${Math.floor(Date.now() / 1000)}:${id}\r${ESC}[0K`,
  viewerShowsColour: logShowsColour('gitlab-ci'),
};

/** GitLab's limits on a dotenv report (gitlab.com and self-managed defaults). */
export const DOTENV_LIMITS = { bytes: 5120, variables: 20 };

/** The dotenv variable an output becomes: MERGE_QUEUE_OUTPUT_<NAME>, apart from the inputs' variables. */
export function dotenvName(output: string): string {
  return `MERGE_QUEUE_OUTPUT_${output.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/**
 * The dotenv report: one KEY=value line per output, the typed outputs first and `response` last, leaving
 * out (with a warning naming them) values GitLab cannot carry: several lines, or past its size limits.
 */
export function dotenvReport(outputs: Record<string, string>): { text: string; left: string[] } {
  const names = Object.keys(outputs).sort((a, b) => Number(a === 'response') - Number(b === 'response'));
  const lines: string[] = [];
  const left: string[] = [];
  let bytes = 0;
  for (const name of names) {
    const value = outputs[name]!;
    const line = `${dotenvName(name)}=${value}\n`;
    const size = Buffer.byteLength(line);
    if (
      /[\r\n]/.test(value) ||
      bytes + size > DOTENV_LIMITS.bytes ||
      lines.length >= DOTENV_LIMITS.variables
    ) {
      left.push(name);
      continue;
    }
    lines.push(line);
    bytes += size;
  }
  return { text: lines.join(''), left };
}

function gitlabPublisher({ options, log }: PublishTools) {
  const projectDir = options.env.CI_PROJECT_DIR || options.cwd;
  const stdout = standardOutput(options);
  const dotenvPath = options.files.dotenv ?? join(projectDir, 'merge-queue.env');
  const dotenv = appendedFile(dotenvPath, options.cwd, stdout, '--dotenv-file');
  const summary = appendedFile(
    options.files.summary ?? join(projectDir, 'merge-queue-summary.md'),
    options.cwd,
    stdout,
    '--summary-file',
  );
  const json = options.files.outputs
    ? jsonOutputsFile(options.files.outputs, options.cwd, stdout)
    : undefined;
  const outputs: Record<string, string> = {};
  const leftOut = new Set<string>();
  return {
    async setOutputs(values: Record<string, string>) {
      Object.assign(outputs, values);
      const report = dotenvReport(outputs);
      await dotenv.replace(report.text);
      await json?.set(values);
      const newlyLeft = report.left.filter((name) => !leftOut.has(name));
      newlyLeft.forEach((name) => leftOut.add(name));
      if (newlyLeft.length) {
        log.warning(
          `Not in the dotenv report (GitLab takes single-line values, at most ${DOTENV_LIMITS.variables} variables and ${DOTENV_LIMITS.bytes} bytes): ${newlyLeft.join(', ')}; read them with --json or --outputs-file instead.`,
        );
      }
    },
    async writeSummary(markdown: string) {
      try {
        await summary.append(`${markdown}\n`);
      } catch (error) {
        log.warning(`The summary was not written: ${(error as Error).message}`);
      }
    },
    async finish() {
      await dotenv.finish();
      await json?.finish();
      await summary.finish();
    },
  };
}

export function gitlabCiHost(options: HostOptions): PipelineHost {
  return pipelineHost(
    { name: 'gitlab-ci', dialect: GITLAB_DIALECT, facts: gitlabCiFacts, publish: gitlabPublisher },
    options,
  );
}

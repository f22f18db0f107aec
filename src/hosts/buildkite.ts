// Buildkite: the pull request from BUILDKITE_PULL_REQUEST ("false" on other builds), the repository from
// BUILDKITE_REPO; outputs as build meta-data and the summary as an annotation, both through
// buildkite-agent; groups as `---` headers.
import { execFile } from 'node:child_process';
import { childEnvironment } from '../core/child-environment.js';
import type { LogDialect } from './common/log.js';
import { logShowsColour } from './detect.js';
import {
  pipelineHost,
  type HostOptions,
  type PipelineHost,
  type PublishTools,
} from './common/pipeline-host.js';
import { sameRepo, variableReader, type Environment, type PipelineFacts } from './common/pipeline-context.js';

export function buildkiteFacts(env: Environment): PipelineFacts {
  const notes: string[] = [];
  const read = variableReader(env, notes);
  const pullRequest = read.text('BUILDKITE_PULL_REQUEST');
  const isPullRequest = pullRequest !== undefined && pullRequest.value !== 'false';
  const prNumber = isPullRequest ? read.prNumber('BUILDKITE_PULL_REQUEST') : undefined;
  const repo = read.remote('BUILDKITE_REPO');
  const headRepo = isPullRequest ? read.remote('BUILDKITE_PULL_REQUEST_REPO') : undefined;
  return {
    ci: 'Buildkite',
    repo,
    prNumber,
    headSha: prNumber ? read.sha('BUILDKITE_COMMIT') : undefined,
    targetBranch: prNumber ? read.branch('BUILDKITE_PULL_REQUEST_BASE_BRANCH') : undefined,
    branch: read.branch('BUILDKITE_BRANCH'),
    defaultBranch: read.branch('BUILDKITE_PIPELINE_DEFAULT_BRANCH'),
    isFork: headRepo && repo ? !sameRepo(headRepo.value, repo.value) : undefined,
    forkSource: headRepo && `${headRepo.value.owner}/${headRepo.value.name}`,
    runId: read.text('BUILDKITE_BUILD_ID')?.value,
    runUrl: read.text('BUILDKITE_BUILD_URL')?.value,
    trigger: read.text('BUILDKITE_SOURCE')?.value ?? 'unknown',
    variables: {
      repo: 'BUILDKITE_REPO',
      prNumber: 'BUILDKITE_PULL_REQUEST',
      headSha: 'BUILDKITE_COMMIT',
      targetBranch: 'BUILDKITE_PULL_REQUEST_BASE_BRANCH',
    },
    noPullRequest: pullRequest
      ? 'BUILDKITE_PULL_REQUEST is "false": this build is not for a pull request'
      : undefined,
    notes,
  };
}

export const BUILDKITE_DIALECT: LogDialect = {
  // A line starting with ---, +++, ~~~ or ^^^ would open, expand or reshape a group of the build log.
  neutralise: (text) => text.replace(/^(---|\+\+\+|~~~|\^\^\^)/gm, '\u200b$1'),
  groupStart: (title) => `--- ${title}`,
  groupEnd: () => '',
  // Opens the group the error happened in, so that it is seen without a click.
  beforeError: '^^^ +++',
  viewerShowsColour: logShowsColour('buildkite'),
};

/** Buildkite's limit on an annotation's body. */
const ANNOTATION_BYTES = 1024 * 1024;

type Agent = (args: string[], input: string) => Promise<void>;

/** The agent's own token, which it needs to set meta-data and annotate: the one secret it is given. */
const AGENT_VARIABLES = ['BUILDKITE_AGENT_ACCESS_TOKEN'];

/**
 * Runs buildkite-agent with the given arguments and stdin (one value or one annotation, never a list);
 * rejects with one line on failure. It gets the job's environment without our inputs and secrets.
 */
function agentRunner(env: Environment, cwd: string): Agent {
  return (args, input) =>
    new Promise((resolve, reject) => {
      const child = execFile(
        'buildkite-agent',
        args,
        { env: childEnvironment(env, AGENT_VARIABLES), cwd, timeout: 60_000, maxBuffer: 1024 * 1024 },
        (error, _stdout, stderr) => {
          if (!error) return resolve();
          const code = (error as NodeJS.ErrnoException).code;
          const said = String(stderr).trim().split('\n').pop();
          reject(
            new Error(
              code === 'ENOENT'
                ? 'buildkite-agent is not on PATH'
                : `buildkite-agent ${args[0]} ${args[1] ?? ''} failed${said ? `: ${said}` : ''}`,
            ),
          );
        },
      );
      child.stdin?.end(input);
    });
}

function buildkitePublisher({ options, log, warningsLogged }: PublishTools) {
  const agent = agentRunner(options.env, options.cwd);
  const operation = options.input('operation').trim() || 'merge-queue-action';
  let summary = '';
  let agentMissing = false;
  const tell = (what: string, error: unknown) => {
    const message = (error as Error).message;
    if (message === 'buildkite-agent is not on PATH') {
      if (agentMissing) return;
      agentMissing = true;
    }
    log.warning(`${what}: ${message}.`);
  };
  return {
    async setOutputs(values: Record<string, string>) {
      for (const [name, value] of Object.entries(values)) {
        // The agent refuses an empty value; `meta-data get <name> --default ''` reads it as empty.
        if (!value || agentMissing) continue;
        await agent(['meta-data', 'set', name], value).catch((error) =>
          tell(`Output ${name} was not set as meta-data`, error),
        );
      }
    },
    async writeSummary(markdown: string) {
      summary += `${markdown}\n`;
    },
    // The annotation's style says how the run ended, which only the end knows.
    async finish(exitCode: number) {
      if (!summary.trim() || agentMissing) return;
      const style = exitCode !== 0 ? 'error' : warningsLogged() > 0 ? 'warning' : 'success';
      const body = Buffer.byteLength(summary) > ANNOTATION_BYTES ? truncate(summary) : summary;
      await agent(['annotate', '--style', style, '--context', operation], body).catch((error) =>
        tell('The summary was not annotated', error),
      );
    },
  };
}

function truncate(markdown: string): string {
  const note = '\n\n_(cut to fit Buildkite’s annotation size)_\n';
  return (
    Buffer.from(markdown)
      .subarray(0, ANNOTATION_BYTES - 1024)
      .toString('utf8') + note
  );
}

export function buildkiteHost(options: HostOptions): PipelineHost {
  return pipelineHost(
    { name: 'buildkite', dialect: BUILDKITE_DIALECT, facts: buildkiteFacts, publish: buildkitePublisher },
    options,
  );
}

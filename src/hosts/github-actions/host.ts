// The GitHub Actions host: inputs from INPUT_* variables, outputs and the job summary in the files the
// runner names, log lines as workflow commands. Its environment is given, never read from process.env.
import { appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { ProxySettings } from '../../core/api/client.js';
import type { Annotation, Host } from '../../core/host.js';
import { neutraliseGitHubCommands } from '../../core/report/control-syntax.js';
import { apiUrl, resolveContext, type Environment } from './context.js';
import { gitHubPullRequestComments } from './pr-comments.js';
import { group, info, issueCommand, type CommandProperties } from './workflow-commands.js';

/** `workingDirectory`: where the step runs (the action's: the workspace), relative paths taken from it. */
export function githubActionsHost(env: Environment, workingDirectory: string): Host {
  const log = {
    info: (message: string) => info(neutraliseGitHubCommands(message)),
    warning: (message: string, annotation?: Annotation) =>
      issueCommand('warning', annotationProperties(annotation), neutraliseGitHubCommands(message)),
    error: (message: string, annotation?: Annotation) =>
      issueCommand('error', annotationProperties(annotation), neutraliseGitHubCommands(message)),
    notice: (message: string, annotation?: Annotation) =>
      issueCommand('notice', annotationProperties(annotation), neutraliseGitHubCommands(message)),
    async group<T>(title: string, work: () => Promise<T>): Promise<T> {
      return group(neutraliseGitHubCommands(title).replace(/[\r\n]+/g, ' '), work);
    },
  };
  return {
    name: 'github-actions',
    input: (name) => env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '',
    mask: (secret) => issueCommand('add-mask', {}, secret),
    resolveContext: (request) => resolveContext(request, env),
    async setOutputs(outputs) {
      if (!env.GITHUB_OUTPUT) {
        log.warning('Outputs were not set: GITHUB_OUTPUT is not set, so this is not a runner step.');
        return;
      }
      const text = Object.entries(outputs).map(([name, value]) => outputCommand(name, value));
      await appendFile(env.GITHUB_OUTPUT, text.join(''), 'utf8');
    },
    async writeSummary(markdown) {
      if (!env.GITHUB_STEP_SUMMARY) {
        log.warning('The job summary was not written: GITHUB_STEP_SUMMARY is not set');
        return;
      }
      try {
        await appendFile(env.GITHUB_STEP_SUMMARY, `${markdown}\n`, 'utf8');
      } catch (error) {
        log.warning(`The job summary was not written: ${(error as Error).message}`);
      }
    },
    log,
    tempDir: env.RUNNER_TEMP || tmpdir(),
    workingDirectory,
    proxy: proxyOf(env),
    comments: gitHubPullRequestComments(apiUrl(env, env.GITHUB_SERVER_URL || 'https://github.com')),
  };
}

/** The runner places an annotation on a file and line when given them (`file` relative to the checkout). */
function annotationProperties(annotation: Annotation = {}): CommandProperties {
  const { title, file, line } = annotation;
  return {
    ...(title !== undefined && { title }),
    ...(file && { file }),
    ...(file && line !== undefined && line >= 1 && { line }),
  };
}

/**
 * One output in the runner's file format, with a delimiter that does not occur in the value, so that no
 * line of the value can end it. Checked, it needs no secrecy: Math.random spares every run loading
 * node:crypto for it.
 */
function outputCommand(name: string, value: string): string {
  let delimiter = newDelimiter();
  while (value.includes(delimiter)) delimiter = newDelimiter();
  return `${name}<<${delimiter}\n${value}\n${delimiter}\n`;
}

function newDelimiter(): string {
  const random = () => Math.random().toString(36).slice(2);
  return `ghadelimiter_${random()}${random()}`;
}

/** The runner's proxy variables (either case, as curl and Node read them). */
export function proxyOf(env: Environment): ProxySettings {
  const pick = (name: string) => env[name] || env[name.toLowerCase()] || undefined;
  return { HTTPS_PROXY: pick('HTTPS_PROXY'), HTTP_PROXY: pick('HTTP_PROXY'), NO_PROXY: pick('NO_PROXY') };
}

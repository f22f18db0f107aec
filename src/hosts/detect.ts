// Which CI this is: each host is recognised by a variable only its own runner sets, the first that
// matches wins, and generic (any other CI, a laptop) is what remains. --host or MERGE_QUEUE_HOST forces one.
import { InputError } from '../core/errors.js';
import type { HostName } from '../core/host.js';
import { quoted } from '../core/inputs.js';
import { closestMatches } from '../core/suggest.js';
import type { Environment } from './common/pipeline-context.js';

const DETECTED_BY: readonly [Exclude<HostName, 'generic'>, string, (env: Environment) => boolean][] = [
  ['github-actions', 'GITHUB_ACTIONS=true', (env) => env.GITHUB_ACTIONS === 'true'],
  ['gitlab-ci', 'GITLAB_CI=true', (env) => env.GITLAB_CI === 'true'],
  ['buildkite', 'BUILDKITE=true', (env) => env.BUILDKITE === 'true'],
  ['circleci', 'CIRCLECI=true', (env) => env.CIRCLECI === 'true'],
  ['jenkins', 'JENKINS_URL', (env) => !!env.JENKINS_URL?.trim()],
];

export const HOST_NAMES: readonly HostName[] = [...DETECTED_BY.map(([name]) => name), 'generic'];

/**
 * Whether the CI's job log shows ANSI colours although a job's output is not a terminal: GitLab's,
 * Buildkite's, CircleCI's and GitHub's job logs render them; Jenkins' shows them only with a plugin.
 */
const LOG_SHOWS_COLOUR: Readonly<Record<HostName, boolean>> = {
  'github-actions': true,
  'gitlab-ci': true,
  buildkite: true,
  circleci: true,
  jenkins: false,
  generic: false,
};

export function logShowsColour(name: HostName): boolean {
  return LOG_SHOWS_COLOUR[name];
}

export interface DetectedHost {
  name: HostName;
  /** Why this host: the flag, the variable, or the CI variable that gave it away. */
  reason: string;
}

/** The host named by `forced` (the --host flag or MERGE_QUEUE_HOST), else the first detected. */
export function detectHost(env: Environment, forced?: { value: string; source: string }): DetectedHost {
  const wanted = forced?.value.trim();
  if (forced && wanted) {
    const name = HOST_NAMES.find((host) => host === wanted.toLowerCase());
    if (name) return { name, reason: `from ${forced.source}` };
    const hint = closestMatches(wanted.toLowerCase(), HOST_NAMES, 1);
    throw new InputError(
      'host',
      `${quoted(wanted)} (from ${forced.source}) is not a host`,
      `${hint.length ? `Did you mean ${hint[0]}? ` : ''}Use one of: ${HOST_NAMES.join(', ')}.`,
    );
  }
  for (const [name, variable, matches] of DETECTED_BY) {
    if (matches(env)) return { name, reason: `detected by ${variable}` };
  }
  return { name: 'generic', reason: 'no CI recognised by its variables' };
}

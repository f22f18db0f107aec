// The environment a program we start is given (git, the dependents command, buildkite-agent): the
// pipeline's own, without our inputs and the secrets a runner or an agent keeps there. Such a program
// runs code the pull request controls (a git hook or filter, the repository's build tool), so nothing it
// is given may carry a token.

/** Our inputs (every input, the tokens among them) and the runner's OIDC request variables. */
const DROPPED_PREFIXES = /^(INPUT_|MERGE_QUEUE_|ACTIONS_ID_TOKEN_REQUEST_)/i;

/** Tokens and secret URLs that runners and agents keep in the environment, or that users put there for us. */
const DROPPED_NAMES = new Set([
  'TRUNK_API_TOKEN',
  'TRUNK_TOKEN',
  'GITHUB_TOKEN',
  'GH_TOKEN',
  'ACTIONS_RUNTIME_TOKEN',
  'BUILDKITE_AGENT_ACCESS_TOKEN',
  'CI_JOB_TOKEN',
  'SLACK_WEBHOOK_URL',
]);

/**
 * `env` without our inputs and secrets; `keep` names variables the program itself needs (buildkite-agent
 * authenticates with BUILDKITE_AGENT_ACCESS_TOKEN, and is given nothing else of ours).
 */
export function childEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  keep: readonly string[] = [],
): Record<string, string> {
  const child: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    const secret = DROPPED_PREFIXES.test(name) || DROPPED_NAMES.has(name.toUpperCase());
    if (!secret || keep.includes(name)) child[name] = value;
  }
  return child;
}

// Who runs this step, as the CI names the person who started the run (or, on a laptop, the login): shown
// beside what a queue write did, since the service records no actor for an API write. Only a name that
// looks like one is shown: a CI variable may hold anything.
// Beside the hosts' folders: the pipeline hosts (common/) and GitHub's both ask it.

type Environment = Readonly<Record<string, string | undefined>>;

/** Each CI's variable for the person who started the run, in the order they are looked at. */
const CI_ACTOR_VARIABLES = [
  'GITHUB_TRIGGERING_ACTOR',
  'GITHUB_ACTOR',
  'GITLAB_USER_LOGIN',
  'BUILDKITE_BUILD_CREATOR',
  'CIRCLE_USERNAME',
  // Jenkins sets it only with the build-user-vars plugin.
  'BUILD_USER_ID',
] as const;

const NAME_SHAPE = /^[\p{L}\p{N}][\p{L}\p{N} ._@'+-]{0,63}$/u;

export function actorOf(env: Environment): string | undefined {
  const inCi = Boolean(env.CI && env.CI !== 'false');
  const variables = inCi ? CI_ACTOR_VARIABLES : [...CI_ACTOR_VARIABLES, 'USER', 'LOGNAME'];
  for (const variable of variables) {
    const value = env[variable]?.trim();
    if (value) return NAME_SHAPE.test(value) ? value : undefined;
  }
  return undefined;
}

// Any other CI, or a laptop: the context comes from inputs and the override variables the service's own
// tools read (TRUNK_PR_NUMBER, TRUNK_REPO_HEAD_SHA, TRUNK_REPO_HEAD_BRANCH, TRUNK_REPO_URL,
// TRUNK_TARGET_BRANCH; applied on every host), else from the checkout's git remote; outputs and the
// summary go to the files the flags name.
import { readCheckout } from './common/git-checkout.js';
import { PLAIN_DIALECT } from './common/log.js';
import type { Environment, PipelineFacts } from './common/pipeline-context.js';
import { filePublisher, pipelineHost, type HostOptions, type PipelineHost } from './common/pipeline-host.js';

export const GENERIC_FACTS: PipelineFacts = {
  ci: 'this pipeline',
  trigger: 'generic',
  variables: {
    repo: 'TRUNK_REPO_URL',
    prNumber: 'TRUNK_PR_NUMBER',
    headSha: 'TRUNK_REPO_HEAD_SHA',
    targetBranch: 'TRUNK_TARGET_BRANCH',
  },
};

/** A branch to assume when git recorded none for the remote: the default of new repositories. */
const ASSUMED_DEFAULT_BRANCH = 'main';

/** The generic facts, with the repository and its default branch from the checkout's remote when it has one. */
export async function genericFacts(env: Environment, cwd: string): Promise<PipelineFacts> {
  const checkout = await readCheckout(cwd, env);
  if (!checkout) return GENERIC_FACTS;
  const { remote, repo, defaultBranch } = checkout;
  return {
    ...GENERIC_FACTS,
    repo: { value: repo, source: `the git remote ${remote}` },
    defaultBranch: defaultBranch
      ? { value: defaultBranch, source: `refs/remotes/${remote}/HEAD` }
      : {
          value: ASSUMED_DEFAULT_BRANCH,
          source: `no default branch recorded for ${remote}, so ${ASSUMED_DEFAULT_BRANCH} is assumed; \`git remote set-head ${remote} --auto\` records it`,
        },
  };
}

export function genericHost(options: HostOptions): PipelineHost {
  return pipelineHost(
    { name: 'generic', dialect: PLAIN_DIALECT, facts: genericFacts, publish: filePublisher },
    options,
  );
}

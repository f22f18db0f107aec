// Any other CI, or a laptop: the context comes from inputs and the override variables the service's own
// tools read (TRUNK_PR_NUMBER, TRUNK_REPO_HEAD_SHA, TRUNK_REPO_HEAD_BRANCH, TRUNK_REPO_URL,
// TRUNK_TARGET_BRANCH; applied on every host), outputs and the summary go to the files the flags name.
import { PLAIN_DIALECT } from './common/log.js';
import { filePublisher, pipelineHost, type HostOptions, type PipelineHost } from './common/pipeline-host.js';
import type { PipelineFacts } from './common/pipeline-context.js';

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

export function genericHost(options: HostOptions): PipelineHost {
  return pipelineHost(
    { name: 'generic', dialect: PLAIN_DIALECT, facts: () => GENERIC_FACTS, publish: filePublisher },
    options,
  );
}

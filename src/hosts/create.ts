// Builds the host the CLI runs on. Each host is loaded only when chosen: a run loads one.
import type { HostName } from '../core/host.js';
import type { HostOptions, PipelineHost } from './common/pipeline-host.js';

export async function createHost(name: HostName, options: HostOptions): Promise<PipelineHost> {
  switch (name) {
    case 'github-actions': {
      const { githubActionsHost } = await import('./github-actions/host.js');
      // Outside the action, inputs are the CLI's flags and variables, not INPUT_*.
      return {
        ...githubActionsHost(options.env, options.cwd),
        input: options.input,
        stdin: options.stdin,
        wording: options.wording,
        finish: async () => undefined,
      };
    }
    case 'gitlab-ci':
      return (await import('./gitlab-ci.js')).gitlabCiHost(options);
    case 'buildkite':
      return (await import('./buildkite.js')).buildkiteHost(options);
    case 'circleci':
      return (await import('./circleci.js')).circleciHost(options);
    case 'jenkins':
      return (await import('./jenkins.js')).jenkinsHost(options);
    case 'generic':
      return (await import('./generic.js')).genericHost(options);
  }
}

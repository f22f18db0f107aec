// Builds the host the CLI runs on. Each host is loaded only when chosen: a run loads one.
import type { HostName } from '../core/host.js';
import type { HostOptions, PipelineHost } from './common/pipeline-host.js';

export async function createHost(name: HostName, options: HostOptions): Promise<PipelineHost> {
  switch (name) {
    case 'github-actions': {
      const { githubActionsHost } = await import('./github-actions/host.js');
      const { filePublisher } = await import('./common/pipeline-host.js');
      const host = githubActionsHost(options.env, options.cwd);
      // The files a user names (--outputs-file, --summary-file) get them too, beside the runner's own.
      const files = filePublisher({ options, log: host.log });
      // Outside the action, inputs are the CLI's flags and variables, not INPUT_*.
      return {
        ...host,
        input: options.input,
        stdin: options.stdin,
        wording: options.wording,
        async setOutputs(values) {
          await host.setOutputs(values);
          await files.setOutputs(values);
        },
        async writeSummary(markdown) {
          await host.writeSummary(markdown);
          await files.writeSummary(markdown);
        },
        finish: (exitCode) => files.finish(exitCode),
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

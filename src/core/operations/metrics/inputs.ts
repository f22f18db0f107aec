// Inputs of get-merge-queue-metrics.
import { InputError } from '../../errors.js';
import type { Inputs, InputSpec } from '../../inputs.js';

export interface MetricsSettings {
  allRepositories: boolean;
}

export const METRICS_INPUTS: readonly InputSpec[] = [
  {
    name: 'all-repositories',
    boolean: true,
    description: 'True for every repository of the organization (repo and repo-host are then not sent).',
  },
];

export function readMetricsSettings(input: Inputs): MetricsSettings {
  const allRepositories = input.boolean('all-repositories') ?? false;
  const scoped = ['repo', 'repo-host'].filter((name) => input.text(name));
  if (allRepositories && scoped.length) {
    throw new InputError(
      'all-repositories',
      `is true, which asks for every repository of the organization, but ${scoped.join(' and ')} is set too`,
      `Remove ${scoped.join(' and ')} to get every repository, or all-repositories to get one.`,
    );
  }
  return { allRepositories };
}

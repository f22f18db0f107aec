// Inputs of the operations only v2 serves: verification runs (whose, which status) and testing results
// (a window of at most 45 days).
import { type Inputs, type InputSpec } from '../../../inputs.js';

export const RUNS_OF_VALUES = ['pull-request', 'queue'] as const;
export const RUN_STATUS_VALUES = ['in-progress', 'failed', 'cancelled', 'succeeded'] as const;
export type RunStatus = (typeof RUN_STATUS_VALUES)[number];

export interface VerificationRunSettings {
  runsOf?: (typeof RUNS_OF_VALUES)[number];
  runStatus?: RunStatus;
  runId?: string;
}

export interface TestingResultsSettings {
  since?: string;
  until?: string;
}

export const LIST_RUNS_INPUTS: readonly InputSpec[] = [
  {
    name: 'runs-of',
    values: RUNS_OF_VALUES,
    description:
      "Whose verification runs: the PR's, or the whole queue's. Default - the PR's when there is one.",
  },
  {
    name: 'run-status',
    values: RUN_STATUS_VALUES,
    description: 'Only runs with this status (in-progress, failed, cancelled or succeeded).',
  },
];

export const TESTING_RESULTS_INPUTS: readonly InputSpec[] = [
  {
    name: 'since',
    description:
      'Testing results that ended at or after this date-time (ISO 8601), at most 45 days before until. Default - 7 days before until.',
  },
  {
    name: 'until',
    description: 'Testing results that ended before this date-time (ISO 8601). Default - now.',
  },
];

export function readVerificationRunSettings(input: Inputs): VerificationRunSettings {
  return {
    runsOf: input.choice('runs-of', RUNS_OF_VALUES),
    runStatus: input.choice('run-status', RUN_STATUS_VALUES),
    runId: input.id('test-run-id', 'verificationRun'),
  };
}

export function readTestingResultsSettings(input: Inputs): TestingResultsSettings {
  return { since: input.dateTime('since'), until: input.dateTime('until') };
}

// Inputs of describe-merge-queue-run.
import type { Inputs, InputSpec } from '../../inputs.js';

export interface MergeQueueRunSettings {
  testRunId?: string;
  exitIfDequeued: boolean;
}

export const EXIT_IF_DEQUEUED_INPUT: InputSpec = {
  name: 'exit-if-dequeued',
  boolean: true,
  default: 'false',
  description:
    "describe-merge-queue-run - true to end the job at this step (the step fails, output dequeued is true) when none of the run's PRs is still in the queue, so that an obsolete test run stops early. To end it green instead, leave this false and guard later steps with `if: steps.<id>.outputs.dequeued != 'true'`.",
};

export function readMergeQueueRunSettings(input: Inputs): MergeQueueRunSettings {
  return {
    testRunId: input.id('test-run-id', 'verificationRun'),
    exitIfDequeued: input.boolean('exit-if-dequeued') ?? false,
  };
}

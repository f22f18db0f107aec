// The CLI's output for a person: the run's result as a page (the outcome first, then the facts the
// summary shows), coloured by meaning when colour is allowed. --json does not come here.
import type { OperationDetails, RunResult } from '../../core/index.js';
import { presentTestList, presentTestResults } from './flaky-tests.js';
import { presentOutputs } from './generic.js';
import { presentComputedTargets, presentConfigLint, presentUploadedTargets } from './impacted-targets.js';
import { presentMetrics } from './metrics.js';
import { Page } from './page.js';
import { presentQueuePlan } from './plan.js';
import { presentPullRequest, presentPullRequestAction } from './pull-request.js';
import { presentPullRequestList, presentQueue } from './queue.js';
import { painter } from './style.js';
import { presentQueueEntryHistory, presentVerificationRuns } from './verification.js';

export interface PresentOptions {
  colour: boolean;
}

/** The page for a run; empty when there is nothing to add to the error line the log has shown. */
export function presentResult(result: RunResult, options: PresentOptions): string {
  const redact = result.redact ?? ((text: string) => text);
  const page = new Page(painter(options.colour), redact);
  if (result.details) presentDetails(page, result.details);
  else if (!result.failure && result.operation === 'get-merge-queue-metrics')
    presentMetrics(page, result.outputs);
  else if (!result.failure && result.operation) presentOutputs(page, result.operation, result.outputs);
  return page.toString();
}

function presentDetails(page: Page, details: OperationDetails): void {
  switch (details.kind) {
    case 'queue':
      return presentQueue(page, details);
    case 'pull-request':
      return presentPullRequest(page, details);
    case 'pull-request-action':
      return presentPullRequestAction(page, details);
    case 'pull-request-list':
      return presentPullRequestList(page, details);
    case 'computed-targets':
      return presentComputedTargets(page, details);
    case 'uploaded-targets':
      return presentUploadedTargets(page, details);
    case 'targets-config-lint':
      return presentConfigLint(page, details);
    case 'test-results':
      return presentTestResults(page, details);
    case 'test-list':
      return presentTestList(page, details);
    case 'queue-entry-history':
      return presentQueueEntryHistory(page, details);
    case 'verification-runs':
      return presentVerificationRuns(page, details);
    case 'queue-plan':
      return presentQueuePlan(page, details);
  }
}

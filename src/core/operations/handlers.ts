// Which code runs each operation. Adding an operation: a name in catalog.ts and a line here.
import type { OperationName } from './catalog.js';
import * as flakyTests from './flaky-tests/index.js';
import { setImpactedTargets } from './impacted-targets/upload.js';
import { listPullRequests } from './queue/list-pull-requests.js';
import { getMergeQueueMetrics } from './metrics/metrics.js';
import * as pullRequests from './pull-request/pull-requests.js';
import * as queues from './queue/admin.js';
import type { Operation } from './types.js';

export const OPERATION_HANDLERS: Record<OperationName, Operation> = {
  'submit-pull-request': pullRequests.submitPullRequest,
  'cancel-pull-request': pullRequests.cancelPullRequest,
  'restart-tests-on-pull-request': pullRequests.restartTestsOnPullRequest,
  'get-submitted-pull-request': pullRequests.getSubmittedPullRequest,
  'get-merge-queue-testing-details': pullRequests.getMergeQueueTestingDetails,
  'set-impacted-targets': setImpactedTargets,
  'create-queue': queues.createQueue,
  'get-queue': queues.getQueue,
  'update-queue': queues.updateQueue,
  'delete-queue': queues.deleteQueue,
  'pause-queue': queues.pauseQueue,
  'resume-queue': queues.resumeQueue,
  'drain-queue': queues.drainQueue,
  'list-pull-requests': listPullRequests,
  'get-merge-queue-metrics': getMergeQueueMetrics,
  'list-unhealthy-tests': flakyTests.listUnhealthyTests,
  'list-quarantined-tests': flakyTests.listQuarantinedTests,
  'list-failing-tests': flakyTests.listFailingTests,
  'get-test-details': flakyTests.getTestDetails,
  'link-ticket-to-test-case': flakyTests.linkTicketToTestCase,
};

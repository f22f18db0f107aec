// Written by `npm run metadata` (scripts/routes.ts) from the endpoints' rows in merge-queue.ts,
// flaky-tests.ts and service.ts: do not edit. Every endpoint's route (method, path, answer cap kind, v2
// form, repeatable, authenticated) as plain data, so that a run never loads the schema builder; its types
// come from the rows (endpoints.ts), so that this file and the rows cannot disagree unnoticed.
import type { EndpointName, RouteOf } from './endpoints.js';

export const ROUTES: { readonly [E in EndpointName]: RouteOf<E> } = {
  submitPullRequest: { method: 'POST', path: '/submitPullRequest', answer: 'write', v2: 'translated' },
  cancelPullRequest: { method: 'POST', path: '/cancelPullRequest', answer: 'write', v2: 'translated' },
  restartTestsOnPullRequest: {
    method: 'POST',
    path: '/restartTestsOnPullRequest',
    answer: 'write',
    v2: 'translated',
    repeatable: false,
  },
  getSubmittedPullRequest: {
    method: 'POST',
    path: '/getSubmittedPullRequest',
    answer: 'record',
    v2: 'translated',
  },
  setImpactedTargets: { method: 'POST', path: '/setImpactedTargets', answer: 'write', v2: 'translated' },
  getMergeQueueTestingDetails: {
    method: 'POST',
    path: '/getMergeQueueTestingDetails',
    answer: 'testRun',
    v2: 'translated',
  },
  createQueue: { method: 'POST', path: '/createQueue', answer: 'write', v2: 'translated' },
  getQueue: { method: 'POST', path: '/getQueue', answer: 'queue', v2: 'translated' },
  updateQueue: { method: 'POST', path: '/updateQueue', answer: 'queue', v2: 'translated' },
  deleteQueue: { method: 'POST', path: '/deleteQueue', answer: 'write', v2: 'translated' },
  listPullRequests: { method: 'POST', path: '/listPullRequests', answer: 'prPage', v2: 'translated' },
  getMergeQueueMetrics: { method: 'GET', path: '/getMergeQueueMetrics', answer: 'metrics', v2: 'translated' },
  listUnhealthyTests: {
    method: 'POST',
    path: '/flaky-tests/list-unhealthy-tests',
    answer: 'testPage',
    v2: 'translated',
  },
  listQuarantinedTests: {
    method: 'POST',
    path: '/flaky-tests/list-quarantined-tests',
    answer: 'testPage',
    v2: 'translated',
  },
  listFailingTests: {
    method: 'POST',
    path: '/flaky-tests/list-failing-tests',
    answer: 'testPage',
    v2: 'translated',
  },
  getTestDetails: {
    method: 'POST',
    path: '/flaky-tests/get-test-details',
    answer: 'record',
    v2: 'translated',
  },
  linkTicketToTestCase: {
    method: 'POST',
    path: '/flaky-tests/link-ticket-to-test-case',
    answer: 'write',
    v2: 'translated',
  },
  createCiRun: {
    method: 'POST',
    path: '/flaky-ci/create-ci-run',
    answer: 'write',
    v2: 'v1-only',
    repeatable: false,
  },
  getStatus: { method: 'GET', path: '/status', answer: 'write', v2: 'v1-only', authenticated: false },
  deviceAuthInitiate: {
    method: 'POST',
    path: '/device-auth/initiate',
    answer: 'write',
    v2: 'v1-only',
    authenticated: false,
    repeatable: false,
  },
  deviceAuthTokens: {
    method: 'POST',
    path: '/device-auth/tokens',
    answer: 'write',
    v2: 'v1-only',
    authenticated: false,
  },
};

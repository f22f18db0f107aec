// Every endpoint of the v1 API, one row each, as plain data: where it lives, how it may be called, how big
// its answer may be and what answers it over api-version v2. The row's request and answer schemas are in
// endpoints.ts (which loads the schema builder, so the action's run reads this file instead).
import type { AnswerCap } from './limits.js';

export interface Route {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  /** The kind of its answer, hence its cap (ANSWER_CAPS in limits.ts). */
  readonly answer: AnswerCap;
  /**
   * Over api-version v2: `translated` (src/core/api/v2 answers it with v2's operations, and the compiler
   * asks for that translation) or `v1-only` (v2 has no equivalent: it goes to v1 with the same key).
   */
  readonly v2: 'translated' | 'v1-only';
  /** false for a write that would do its work again if repeated after its answer was lost. */
  readonly repeatable?: boolean;
  /** false for the endpoints anyone may call, without an organization token. */
  readonly authenticated?: boolean;
}

export const ROUTES = {
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
} as const satisfies Record<string, Route>;

export type EndpointName = keyof typeof ROUTES;

/** The endpoints src/core/api/v2 answers with v2's operations (the others go to v1 over v2 too). */
export type TranslatedEndpoint = {
  [E in EndpointName]: (typeof ROUTES)[E]['v2'] extends 'translated' ? E : never;
}[EndpointName];

// Where each endpoint of the v1 API lives and how it may be called, as plain data: what a client needs to
// send a request. The request and answer schemas of each are in endpoints.ts.

export interface Route {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  /** false for a write that would do its work again if repeated after its answer was lost. */
  readonly repeatable?: boolean;
  /** false for the endpoints anyone may call, without an organization token. */
  readonly authenticated?: boolean;
}

export const ROUTES = {
  submitPullRequest: { method: 'POST', path: '/submitPullRequest' },
  cancelPullRequest: { method: 'POST', path: '/cancelPullRequest' },
  restartTestsOnPullRequest: { method: 'POST', path: '/restartTestsOnPullRequest', repeatable: false },
  getSubmittedPullRequest: { method: 'POST', path: '/getSubmittedPullRequest' },
  setImpactedTargets: { method: 'POST', path: '/setImpactedTargets' },
  getMergeQueueTestingDetails: { method: 'POST', path: '/getMergeQueueTestingDetails' },
  createQueue: { method: 'POST', path: '/createQueue' },
  getQueue: { method: 'POST', path: '/getQueue' },
  updateQueue: { method: 'POST', path: '/updateQueue' },
  deleteQueue: { method: 'POST', path: '/deleteQueue' },
  listPullRequests: { method: 'POST', path: '/listPullRequests' },
  getMergeQueueMetrics: { method: 'GET', path: '/getMergeQueueMetrics' },
  listUnhealthyTests: { method: 'POST', path: '/flaky-tests/list-unhealthy-tests' },
  listQuarantinedTests: { method: 'POST', path: '/flaky-tests/list-quarantined-tests' },
  listFailingTests: { method: 'POST', path: '/flaky-tests/list-failing-tests' },
  getTestDetails: { method: 'POST', path: '/flaky-tests/get-test-details' },
  linkTicketToTestCase: { method: 'POST', path: '/flaky-tests/link-ticket-to-test-case' },
  createCiRun: { method: 'POST', path: '/flaky-ci/create-ci-run', repeatable: false },
  getStatus: { method: 'GET', path: '/status', authenticated: false },
  deviceAuthInitiate: {
    method: 'POST',
    path: '/device-auth/initiate',
    authenticated: false,
    repeatable: false,
  },
  deviceAuthTokens: { method: 'POST', path: '/device-auth/tokens', authenticated: false },
} as const satisfies Record<string, Route>;

export type EndpointName = keyof typeof ROUTES;

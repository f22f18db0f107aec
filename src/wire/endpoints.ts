// Every endpoint of the v1 API as plain data: method, path, request schema, 200 answer schema.
import type { Static, TSchema } from '@sinclair/typebox';
import {
  CreateQueueRequest,
  ListPullRequestsRequest,
  ListPullRequestsResponse,
  MetricsQuery,
  PullRequestRequest,
  Queue,
  QueueConfiguration,
  QueueRequest,
  SetImpactedTargetsRequest,
  SubmitPullRequestRequest,
  SubmittedPullRequest,
  TestingDetails,
  TestingDetailsRequest,
  UpdateQueueRequest,
} from './merge-queue.js';
import {
  CreateCiRunRequest,
  CreateCiRunResponse,
  GetTestDetailsRequest,
  LinkTicketRequest,
  ListFailingTestsRequest,
  ListFailingTestsResponse,
  ListQuarantinedTestsRequest,
  ListQuarantinedTestsResponse,
  ListUnhealthyTestsRequest,
  ListUnhealthyTestsResponse,
  TestDetailsResponse,
} from './flaky-tests.js';
import {
  DeviceAuthInitiateRequest,
  DeviceAuthInitiateResponse,
  DeviceAuthTokensRequest,
  DeviceAuthTokensResponse,
  ServiceStatus,
  StatusQuery,
} from './service.js';

interface EndpointShape {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  /** JSON body (POST) or query string (GET) schema. */
  readonly request: TSchema;
  /** The 200 body; absent for writes that answer `{}`, empty or `OK`, and for plain-text answers. */
  readonly response?: TSchema;
  /** false for a write that would do its work again if repeated after its answer was lost. */
  readonly repeatable?: boolean;
  /** false for the endpoints anyone may call, without an organization token. */
  readonly authenticated?: boolean;
}

export const ENDPOINTS = {
  submitPullRequest: { method: 'POST', path: '/submitPullRequest', request: SubmitPullRequestRequest },
  cancelPullRequest: { method: 'POST', path: '/cancelPullRequest', request: PullRequestRequest },
  restartTestsOnPullRequest: {
    method: 'POST',
    path: '/restartTestsOnPullRequest',
    request: PullRequestRequest,
    repeatable: false,
  },
  getSubmittedPullRequest: {
    method: 'POST',
    path: '/getSubmittedPullRequest',
    request: PullRequestRequest,
    response: SubmittedPullRequest,
  },
  setImpactedTargets: { method: 'POST', path: '/setImpactedTargets', request: SetImpactedTargetsRequest },
  getMergeQueueTestingDetails: {
    method: 'POST',
    path: '/getMergeQueueTestingDetails',
    request: TestingDetailsRequest,
    response: TestingDetails,
  },
  createQueue: { method: 'POST', path: '/createQueue', request: CreateQueueRequest },
  getQueue: { method: 'POST', path: '/getQueue', request: QueueRequest, response: Queue },
  updateQueue: {
    method: 'POST',
    path: '/updateQueue',
    request: UpdateQueueRequest,
    response: QueueConfiguration,
  },
  deleteQueue: { method: 'POST', path: '/deleteQueue', request: QueueRequest },
  listPullRequests: {
    method: 'POST',
    path: '/listPullRequests',
    request: ListPullRequestsRequest,
    response: ListPullRequestsResponse,
  },
  getMergeQueueMetrics: { method: 'GET', path: '/getMergeQueueMetrics', request: MetricsQuery },
  listUnhealthyTests: {
    method: 'POST',
    path: '/flaky-tests/list-unhealthy-tests',
    request: ListUnhealthyTestsRequest,
    response: ListUnhealthyTestsResponse,
  },
  listQuarantinedTests: {
    method: 'POST',
    path: '/flaky-tests/list-quarantined-tests',
    request: ListQuarantinedTestsRequest,
    response: ListQuarantinedTestsResponse,
  },
  listFailingTests: {
    method: 'POST',
    path: '/flaky-tests/list-failing-tests',
    request: ListFailingTestsRequest,
    response: ListFailingTestsResponse,
  },
  getTestDetails: {
    method: 'POST',
    path: '/flaky-tests/get-test-details',
    request: GetTestDetailsRequest,
    response: TestDetailsResponse,
  },
  linkTicketToTestCase: {
    method: 'POST',
    path: '/flaky-tests/link-ticket-to-test-case',
    request: LinkTicketRequest,
  },
  createCiRun: {
    method: 'POST',
    path: '/flaky-ci/create-ci-run',
    request: CreateCiRunRequest,
    response: CreateCiRunResponse,
    repeatable: false,
  },
  getStatus: {
    method: 'GET',
    path: '/status',
    request: StatusQuery,
    response: ServiceStatus,
    authenticated: false,
  },
  deviceAuthInitiate: {
    method: 'POST',
    path: '/device-auth/initiate',
    request: DeviceAuthInitiateRequest,
    response: DeviceAuthInitiateResponse,
    authenticated: false,
    repeatable: false,
  },
  deviceAuthTokens: {
    method: 'POST',
    path: '/device-auth/tokens',
    request: DeviceAuthTokensRequest,
    response: DeviceAuthTokensResponse,
    authenticated: false,
  },
} as const satisfies Record<string, EndpointShape>;

export type EndpointName = keyof typeof ENDPOINTS;
export type RequestOf<E extends EndpointName> = Static<(typeof ENDPOINTS)[E]['request']>;
export type ResponseOf<E extends EndpointName> = (typeof ENDPOINTS)[E] extends {
  response: infer R extends TSchema;
}
  ? Static<R>
  : unknown;

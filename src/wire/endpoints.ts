// Every endpoint of the v1 API: its route (routes.ts), request schema and 200 answer schema.
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
import { ROUTES, type EndpointName, type Route } from './routes.js';

/** The schemas of an endpoint, beside its route. */
interface EndpointShape extends Route {
  /** JSON body (POST) or query string (GET) schema. */
  readonly request: TSchema;
  /** The 200 body; absent for writes that answer `{}`, empty or `OK`, and for plain-text answers. */
  readonly response?: TSchema;
}

export const ENDPOINTS = {
  submitPullRequest: { ...ROUTES.submitPullRequest, request: SubmitPullRequestRequest },
  cancelPullRequest: { ...ROUTES.cancelPullRequest, request: PullRequestRequest },
  restartTestsOnPullRequest: { ...ROUTES.restartTestsOnPullRequest, request: PullRequestRequest },
  getSubmittedPullRequest: {
    ...ROUTES.getSubmittedPullRequest,
    request: PullRequestRequest,
    response: SubmittedPullRequest,
  },
  setImpactedTargets: { ...ROUTES.setImpactedTargets, request: SetImpactedTargetsRequest },
  getMergeQueueTestingDetails: {
    ...ROUTES.getMergeQueueTestingDetails,
    request: TestingDetailsRequest,
    response: TestingDetails,
  },
  createQueue: { ...ROUTES.createQueue, request: CreateQueueRequest },
  getQueue: { ...ROUTES.getQueue, request: QueueRequest, response: Queue },
  updateQueue: { ...ROUTES.updateQueue, request: UpdateQueueRequest, response: QueueConfiguration },
  deleteQueue: { ...ROUTES.deleteQueue, request: QueueRequest },
  listPullRequests: {
    ...ROUTES.listPullRequests,
    request: ListPullRequestsRequest,
    response: ListPullRequestsResponse,
  },
  getMergeQueueMetrics: { ...ROUTES.getMergeQueueMetrics, request: MetricsQuery },
  listUnhealthyTests: {
    ...ROUTES.listUnhealthyTests,
    request: ListUnhealthyTestsRequest,
    response: ListUnhealthyTestsResponse,
  },
  listQuarantinedTests: {
    ...ROUTES.listQuarantinedTests,
    request: ListQuarantinedTestsRequest,
    response: ListQuarantinedTestsResponse,
  },
  listFailingTests: {
    ...ROUTES.listFailingTests,
    request: ListFailingTestsRequest,
    response: ListFailingTestsResponse,
  },
  getTestDetails: { ...ROUTES.getTestDetails, request: GetTestDetailsRequest, response: TestDetailsResponse },
  linkTicketToTestCase: { ...ROUTES.linkTicketToTestCase, request: LinkTicketRequest },
  createCiRun: { ...ROUTES.createCiRun, request: CreateCiRunRequest, response: CreateCiRunResponse },
  getStatus: { ...ROUTES.getStatus, request: StatusQuery, response: ServiceStatus },
  deviceAuthInitiate: {
    ...ROUTES.deviceAuthInitiate,
    request: DeviceAuthInitiateRequest,
    response: DeviceAuthInitiateResponse,
  },
  deviceAuthTokens: {
    ...ROUTES.deviceAuthTokens,
    request: DeviceAuthTokensRequest,
    response: DeviceAuthTokensResponse,
  },
} as const satisfies Record<EndpointName, EndpointShape>;

export type RequestOf<E extends EndpointName> = Static<(typeof ENDPOINTS)[E]['request']>;
export type ResponseOf<E extends EndpointName> = (typeof ENDPOINTS)[E] extends {
  response: infer R extends TSchema;
}
  ? Static<R>
  : unknown;

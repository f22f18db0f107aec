// Where each operation of the v2 API lives, what a key needs to call it and whether it may be repeated,
// as plain data: what both the client and the emulator route by. Request and answer types are in
// openapi-types.ts (generated from the service's document); the permissions a request's body adds are in
// permissions.ts.

export type V2Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface V2Route {
  readonly method: V2Method;
  /** The path with `{name}` placeholders, `/v2` included (the base URL is the host alone). */
  readonly path: string;
  /** The status of a success: 200 unless the document says otherwise. */
  readonly success: 200 | 201 | 202 | 204;
  /** A write: its outcome must be read back, never assumed, when its answer is lost (no v2 write is idempotent). */
  readonly write?: true;
}

const read = (path: string): V2Route => ({ method: 'GET', path, success: 200 });
const write = (method: V2Method, path: string, success: V2Route['success'] = 200): V2Route => ({
  method,
  path,
  success,
  write: true,
});

export const V2_ROUTES = {
  'mergeQueues.list': read('/v2/merge-queues'),
  'mergeQueues.create': write('POST', '/v2/merge-queues', 201),
  'mergeQueues.organizationMetrics': read('/v2/merge-queues/metrics'),
  'mergeQueues.metrics': read('/v2/merge-queues/{id}/metrics'),
  'mergeQueues.get': read('/v2/merge-queues/{id}'),
  'mergeQueues.delete': write('DELETE', '/v2/merge-queues/{id}', 204),
  'mergeQueues.order': read('/v2/merge-queues/{id}/order'),
  'mergeQueues.graph': read('/v2/merge-queues/{id}/graph'),
  'mergeQueues.listTestingResults': read('/v2/merge-queues/{id}/testing-results'),
  'mergeQueues.submitPullRequest': write('POST', '/v2/merge-queues/{id}/pull-requests', 201),
  'mergeQueues.listPullRequests': read('/v2/merge-queues/{id}/pull-requests'),
  'mergeQueues.switchModes': write('POST', '/v2/merge-queues/{id}/switch-modes'),
  'mergeQueues.pause': write('POST', '/v2/merge-queues/{id}/pause'),
  'mergeQueues.resume': write('POST', '/v2/merge-queues/{id}/resume'),
  'mergeQueues.drain': write('POST', '/v2/merge-queues/{id}/drain'),
  'mergeQueues.updateConfig': write('PATCH', '/v2/merge-queues/{id}/config'),
  'impactedTargets.upload': write('PUT', '/v2/impacted-targets', 202),
  'mergeQueueVerificationRuns.get': read('/v2/merge-queue-verification-runs/{id}'),
  'mergeQueues.listVerificationRuns': read('/v2/merge-queues/{id}/verification-runs'),
  'pullRequests.listVerificationRuns': read('/v2/pull-requests/{id}/verification-runs'),
  'pullRequests.queueEntryHistory': read('/v2/pull-requests/{id}/queue-entry-history'),
  'pullRequests.queueEntryHistoryBatch': read('/v2/queue-entry-history'),
  'pullRequests.resolveByCoordinates': read('/v2/pull-requests'),
  'pullRequests.get': read('/v2/pull-requests/{id}'),
  'pullRequests.reprioritize': write('POST', '/v2/pull-requests/{id}/reprioritize'),
  'pullRequests.updateQueueEntry': write('PATCH', '/v2/pull-requests/{id}/queue-entry'),
  'pullRequests.dequeue': write('POST', '/v2/pull-requests/{id}/dequeue'),
  'pullRequests.restartTests': write('POST', '/v2/pull-requests/{id}/restart-tests'),
  'dynamicCi.generatePlan': write('POST', '/v2/dynamic-ci/generate-plan'),
  'dynamicCi.generateBuildkitePlan': write('POST', '/v2/dynamic-ci/generate-buildkite-plan'),
  'dynamicCi.listPrJobs': read('/v2/dynamic-ci/pr-jobs'),
  'dynamicCi.listForceOverrides': read('/v2/dynamic-ci/force-overrides'),
  'dynamicCi.setForceOverrides': write('PUT', '/v2/dynamic-ci/force-overrides', 204),
  'testCollections.list': read('/v2/test-collections'),
  'testCollections.create': write('POST', '/v2/test-collections', 201),
  'testCollections.get': read('/v2/test-collections/{id}'),
  'testCases.get': read('/v2/test-cases/{testCaseId}'),
  'testCases.list': read('/v2/test-cases'),
  'testCases.listStatusHistory': read('/v2/test-cases/{testCaseId}/status-history'),
  'testCases.listTestRuns': read('/v2/test-cases/{testCaseId}/test-runs'),
  'testCases.linkTicket': write('POST', '/v2/test-cases/{testCaseId}/ticket', 201),
  'repositories.resolveByProviderUrl': read('/v2/repositories'),
  'repositories.get': read('/v2/repositories/{id}'),
} as const satisfies Record<string, V2Route>;

export type V2OperationId = keyof typeof V2_ROUTES;

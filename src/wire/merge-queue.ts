// The merge-queue endpoints' requests and 200 answers. Requests are what we send and what the emulator
// accepts (enums in any case); answers are exactly what the service writes (see tolerant.ts for reading).
import { Type, type Static } from '@sinclair/typebox';
import { anyCaseEnum, DateTime, exactEnum, PositiveInt, Repo, UINT32_MAX, Uuid } from './common.js';
import {
  CHECK_RUN_CONCLUSIONS,
  CHECK_RUN_STATUSES,
  DIRECT_MERGE_MODES,
  GITHUB_MERGEABILITY,
  LOWEST_PRIORITY,
  MERGE_METHODS,
  OPTIMIZATION_MODES,
  PR_STATES,
  QUEUE_MODES,
  QUEUE_STATES,
  REQUIRED_STATUSES_SOURCES,
  SETTABLE_QUEUE_STATES,
  STATUS_CHECK_STATES,
  TEST_RUN_STATUSES,
} from './enums.js';
import type { EndpointRows } from './endpoint-row.js';

const PrRef = Type.Object({ number: Type.Integer({ minimum: 0, maximum: UINT32_MAX }) });
const QueueRef = { repo: Repo, targetBranch: Type.String({ minLength: 1 }) };
const PrInQueue = { ...QueueRef, pr: PrRef };

// ---------------------------------------------------------------------------------------------------
// Requests

export const SubmitPullRequestRequest = Type.Object({
  ...PrInQueue,
  /** A number 0..255 or a name; null (allowed by the spec) means the default, as absent does. */
  priority: Type.Optional(
    Type.Union([
      Type.Integer({ minimum: 0, maximum: LOWEST_PRIORITY }),
      anyCaseEnum(['urgent', 'high', 'medium', 'low']),
      Type.Null(),
    ]),
  ),
  noBatch: Type.Optional(Type.Boolean()),
});
export const PullRequestRequest = Type.Object(PrInQueue);
export const SetImpactedTargetsRequest = Type.Object({
  ...QueueRef,
  pr: Type.Object({
    // A public client sends the number as a string; the service accepts both.
    number: Type.Unsafe<number>({
      anyOf: [
        { type: 'integer', minimum: 1 },
        { type: 'string', pattern: '^[1-9][0-9]*$' },
      ],
    }),
    sha: Type.String({ minLength: 1 }),
  }),
  impactedTargets: Type.Union([Type.Array(Type.String()), Type.Literal('ALL')]),
});
export const TestingDetailsRequest = Type.Object({ ...QueueRef, testRunId: Type.String({ minLength: 1 }) });
export const QueueRequest = Type.Object(QueueRef);
export const CreateQueueRequest = Type.Object({
  ...QueueRef,
  mode: Type.Optional(anyCaseEnum(QUEUE_MODES)),
  concurrency: Type.Optional(PositiveInt),
});

/** Every setting updateQueue takes, besides the queue reference. */
export const QueueSettings = Type.Object({
  state: Type.Optional(anyCaseEnum(SETTABLE_QUEUE_STATES)),
  mode: Type.Optional(anyCaseEnum(QUEUE_MODES)),
  concurrency: Type.Optional(PositiveInt),
  testingTimeoutMinutes: Type.Optional(PositiveInt),
  pendingFailureDepth: Type.Optional(PositiveInt),
  canOptimisticallyMerge: Type.Optional(Type.Boolean()),
  batch: Type.Optional(Type.Boolean()),
  batchingMaxWaitTimeMinutes: Type.Optional(PositiveInt),
  batchingMinSize: Type.Optional(PositiveInt),
  bisectionConcurrency: Type.Optional(PositiveInt),
  mergeMethod: Type.Optional(anyCaseEnum(MERGE_METHODS)),
  directMergeMode: Type.Optional(anyCaseEnum(DIRECT_MERGE_MODES)),
  optimizationMode: Type.Optional(anyCaseEnum(OPTIMIZATION_MODES)),
  requiredStatuses: Type.Optional(Type.Array(Type.String())),
  deleteRequiredStatuses: Type.Optional(Type.Boolean()),
  commentsEnabled: Type.Optional(Type.Boolean()),
  commandsEnabled: Type.Optional(Type.Boolean()),
  statusCheckEnabled: Type.Optional(Type.Boolean()),
  createPrsForTestingBranches: Type.Optional(Type.Boolean()),
});
export type QueueSettings = Static<typeof QueueSettings>;
/** updateQueue takes the settings above and nothing else: a misspelt setting is refused, not ignored. */
export const UpdateQueueRequest = Type.Composite([Type.Object(QueueRef), QueueSettings], {
  additionalProperties: false,
});

export const ListPullRequestsRequest = Type.Object({
  ...QueueRef,
  state: Type.Optional(anyCaseEnum(PR_STATES)),
  since: Type.Optional(DateTime),
  until: Type.Optional(DateTime),
  /** The `nextCursor` of the previous page (a uuid). */
  cursor: Type.Optional(Uuid),
  take: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
});

export const MetricsQuery = Type.Object({
  repo: Type.Optional(Type.String({ pattern: '^.+/[^/]+$' })),
  repoHost: Type.Optional(Type.String({ minLength: 1 })),
});

// ---------------------------------------------------------------------------------------------------
// Answers

export const Readiness = Type.Object({
  hasImpactedTargets: Type.Optional(Type.Boolean()),
  requiresImpactedTargets: Type.Boolean(),
  doesBaseBranchMatch: Type.Boolean(),
  gitHubMergeability: exactEnum(GITHUB_MERGEABILITY),
});
export type Readiness = Static<typeof Readiness>;

export const EnqueuedPullRequest = Type.Object({
  id: Type.Optional(Type.String()),
  state: Type.Optional(exactEnum(PR_STATES)),
  stateChangedAt: Type.String(),
  priorityValue: Type.Number(),
  priorityName: Type.String(),
  usedDefaultPriorityName: Type.Optional(Type.String()),
  skipTheLine: Type.Boolean(),
  noBatch: Type.Boolean(),
  prNumber: Type.Number(),
  prTitle: Type.String(),
  prSha: Type.String(),
  prBaseBranch: Type.String(),
  prAuthor: Type.String(),
});
export type EnqueuedPullRequest = Static<typeof EnqueuedPullRequest>;

export const SubmittedPullRequest = Type.Object({
  id: Type.Optional(Type.String()),
  state: Type.Optional(exactEnum(PR_STATES)),
  readiness: Type.Optional(Readiness),
  stateChangedAt: Type.String(),
  priorityValue: Type.Number(),
  priorityName: Type.String(),
  usedDefaultPriorityName: Type.Optional(Type.String()),
  skipTheLine: Type.Boolean(),
  forceEnqueued: Type.Boolean(),
  isCurrentlySubmittedToQueue: Type.Boolean(),
  prNumber: Type.Number(),
  prTitle: Type.String(),
  prSha: Type.String(),
  prBaseBranch: Type.String(),
  prAuthor: Type.String(),
  /** Not in the spec; seen live. */
  noBatch: Type.Optional(Type.Boolean()),
  /** Not in the spec; seen live: the test run that verifies the PR, or null before its first run. */
  verifiedByTestRun: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type SubmittedPullRequest = Static<typeof SubmittedPullRequest>;

export const QueueConfiguration = Type.Object({
  state: exactEnum(QUEUE_STATES),
  branch: Type.String(),
  concurrency: Type.Number(),
  testingTimeoutMinutes: Type.Number(),
  mode: exactEnum(QUEUE_MODES),
  canOptimisticallyMerge: Type.Boolean(),
  pendingFailureDepth: Type.Number(),
  batch: Type.Boolean(),
  batchingMaxWaitTimeMinutes: Type.Number(),
  batchingMinSize: Type.Number(),
  createPrsForTestingBranches: Type.Boolean(),
  commentsEnabled: Type.Boolean(),
  commandsEnabled: Type.Boolean(),
  statusCheckEnabled: Type.Boolean(),
  bisectionConcurrency: Type.Number(),
  requiredStatuses: Type.Array(Type.String()),
  directMergeMode: exactEnum(DIRECT_MERGE_MODES),
  optimizationMode: exactEnum(OPTIMIZATION_MODES),
  mergeMethod: exactEnum(MERGE_METHODS),
});
export type QueueConfiguration = Static<typeof QueueConfiguration>;
export const Queue = Type.Composite([
  QueueConfiguration,
  Type.Object({ enqueuedPullRequests: Type.Array(EnqueuedPullRequest) }),
]);
export type Queue = Static<typeof Queue>;

export const ListPullRequestsResponse = Type.Object({
  pullRequests: Type.Array(EnqueuedPullRequest),
  /** Absent on the last page. */
  nextCursor: Type.Optional(Uuid),
});
export type ListPullRequestsResponse = Static<typeof ListPullRequestsResponse>;

export const TestingDetails = Type.Object({
  requiredStatuses: Type.Array(Type.String()),
  requiredStatusesSource: Type.Optional(exactEnum(REQUIRED_STATUSES_SOURCES)),
  testBranch: Type.String(),
  testBranchSha: Type.String(),
  createdAt: Type.Optional(Type.String()),
  status: Type.Optional(exactEnum(TEST_RUN_STATUSES)),
  checkSuites: Type.Array(
    Type.Object({
      checkRuns: Type.Array(
        Type.Object({
          name: Type.String(),
          url: Type.String(),
          status: Type.Optional(exactEnum(CHECK_RUN_STATUSES)),
          conclusion: Type.Optional(exactEnum(CHECK_RUN_CONCLUSIONS)),
        }),
      ),
    }),
  ),
  statusChecks: Type.Array(
    Type.Object({
      context: Type.String(),
      url: Type.Optional(Type.String()),
      state: Type.Optional(exactEnum(STATUS_CHECK_STATES)),
    }),
  ),
  testedPullRequests: Type.Array(
    Type.Object({ prNumber: Type.Number(), prUrl: Type.String(), title: Type.String() }),
  ),
  impactedTargets: Type.Optional(Type.Array(Type.String())),
  impactedTargetsForTestedPrs: Type.Optional(Type.Array(Type.String())),
  dependentPrs: Type.Optional(Type.Array(Type.Number())),
});
export type TestingDetails = Static<typeof TestingDetails>;

/** Each merge-queue endpoint's row: its route and its request and answer schemas (endpoint-row.ts). */
export const MERGE_QUEUE_ENDPOINTS = {
  submitPullRequest: {
    method: 'POST',
    path: '/submitPullRequest',
    answer: 'write',
    v2: 'translated',
    request: SubmitPullRequestRequest,
  },
  cancelPullRequest: {
    method: 'POST',
    path: '/cancelPullRequest',
    answer: 'write',
    v2: 'translated',
    request: PullRequestRequest,
  },
  restartTestsOnPullRequest: {
    method: 'POST',
    path: '/restartTestsOnPullRequest',
    answer: 'write',
    v2: 'translated',
    repeatable: false,
    request: PullRequestRequest,
  },
  getSubmittedPullRequest: {
    method: 'POST',
    path: '/getSubmittedPullRequest',
    answer: 'record',
    v2: 'translated',
    request: PullRequestRequest,
    response: SubmittedPullRequest,
  },
  setImpactedTargets: {
    method: 'POST',
    path: '/setImpactedTargets',
    answer: 'write',
    v2: 'translated',
    request: SetImpactedTargetsRequest,
  },
  getMergeQueueTestingDetails: {
    method: 'POST',
    path: '/getMergeQueueTestingDetails',
    answer: 'testRun',
    v2: 'translated',
    request: TestingDetailsRequest,
    response: TestingDetails,
  },
  createQueue: {
    method: 'POST',
    path: '/createQueue',
    answer: 'write',
    v2: 'translated',
    request: CreateQueueRequest,
  },
  getQueue: {
    method: 'POST',
    path: '/getQueue',
    answer: 'queue',
    v2: 'translated',
    request: QueueRequest,
    response: Queue,
  },
  updateQueue: {
    method: 'POST',
    path: '/updateQueue',
    answer: 'queue',
    v2: 'translated',
    request: UpdateQueueRequest,
    response: QueueConfiguration,
  },
  deleteQueue: {
    method: 'POST',
    path: '/deleteQueue',
    answer: 'write',
    v2: 'translated',
    request: QueueRequest,
  },
  listPullRequests: {
    method: 'POST',
    path: '/listPullRequests',
    answer: 'prPage',
    v2: 'translated',
    request: ListPullRequestsRequest,
    response: ListPullRequestsResponse,
  },
  getMergeQueueMetrics: {
    method: 'GET',
    path: '/getMergeQueueMetrics',
    answer: 'metrics',
    v2: 'translated',
    request: MetricsQuery,
  },
} as const satisfies EndpointRows;

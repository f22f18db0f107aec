// The v1 wire format: one definition of every request and response. The action builds requests from
// these types, and the emulator validates incoming bodies against the same schemas, so the two cannot
// drift apart. Schemas are strict about shape and lenient where the service is (enum case, numeric
// strings for `pr.number` on setImpactedTargets, unknown fields).
import { Type, type Static, type TSchema } from '@sinclair/typebox';

/** A string enum typed as the given values (what we send) that accepts any case on input. */
function anyCaseEnum<const T extends readonly string[]>(values: T) {
  const anyCase = (value: string) =>
    [...value]
      .map((c) =>
        c.toLowerCase() === c.toUpperCase() ? escapeRegex(c) : `[${c.toLowerCase()}${c.toUpperCase()}]`,
      )
      .join('');
  return Type.Unsafe<T[number]>({ type: 'string', pattern: `^(?:${values.map(anyCase).join('|')})$` });
}

function escapeRegex(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const UINT32_MAX = 4294967295;
const PositiveInt = Type.Integer({ minimum: 1, maximum: UINT32_MAX });

export const PR_STATES = [
  'not_ready',
  'pending',
  'testing',
  'tests_passed',
  'merged',
  'failed',
  'cancelled',
  'pending_failure',
] as const;
export type PrState = (typeof PR_STATES)[number];
export const TERMINAL_PR_STATES: readonly PrState[] = ['merged', 'failed', 'cancelled'];

export const QUEUE_STATES = ['running', 'paused', 'draining', 'switching_modes'] as const;
export type QueueState = (typeof QUEUE_STATES)[number];
export const SETTABLE_QUEUE_STATES = ['running', 'paused', 'draining'] as const;
export const QUEUE_MODES = ['single', 'parallel'] as const;
export type QueueMode = (typeof QUEUE_MODES)[number];
export const MERGE_METHODS = ['merge_commit', 'squash', 'rebase'] as const;
export const DIRECT_MERGE_MODES = ['off', 'always'] as const;
export const OPTIMIZATION_MODES = ['off', 'bisection_skip_redundant_tests'] as const;
export const UNHEALTHY_STATUSES = ['FLAKY', 'BROKEN'] as const;
export type UnhealthyStatus = (typeof UNHEALTHY_STATUSES)[number];

/** Named priorities of the service; a number 0..255 is accepted too (0 is the highest). */
export const PRIORITY_NAMES = { urgent: 0, high: 10, medium: 100, low: 200 } as const;
export type PriorityName = keyof typeof PRIORITY_NAMES;
export const LOWEST_PRIORITY = 255;

/** The service refuses request bodies over this many bytes with 413. */
export const MAX_BODY_BYTES = 20 * 1024 * 1024;

// ---------------------------------------------------------------------------------------------------
// Shared pieces

export const Repo = Type.Object({
  host: Type.String({ minLength: 1 }),
  owner: Type.String({ minLength: 1 }),
  name: Type.String({ minLength: 1 }),
});
export type Repo = Static<typeof Repo>;

const PrRef = Type.Object({ number: Type.Integer({ minimum: 0, maximum: UINT32_MAX }) });
const QueueRef = { repo: Repo, targetBranch: Type.String({ minLength: 1 }) };
const PrInQueue = { ...QueueRef, pr: PrRef };

const PageQuery = Type.Object({
  page_size: Type.Integer({ minimum: 1, maximum: 100 }),
  page_token: Type.Optional(Type.String()),
});
const Page = Type.Object({
  total_rows: Type.Number(),
  total_pages: Type.Number(),
  page_index: Type.Number(),
  next_page_token: Type.String(),
  prev_page_token: Type.String(),
  last_page_token: Type.String(),
});
export type Page = Static<typeof Page>;

// ---------------------------------------------------------------------------------------------------
// Merge queue: requests

export const SubmitPullRequestRequest = Type.Object({
  ...PrInQueue,
  priority: Type.Optional(
    Type.Union([
      Type.Integer({ minimum: 0, maximum: LOWEST_PRIORITY }),
      anyCaseEnum(['urgent', 'high', 'medium', 'low']),
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
export const UpdateQueueRequest = Type.Composite([Type.Object(QueueRef), QueueSettings]);

export const ListPullRequestsRequest = Type.Object({
  ...QueueRef,
  state: Type.Optional(anyCaseEnum(PR_STATES)),
  since: Type.Optional(Type.String({ format: 'date-time' })),
  until: Type.Optional(Type.String({ format: 'date-time' })),
  cursor: Type.Optional(Type.String()),
  take: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
});

export const MetricsQuery = Type.Object({
  repo: Type.Optional(Type.String({ pattern: '^.+/[^/]+$' })),
  repoHost: Type.Optional(Type.String({ minLength: 1 })),
});

// ---------------------------------------------------------------------------------------------------
// Merge queue: responses (what the emulator writes; the action reads them tolerantly, see read*)

const Readiness = Type.Object({
  hasImpactedTargets: Type.Boolean(),
  requiresImpactedTargets: Type.Boolean(),
  doesBaseBranchMatch: Type.Boolean(),
  gitHubMergeability: Type.Union([
    Type.Literal('unspecified'),
    Type.Literal('in_progress'),
    Type.Literal('mergeable'),
    Type.Literal('not_mergeable'),
  ]),
});

export const EnqueuedPullRequest = Type.Object({
  id: Type.String(),
  state: Type.String(),
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

export const SubmittedPullRequest = Type.Composite([
  EnqueuedPullRequest,
  Type.Object({
    readiness: Type.Optional(Readiness),
    forceEnqueued: Type.Boolean(),
    isCurrentlySubmittedToQueue: Type.Boolean(),
    verifiedByTestRun: Type.Union([Type.String(), Type.Null()]),
  }),
]);
export type SubmittedPullRequest = Static<typeof SubmittedPullRequest>;

export const QueueConfiguration = Type.Object({
  state: Type.String(),
  branch: Type.String(),
  mode: Type.String(),
  concurrency: Type.Number(),
  testingTimeoutMinutes: Type.Number(),
  pendingFailureDepth: Type.Number(),
  canOptimisticallyMerge: Type.Boolean(),
  batch: Type.Boolean(),
  batchingMaxWaitTimeMinutes: Type.Number(),
  batchingMinSize: Type.Number(),
  bisectionConcurrency: Type.Number(),
  createPrsForTestingBranches: Type.Boolean(),
  commentsEnabled: Type.Boolean(),
  commandsEnabled: Type.Boolean(),
  statusCheckEnabled: Type.Boolean(),
  requiredStatuses: Type.Union([Type.Array(Type.String()), Type.Null()]),
  directMergeMode: Type.String(),
  optimizationMode: Type.String(),
  mergeMethod: Type.String(),
});
export type QueueConfiguration = Static<typeof QueueConfiguration>;
export const Queue = Type.Composite([
  QueueConfiguration,
  Type.Object({ enqueuedPullRequests: Type.Array(EnqueuedPullRequest) }),
]);
export type Queue = Static<typeof Queue>;

export const ListPullRequestsResponse = Type.Object({
  pullRequests: Type.Array(EnqueuedPullRequest),
  nextCursor: Type.Optional(Type.String()),
});
export type ListPullRequestsResponse = Static<typeof ListPullRequestsResponse>;

export const TestingDetails = Type.Object({
  requiredStatuses: Type.Array(Type.String()),
  requiredStatusesSource: Type.Optional(Type.String()),
  testBranch: Type.String(),
  testBranchSha: Type.String(),
  createdAt: Type.Optional(Type.String()),
  status: Type.Optional(Type.String()),
  checkSuites: Type.Array(
    Type.Object({
      checkRuns: Type.Array(
        Type.Object({
          name: Type.String(),
          url: Type.String(),
          status: Type.Optional(Type.String()),
          conclusion: Type.Optional(Type.String()),
        }),
      ),
    }),
  ),
  statusChecks: Type.Array(
    Type.Object({
      context: Type.String(),
      url: Type.Optional(Type.String()),
      state: Type.Optional(Type.String()),
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

// ---------------------------------------------------------------------------------------------------
// Flaky tests

const FlakyRepoRequest = { repo: Repo, org_url_slug: Type.String({ minLength: 1 }) };

export const ListUnhealthyTestsRequest = Type.Object({
  ...FlakyRepoRequest,
  page_query: PageQuery,
  status: anyCaseEnum(UNHEALTHY_STATUSES),
});
export const ListQuarantinedTestsRequest = Type.Object({ ...FlakyRepoRequest, page_query: PageQuery });
export const ListFailingTestsRequest = Type.Object({
  ...FlakyRepoRequest,
  start_time: Type.String({ format: 'date-time' }),
  end_time: Type.String({ format: 'date-time' }),
  page_query: PageQuery,
});
export const GetTestDetailsRequest = Type.Object({
  ...FlakyRepoRequest,
  test_id: Type.String({ minLength: 1 }),
});
export const LinkTicketRequest = Type.Object({
  repo: Repo,
  test_case_id: Type.String({ minLength: 1 }),
  external_ticket_id: Type.String({ minLength: 1 }),
});

export const UnhealthyTest = Type.Object({
  id: Type.String(),
  repository: Type.Object({ html_url: Type.String() }),
  html_url: Type.String(),
  name: Type.String(),
  variant: Type.String(),
  status: Type.Object({ value: Type.String(), reason: Type.String(), timestamp: Type.String() }),
  file_path: Type.Optional(Type.String()),
  parent: Type.Optional(Type.String()),
  classname: Type.Optional(Type.String()),
  codeowners: Type.Array(Type.String()),
  pull_requests_impacted_last_7d: Type.Integer({ minimum: 0 }),
  quarantined: Type.Boolean(),
  ticket: Type.Optional(Type.Object({ html_url: Type.String() })),
});
export type UnhealthyTest = Static<typeof UnhealthyTest>;

export const FailingTest = Type.Composite([
  UnhealthyTest,
  Type.Object({
    most_common_failures: Type.Array(
      Type.Object({
        summary: Type.String(),
        occurrence_count: Type.Integer(),
        last_occurrence: Type.Optional(Type.String()),
      }),
    ),
    failure_rate_last_7d: Type.Number(),
    failure_rate_last_24h: Type.Number(),
  }),
]);
export type FailingTest = Static<typeof FailingTest>;

export const QuarantinedTest = Type.Object({
  name: Type.String(),
  parent: Type.Union([Type.String(), Type.Null()]),
  file: Type.Union([Type.String(), Type.Null()]),
  classname: Type.Union([Type.String(), Type.Null()]),
  status: Type.String(),
  codeowners: Type.Array(Type.String()),
  quarantine_setting: Type.String(),
  quarantined_at: Type.String(),
  status_last_updated_at: Type.String(),
  test_case_id: Type.String(),
  variant: Type.String(),
});
export type QuarantinedTest = Static<typeof QuarantinedTest>;

export const ListUnhealthyTestsResponse = Type.Object({ tests: Type.Array(UnhealthyTest), page: Page });
export type ListUnhealthyTestsResponse = Static<typeof ListUnhealthyTestsResponse>;
export const ListFailingTestsResponse = Type.Object({ tests: Type.Array(FailingTest), page: Page });
export type ListFailingTestsResponse = Static<typeof ListFailingTestsResponse>;
export const ListQuarantinedTestsResponse = Type.Object({
  quarantined_tests: Type.Array(QuarantinedTest),
  page: Page,
});
export type ListQuarantinedTestsResponse = Static<typeof ListQuarantinedTestsResponse>;
export const TestDetailsResponse = Type.Object({ test: FailingTest });
export type TestDetailsResponse = Static<typeof TestDetailsResponse>;

// ---------------------------------------------------------------------------------------------------
// The endpoints

interface EndpointShape {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  /** JSON body (POST) or query string (GET) schema. */
  readonly request: TSchema;
  /** The 200 body; absent for writes that answer `{}`, empty or `OK`, and for plain-text answers. */
  readonly response?: TSchema;
  /** false for a write that would do its work again if repeated after its answer was lost. */
  readonly repeatable?: boolean;
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
} as const satisfies Record<string, EndpointShape>;

export type EndpointName = keyof typeof ENDPOINTS;
export type RequestOf<E extends EndpointName> = Static<(typeof ENDPOINTS)[E]['request']>;

// ---------------------------------------------------------------------------------------------------
// Tolerant reading: the service has sent UPPERCASE enums and older field names; accept both.

/** An enum value as we compare it: lowercase, or '' when absent. Unknown values are kept. */
export function enumValue(value: unknown): string {
  return typeof value === 'string' ? value.toLowerCase() : '';
}

const LEGACY_QUEUE_FIELDS: Record<string, keyof QueueConfiguration> = {
  testingTimeoutMins: 'testingTimeoutMinutes',
  isBatching: 'batch',
  batchingMaxWaitTimeMins: 'batchingMaxWaitTimeMinutes',
};

/** A queue as the service returned it, with legacy field names mapped and enums lowercased. */
export function readQueue(raw: unknown): Partial<Queue> & Record<string, unknown> {
  const queue: Record<string, unknown> = isObject(raw) ? { ...raw } : {};
  for (const [legacy, current] of Object.entries(LEGACY_QUEUE_FIELDS)) {
    if (queue[current] === undefined && queue[legacy] !== undefined) queue[current] = queue[legacy];
    delete queue[legacy];
  }
  for (const field of ['state', 'mode', 'mergeMethod', 'directMergeMode', 'optimizationMode']) {
    if (typeof queue[field] === 'string') queue[field] = enumValue(queue[field]);
  }
  if (Array.isArray(queue.enqueuedPullRequests)) {
    queue.enqueuedPullRequests = queue.enqueuedPullRequests.map(readPullRequest);
  }
  return queue;
}

/** A pull request entry as the service returned it, with its state lowercased. */
export function readPullRequest(raw: unknown): Partial<SubmittedPullRequest> & Record<string, unknown> {
  const pr: Record<string, unknown> = isObject(raw) ? { ...raw } : {};
  if (typeof pr.state === 'string') pr.state = enumValue(pr.state);
  return pr;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// Made by npm run spec:structure (scripts/spec-structure.ts) from src/wire/v2/openapi.structure.json: do not edit.
export interface paths {
  '/v2/merge-queues': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: operations['mergeQueues.list'];
    put?: never;
    post: operations['mergeQueues.create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/merge-queues/metrics': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: operations['mergeQueues.organizationMetrics'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/merge-queues/{id}/metrics': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: operations['mergeQueues.metrics'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/merge-queues/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: operations['mergeQueues.get'];
    put?: never;
    post?: never;
    delete: operations['mergeQueues.delete'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/merge-queues/{id}/order': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: operations['mergeQueues.order'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/merge-queues/{id}/graph': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: operations['mergeQueues.graph'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/merge-queues/{id}/testing-results': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: operations['mergeQueues.listTestingResults'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/merge-queues/{id}/pull-requests': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: operations['mergeQueues.listPullRequests'];
    put?: never;
    post: operations['mergeQueues.submitPullRequest'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/merge-queues/{id}/switch-modes': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: operations['mergeQueues.switchModes'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/merge-queues/{id}/pause': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: operations['mergeQueues.pause'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/merge-queues/{id}/resume': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: operations['mergeQueues.resume'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/merge-queues/{id}/drain': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: operations['mergeQueues.drain'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/merge-queues/{id}/config': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch: operations['mergeQueues.updateConfig'];
    trace?: never;
  };
  '/v2/impacted-targets': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put: operations['impactedTargets.upload'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/merge-queue-verification-runs/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: operations['mergeQueueVerificationRuns.get'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/merge-queues/{id}/verification-runs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: operations['mergeQueues.listVerificationRuns'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/pull-requests/{id}/verification-runs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: operations['pullRequests.listVerificationRuns'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/pull-requests/{id}/queue-entry-history': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: operations['pullRequests.queueEntryHistory'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/queue-entry-history': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: operations['pullRequests.queueEntryHistoryBatch'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/pull-requests': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: operations['pullRequests.resolveByCoordinates'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/pull-requests/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: operations['pullRequests.get'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/pull-requests/{id}/reprioritize': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: operations['pullRequests.reprioritize'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/pull-requests/{id}/queue-entry': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch: operations['pullRequests.updateQueueEntry'];
    trace?: never;
  };
  '/v2/pull-requests/{id}/dequeue': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: operations['pullRequests.dequeue'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/pull-requests/{id}/restart-tests': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: operations['pullRequests.restartTests'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/dynamic-ci/generate-plan': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: operations['dynamicCi.generatePlan'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/dynamic-ci/generate-buildkite-plan': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: operations['dynamicCi.generateBuildkitePlan'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/dynamic-ci/pr-jobs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: operations['dynamicCi.listPrJobs'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/dynamic-ci/force-overrides': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: operations['dynamicCi.listForceOverrides'];
    put: operations['dynamicCi.setForceOverrides'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/test-collections': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: operations['testCollections.list'];
    put?: never;
    post: operations['testCollections.create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/test-collections/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: operations['testCollections.get'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/test-cases/{testCaseId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: operations['testCases.get'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/test-cases': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: operations['testCases.list'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/test-cases/{testCaseId}/status-history': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: operations['testCases.listStatusHistory'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/test-cases/{testCaseId}/test-runs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: operations['testCases.listTestRuns'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/test-cases/{testCaseId}/ticket': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: operations['testCases.linkTicket'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/repositories': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: operations['repositories.resolveByProviderUrl'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v2/repositories/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: operations['repositories.get'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    PaginatedListResponse: {
      data: unknown[];
      nextCursor: string | null;
      hasMore: boolean;
      total?: number;
    };
    MergeQueueList: {
      data: components['schemas']['MergeQueue'][];
      nextCursor: string | null;
      hasMore: boolean;
      total?: number;
    };
    MergeQueue: {
      id: string;
      repositoryId: string;
      targetBranch: string;
      state: components['schemas']['MergeQueueState'];
      mode: components['schemas']['MergeQueueMode'];
      managedState: components['schemas']['ManagedState'];
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
      repositoryUrl: string;
      pullRequestsUrl: string;
      htmlUrl?: string;
      config: components['schemas']['MergeQueueConfig'];
    };
    /** @enum {string} */
    MergeQueueState: 'running' | 'paused' | 'draining' | 'switchingModes';
    /** @enum {string} */
    MergeQueueMode: 'queue' | 'graph';
    /** @enum {string} */
    ManagedState: 'manual' | 'terraform' | 'terraformWithDrift';
    MergeQueueConfig: {
      concurrency: number;
      bisectionConcurrency: number;
      pendingFailureDepth: number;
      canOptimisticallyMerge: boolean;
      allowBatching: boolean;
      batchingMaxWaitTimeMinutes: number;
      batchingMinSize: number;
      testingTimeoutMinutes: number;
      notReadyTimeoutMinutes: number;
      createsPrsForTestingBranches: boolean;
      areCommentsEnabled: boolean;
      areCommandsEnabled: boolean;
      isStatusCheckEnabled: boolean;
      isExtensionEnabled: boolean;
      areLabelCommandsEnabled: boolean;
      areStateLabelsEnabled: boolean;
      requiredStatuses: string[];
      allowedBotSubmitters: string[];
      batchingRules: components['schemas']['BatchingRule'][];
      directMergeMode: components['schemas']['DirectMergeMode'];
      optimizationMode: components['schemas']['OptimizationMode'];
      mergeMethod: components['schemas']['MergeMethod'];
      testBranchConstructionMode: components['schemas']['TestBranchConstructionMode'];
      enqueueingLabel: string;
    };
    BatchingRule: {
      targetPattern: string;
      policy: components['schemas']['BatchingRulePolicy'];
    };
    /** @enum {string} */
    BatchingRulePolicy: 'isolate';
    /** @enum {string} */
    DirectMergeMode: 'off' | 'always';
    /** @enum {string} */
    OptimizationMode: 'off' | 'bisectionSkipRedundantTests';
    /** @enum {string} */
    MergeMethod: 'mergeCommit' | 'squash' | 'rebase';
    /** @enum {string} */
    TestBranchConstructionMode: 'renameTempBranch' | 'pushNewBranchFromTemp';
    ErrorResponse: {
      error: {
        code: components['schemas']['ErrorCode'];
        message: string;
      };
    };
    /** @enum {string} */
    ErrorCode:
      | 'AUTHENTICATION_REQUIRED'
      | 'INVALID_TOKEN'
      | 'INSUFFICIENT_PERMISSIONS'
      | 'INTERNAL_ERROR'
      | 'VALIDATION_FAILED'
      | 'NOT_FOUND'
      | 'INVALID_CURSOR'
      | 'MERGE_QUEUE_NOT_FOUND'
      | 'PR_ALREADY_ENQUEUED'
      | 'PR_NOT_ENQUEUEABLE'
      | 'UPSTREAM_ERROR'
      | 'VERIFICATION_RUN_NOT_FOUND'
      | 'PR_NOT_FOUND'
      | 'REPOSITORY_NOT_FOUND'
      | 'IMPACTED_TARGETS_UNSUPPORTED'
      | 'QUEUE_ALREADY_EXISTS'
      | 'QUEUE_HAS_ACTIVE_ENTRIES'
      | 'MODE_CHANGE_IN_PROGRESS'
      | 'PR_NOT_IN_ACTIVE_STATE'
      | 'MERGE_QUEUE_NOT_CREATABLE'
      | 'PR_TESTS_NOT_RESTARTABLE'
      | 'ALLOWED_BOT_SUBMITTERS_FROZEN'
      | 'PROVIDER_URL_NOT_FOUND'
      | 'CI_HOST_UNSUPPORTED'
      | 'CI_SCOPE_NOT_FOUND'
      | 'TEST_COLLECTION_NOT_FOUND'
      | 'TEST_CASE_NOT_FOUND'
      | 'TICKETING_NOT_CONFIGURED'
      | 'TICKETING_CREDENTIALS_INVALID'
      | 'TICKET_NOT_FOUND'
      | 'TICKET_LINK_CONFLICT'
      | 'RATE_LIMIT_EXCEEDED';
    CreateMergeQueueRequest: {
      /** Format: uuid */
      repositoryId: string;
      targetBranch: string;
      /** @enum {string} */
      mode?: 'queue' | 'graph';
      concurrency?: number;
      bisectionConcurrency?: number;
      enqueueingLabel?: string;
    };
    PrometheusExposition: string;
    MergeQueueOrder: {
      mode: components['schemas']['MergeQueueMode'];
      queueState: components['schemas']['MergeQueueState'];
      batchingEnabled: boolean;
      isolationResolved: boolean;
      hasCycle: boolean;
      batches: components['schemas']['OrderedBatch'][];
      pending: components['schemas']['OrderedPendingItem'][];
      awaitingAdmission: components['schemas']['QueuedPullRequest'][];
      awaitingAdmissionTotal: number;
    };
    OrderedBatch: {
      verificationRunId: string;
      state: components['schemas']['QueueEntryState'];
      isBisection: boolean;
      pullRequests: components['schemas']['QueuedPullRequest'][];
    };
    /** @enum {string} */
    QueueEntryState:
      | 'notReady'
      | 'pending'
      | 'testing'
      | 'testsPassed'
      | 'merged'
      | 'failed'
      | 'cancelled'
      | 'pendingFailure';
    QueuedPullRequest: {
      id: string;
      number: number;
      sha: string;
      title: string;
      url?: string;
    };
    OrderedPendingItem: {
      pullRequest: components['schemas']['QueuedPullRequest'];
      schedulability: components['schemas']['PendingSchedulability'];
      predictedBatch?: number;
      directlyAhead: components['schemas']['QueuedPullRequest'][];
      heldBy: components['schemas']['QueuedPullRequest'][];
    };
    /** @enum {string} */
    PendingSchedulability: 'schedulable' | 'heldBehindFailure';
    MergeGraph: {
      nodes: components['schemas']['MergeGraphNode'][];
      edges: components['schemas']['MergeGraphEdge'][];
    };
    MergeGraphNode: {
      pullRequestNumber: number;
      title: string;
      author: string;
      state: components['schemas']['QueueEntryState'];
      priorityValue: number;
      priorityName?: string;
      skipsTheLine: boolean;
      allowsBatching: boolean;
      verificationRunId?: string;
      isBisection: boolean;
      impactedTargets?: string[];
      totalImpactedTargets?: number;
    };
    MergeGraphEdge: {
      fromPullRequestNumber: number;
      toPullRequestNumber: number;
      commonImpactedTargets?: string[];
      totalCommonImpactedTargets?: number;
    };
    TestingResultList: {
      data: components['schemas']['TestingResult'][];
      nextCursor: string | null;
      hasMore: boolean;
      total?: number;
    };
    TestingResult: {
      pullRequestNumber: number;
      /** Format: date-time */
      endedAt: string;
      testingDurationMs: number;
      outcome?: components['schemas']['TestingOutcome'];
      entryConclusion?: components['schemas']['QueueEntryConclusion'];
      isBisection: boolean;
      startedBisection: boolean;
      verificationRunId?: string;
    };
    /** @enum {string} */
    TestingOutcome: 'passed' | 'failed' | 'interrupted' | 'cancelled';
    /** @enum {string} */
    QueueEntryConclusion: 'merged' | 'failed' | 'cancelled';
    PullRequest: {
      id: string;
      repositoryId: string;
      number: number;
      title: string;
      branch: string;
      sha: string;
      baseBranch: string;
      author: string;
      url?: string;
      state?: components['schemas']['PullRequestState'];
      isCurrentlySubmittedToQueue: boolean;
      queueEntry?: components['schemas']['QueueEntry'];
      /** Format: date-time */
      createdAt: string;
      htmlUrl?: string;
      viewerIsAuthor?: boolean;
    };
    /** @enum {string} */
    PullRequestState: 'open' | 'closed' | 'merged';
    QueueEntry: {
      id: string;
      mergeQueueId: string;
      state: components['schemas']['QueueEntryState'];
      /** Format: date-time */
      stateChangedAt: string;
      priorityValue?: number;
      priorityName?: string;
      usedDefaultPriorityName?: string;
      skipsTheLine: boolean;
      allowBatching: boolean;
      direct: boolean;
      verifiedByVerificationRunId?: string;
      readiness: components['schemas']['Readiness'];
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    Readiness: {
      requiresImpactedTargets: boolean;
      hasImpactedTargets?: boolean;
      doesBaseBranchMatch: boolean;
      mergeability: components['schemas']['Mergeability'];
      mergeabilityDetails?: components['schemas']['MergeabilityDetails'];
    };
    /** @enum {string} */
    Mergeability: 'mergeable' | 'notMergeable' | 'inProgress' | 'unspecified';
    MergeabilityDetails: {
      /** @enum {string} */
      provider: 'github';
      reasons: components['schemas']['MergeabilityReason'][];
    };
    MergeabilityReason: {
      code: components['schemas']['MergeabilityReasonCode'];
      message: string;
      have?: number;
      need?: number;
      check?: string;
      ontoPrNumber?: number;
    };
    /** @enum {string} */
    MergeabilityReasonCode:
      | 'conflict'
      | 'behind'
      | 'draft'
      | 'closed'
      | 'pending'
      | 'awaitingCheck'
      | 'failingCheck'
      | 'reviewRequired'
      | 'changesRequested'
      | 'stackNeedsRebase'
      | 'other';
    SubmitPullRequestRequest: {
      number: number;
      allowBatching?: boolean;
      priorityValue?: number;
      priorityName?: string;
      direct?: boolean;
    };
    PullRequestList: {
      data: components['schemas']['PullRequest'][];
      nextCursor: string | null;
      hasMore: boolean;
      total?: number;
    };
    MergeQueueStateChange: {
      id: string;
      state: components['schemas']['MergeQueueState'];
      mode: components['schemas']['MergeQueueMode'];
      pullRequestsUrl: string;
    };
    SwitchModesRequest: {
      /** @enum {string} */
      mode: 'queue' | 'graph';
    };
    UpdateMergeQueueConfigRequest: {
      concurrency?: number;
      bisectionConcurrency?: number;
      pendingFailureDepth?: number;
      canOptimisticallyMerge?: boolean;
      allowBatching?: boolean;
      batchingMaxWaitTimeMinutes?: number;
      batchingMinSize?: number;
      testingTimeoutMinutes?: number;
      notReadyTimeoutMinutes?: number;
      createsPrsForTestingBranches?: boolean;
      areCommentsEnabled?: boolean;
      areCommandsEnabled?: boolean;
      isStatusCheckEnabled?: boolean;
      isExtensionEnabled?: boolean;
      areLabelCommandsEnabled?: boolean;
      areStateLabelsEnabled?: boolean;
      requiredStatuses?: string[];
      allowedBotSubmitters?: string[];
      batchingRules?: {
        targetPattern: string;
        /** @enum {string} */
        policy: 'isolate';
      }[];
      /** @enum {string} */
      directMergeMode?: 'off' | 'always';
      /** @enum {string} */
      optimizationMode?: 'off' | 'bisectionSkipRedundantTests';
      /** @enum {string} */
      mergeMethod?: 'mergeCommit' | 'squash' | 'rebase';
      /** @enum {string} */
      testBranchConstructionMode?: 'renameTempBranch' | 'pushNewBranchFromTemp';
      enqueueingLabel?: string;
    };
    UploadImpactedTargetsRequest: {
      /** Format: uuid */
      repositoryId: string;
      targetBranch: string;
      sha: string;
      number?: number;
      branch?: string;
      impactedTargets?: string[];
      /** @enum {boolean} */
      impactsAllTargets?: true;
    } & ((unknown | unknown) & (unknown | unknown));
    VerificationRun: {
      id: string;
      isBisection: boolean;
      testBranch: string;
      testBranchSha: string;
      testBranchCommitUrl?: string;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
      status: components['schemas']['VerificationRunStatus'];
      requiredStatusesSource?: components['schemas']['RequiredStatusesSource'];
      requiredStatuses: string[];
      checks: components['schemas']['Check'][];
      testedPullRequests: components['schemas']['TestedPullRequest'][];
      dependentPullRequests: components['schemas']['DependentPullRequest'][];
      testBranchPullRequest?: components['schemas']['TestBranchPullRequest'];
      impactedTargets?: components['schemas']['VerificationRunImpactedTargets'];
    };
    /** @enum {string} */
    VerificationRunStatus: 'inProgress' | 'failed' | 'cancelled' | 'succeeded';
    /** @enum {string} */
    RequiredStatusesSource: 'trunkConfig' | 'repoProviderBranchProtection' | 'mergeInstance';
    Check: {
      id: string;
      name: string;
      kind: components['schemas']['CheckKind'];
      status: components['schemas']['CheckStatus'];
      conclusion: components['schemas']['CheckConclusion'];
      providerStatus?: components['schemas']['ProviderCheckStatus'];
      providerConclusion?: components['schemas']['ProviderCheckConclusion'];
      url: string | null;
      /** @enum {string} */
      provider: 'github';
    };
    /** @enum {string} */
    CheckKind: 'checkRun' | 'statusCheck';
    /** @enum {string} */
    CheckStatus: 'queued' | 'inProgress' | 'completed';
    /** @enum {string} */
    CheckConclusion: 'success' | 'failure' | 'neutral' | 'cancelled' | 'skipped' | 'timeout';
    /** @enum {string} */
    ProviderCheckStatus: 'QUEUED' | 'IN_PROGRESS' | 'COMPLETED' | 'PENDING' | 'WAITING' | 'REQUESTED';
    /** @enum {string} */
    ProviderCheckConclusion:
      | 'ACTION_REQUIRED'
      | 'CANCELLED'
      | 'ERROR'
      | 'FAILURE'
      | 'NEUTRAL'
      | 'PENDING'
      | 'SKIPPED'
      | 'STALE'
      | 'SUCCESS'
      | 'TIMED_OUT';
    TestedPullRequest: {
      id: string;
      number: number;
      sha: string;
      title: string;
      url?: string;
    };
    DependentPullRequest: {
      id: string;
      number: number;
      sha: string;
      title: string;
      url?: string;
    };
    TestBranchPullRequest: {
      number: number;
      url: string;
    };
    VerificationRunImpactedTargets: {
      all: components['schemas']['ImpactedTargetSet'];
      testedPullRequestsOnly?: components['schemas']['ImpactedTargetSet'];
    };
    ImpactedTargetSet: {
      impactsAllTargets: boolean;
      impactedTargets: string[];
      totalImpactedTargets: number;
    };
    VerificationRunList: {
      data: components['schemas']['VerificationRun'][];
      nextCursor: string | null;
      hasMore: boolean;
      total?: number;
    };
    QueueEntryHistoryList: {
      data: components['schemas']['QueueEntryStateTransition'][];
      nextCursor: string | null;
      hasMore: boolean;
      total?: number;
    };
    QueueEntryStateTransition: {
      pullRequestId: string;
      state: components['schemas']['QueueEntryState'];
      /** Format: date-time */
      changedAt: string;
      reason: string | null;
      verificationRunId?: string;
      actor?: components['schemas']['TransitionActor'];
      prerequisitePullRequestId?: string;
      notReady?: components['schemas']['NotReadyTransitionDetails'];
      pending?: components['schemas']['PendingTransitionDetails'];
      testsPassed?: components['schemas']['TestsPassedTransitionDetails'];
      pendingFailure?: components['schemas']['PendingFailureTransitionDetails'];
      failed?: components['schemas']['FailedTransitionDetails'];
    };
    TransitionActor: {
      gitHubLogin?: string;
      trunkUserId?: string;
    };
    NotReadyTransitionDetails: {
      priorityValue?: number;
      priorityName?: string;
      allowBatching: boolean;
    };
    PendingTransitionDetails: {
      priorityValue?: number;
      priorityName?: string;
      usedDefaultPriorityName?: string;
      prerequisitePullRequests: components['schemas']['TransitionPullRequestRef'][];
    };
    TransitionPullRequestRef: {
      pullRequestId: string;
      number: number;
      title: string;
      url?: string;
      state: components['schemas']['QueueEntryState'] & unknown;
    };
    TestsPassedTransitionDetails: {
      batchSize: number;
      bisectionId?: string;
      successorPullRequestId?: string;
      otherTestedPullRequests: components['schemas']['TransitionPullRequestRef'][];
      waitingFor: components['schemas']['TransitionPullRequestRef'][];
    };
    PendingFailureTransitionDetails: {
      eventualFailureReason?: string;
      waitingFor: components['schemas']['TransitionPullRequestRef'][];
      failureCausingChecks: components['schemas']['FailureCausingCheck'][];
    };
    FailureCausingCheck: {
      name: string;
      url?: string;
      conclusion?: string;
    };
    FailedTransitionDetails: {
      apiFailureMessage?: string;
      failureCausingChecks: components['schemas']['FailureCausingCheck'][];
      blockReasons?: components['schemas']['MergeabilityReason'][];
      conflictCulprit?: components['schemas']['ConflictCulprit'];
    };
    ConflictCulprit: {
      kind: components['schemas']['ConflictCulpritKind'];
      sha: string;
      pullRequestId?: string;
      number?: number;
      url?: string;
    };
    /** @enum {string} */
    ConflictCulpritKind: 'queuePullRequest' | 'baseBranch' | 'stackedPullRequest';
    BatchQueueEntryHistoryList: {
      data: components['schemas']['PullRequestQueueEntryHistory'][];
      nextCursor: string | null;
      hasMore: boolean;
      total?: number;
    };
    PullRequestQueueEntryHistory: {
      pullRequestId: string;
      transitions: components['schemas']['QueueEntryStateTransition'][];
    };
    ReprioritizeRequest: {
      priorityValue?: number;
      priorityName?: string;
    } & (unknown | unknown);
    UpdateQueueEntryRequest: {
      priorityValue?: number;
      priorityName?: string;
      direct?: boolean;
      allowBatching?: boolean;
    };
    CiPlan: {
      jobs: components['schemas']['JobVerdict'][];
      notice?: components['schemas']['PlanNotice'];
    };
    JobVerdict: {
      jobKey: string;
      run: boolean;
      summary: string;
      signals: components['schemas']['SignalResult'][];
    };
    SignalResult: {
      type: components['schemas']['SignalType'];
      recommendation: components['schemas']['SignalRecommendation'];
      message: string;
      ignored: boolean;
    };
    /** @enum {string} */
    SignalType:
      | 'estimated-cost'
      | 'previous-result-on-pr'
      | 'historical-pass-rate'
      | 'diff-driven-volatility'
      | 'force-override'
      | 'merge-failure'
      | 'mid-pr-stack'
      | 'required-check'
      | 'merge-queue-is-required'
      | 'paths-filter';
    /** @enum {string} */
    SignalRecommendation: 'MUST_RUN' | 'VOTE_RUN' | 'VOTE_NO_RUN' | 'NEVER_RUN' | 'INCOMPLETE' | 'ABSTAIN';
    PlanNotice: {
      code: string;
      message: string;
    };
    CiPlanRequest: {
      repo: components['schemas']['PlanRepo'];
      commitSha: string;
      baseSha: string | null;
      branch: string;
      prNumber: number | null;
      runId: string;
      runAttempt: number;
      triggeringActor?: string;
      eventName?: string;
      prLabels?: string[];
      /** @default [] */
      jobKeys: string[];
      ignoreSignals?: components['schemas']['SignalType'][];
      changedFiles?: components['schemas']['ChangedFiles'];
      workflowPath: string;
    };
    PlanRepo: {
      /** @default github.com */
      host: string;
      owner: string;
      name: string;
    };
    ChangedFiles: {
      base: string;
      totalFiles: number;
      totalAdditions: number;
      totalDeletions: number;
      files: components['schemas']['ChangedFile'][];
    };
    ChangedFile: {
      path: string;
      previousPath?: string;
      status: components['schemas']['ChangedFileStatus'];
      additions: number;
      deletions: number;
    };
    /** @enum {string} */
    ChangedFileStatus: 'added' | 'modified' | 'removed' | 'renamed' | 'copied' | 'changed' | 'unchanged';
    BuildkitePlanRequest: {
      repo: components['schemas']['PlanRepo'];
      commitSha: string;
      baseSha: string | null;
      branch: string;
      prNumber: number | null;
      runId: string;
      runAttempt: number;
      triggeringActor?: string;
      eventName?: string;
      prLabels?: string[];
      /** @default [] */
      jobKeys: string[];
      ignoreSignals?: components['schemas']['SignalType'][];
      changedFiles?: components['schemas']['ChangedFiles'];
      buildkiteOrganizationSlug: string;
      buildkitePipelineSlug: string;
    };
    CiWorkflowList: {
      data: components['schemas']['CiWorkflow'][];
      nextCursor: string | null;
      hasMore: boolean;
      total?: number;
    };
    CiWorkflow: {
      workflowId: string;
      name: string;
      path: string | null;
      jobs: components['schemas']['CiJob'][];
    };
    CiJob: {
      jobId: string;
      jobKey: string | null;
      name: string;
    };
    ForceOverrideList: {
      data: components['schemas']['ForceOverride'][];
      nextCursor: string | null;
      hasMore: boolean;
      total?: number;
    };
    ForceOverride: {
      id: string;
      scope: components['schemas']['ForceOverrideScope'];
      workflowId?: string;
      jobId?: string;
      headShaAtSave: string;
      /** Format: date-time */
      createdAt: string;
    };
    /** @enum {string} */
    ForceOverrideScope: 'pullRequest' | 'workflow' | 'job';
    SetForceOverridesRequest: {
      repo: components['schemas']['PlanRepo'];
      prNumber: number;
      headSha: string;
      overrides: components['schemas']['ForceOverrideRequest'][];
    };
    ForceOverrideRequest: {
      scope: components['schemas']['ForceOverrideScope'];
      /** Format: uuid */
      workflowId?: string;
      /** Format: uuid */
      jobId?: string;
    };
    TestCollectionList: {
      data: components['schemas']['TestCollection'][];
      nextCursor: string | null;
      hasMore: boolean;
      total?: number;
    };
    TestCollection: {
      id: string;
      name: string;
      description: string | null;
      testCaseCount: number;
      quarantineEnabled: boolean;
      autoQuarantineEnabled: boolean;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    CreateTestCollectionRequest: {
      name: string;
      description?: string;
    };
    TestCase: components['schemas']['TestCaseSummary'] & {
      quarantineOverride: components['schemas']['QuarantineOverride'] | null;
      activeMonitors: components['schemas']['ActiveMonitor'][];
      /** Format: date-time */
      firstSeenAt: string | null;
      /** Format: date-time */
      lastFailureAt: string | null;
    };
    /** @enum {string} */
    TestStatus: 'healthy' | 'flaky' | 'broken';
    /** @enum {string} */
    QuarantineState: 'quarantined' | 'notQuarantined';
    Label: {
      id: string;
      name: string;
      description: string;
      /** Format: date-time */
      assignedAt: string;
      sources: components['schemas']['LabelSource'][];
    };
    LabelSource: components['schemas']['UserLabelSource'] | components['schemas']['MonitorLabelSource'];
    UserLabelSource: {
      /**
       * @description discriminator enum property added by openapi-typescript
       * @enum {string}
       */
      type: 'user';
      user: components['schemas']['LabelUser'] | null;
      /** Format: date-time */
      assignedAt: string;
    };
    LabelUser: {
      id: string;
      name: string | null;
    };
    MonitorLabelSource: {
      /**
       * @description discriminator enum property added by openapi-typescript
       * @enum {string}
       */
      type: 'monitor';
      monitorId: string;
      monitorType: components['schemas']['LabelingMonitorType'];
      /** Format: date-time */
      assignedAt: string;
    };
    /** @enum {string} */
    LabelingMonitorType:
      | 'failureRate'
      | 'passOnRetry'
      | 'failureCount'
      | 'newTest'
      | 'skippedTest'
      | 'slowTest'
      | 'timeoutInflation';
    TestCaseMetrics: {
      failureRate: number;
      prsImpacted: number;
      runCount: number;
      failureCount: number;
      durationP95Ms: number | null;
      /** Format: date-time */
      lastRunAt: string | null;
      /** Format: date-time */
      lastFailureAt: string | null;
    };
    QuarantineOverride: {
      mode: components['schemas']['QuarantineMode'];
      reason: string | null;
      /** Format: date-time */
      createdAt: string;
    };
    /** @enum {string} */
    QuarantineMode: 'alwaysQuarantine' | 'neverQuarantine';
    ActiveMonitor: {
      monitorId: string | null;
      monitorType: components['schemas']['ActiveMonitorType'];
      /** Format: date-time */
      activeSince: string;
    };
    /** @enum {string} */
    ActiveMonitorType:
      | 'failureRate'
      | 'passOnRetry'
      | 'failureCount'
      | 'newTest'
      | 'skippedTest'
      | 'slowTest'
      | 'timeoutInflation'
      | 'manual';
    TestCaseSummary: {
      id: string;
      testCollectionId: string;
      repoId: string;
      name: string;
      parentName: string;
      className: string;
      file: string;
      target: string;
      variant: string;
      crossVariantId: string | null;
      codeowners: string[];
      status: components['schemas']['TestStatus'];
      /** Format: date-time */
      statusSince: string | null;
      quarantineState: components['schemas']['QuarantineState'];
      labels: components['schemas']['Label'][];
      metrics?: components['schemas']['TestCaseMetrics'] | null;
    };
    TestCaseList: {
      data: components['schemas']['TestCaseSummary'][];
      nextCursor: string | null;
      hasMore: boolean;
      total?: number;
    };
    StatusHistoryEntryList: {
      data: components['schemas']['StatusHistoryEntry'][];
      nextCursor: string | null;
      hasMore: boolean;
      total?: number;
    };
    StatusHistoryEntry: {
      id: string;
      fromStatus: components['schemas']['TestStatus'];
      toStatus: components['schemas']['TestStatus'];
      activeMonitors: components['schemas']['ClassifyingMonitor'][];
      /** Format: date-time */
      startedAt: string;
    };
    ClassifyingMonitor: {
      monitorId: string | null;
      monitorType: components['schemas']['ClassifyingMonitorType'];
    };
    /** @enum {string} */
    ClassifyingMonitorType: 'failureRate' | 'passOnRetry' | 'failureCount' | 'manual';
    TestRunList: {
      data: components['schemas']['TestRun'][];
      nextCursor: string | null;
      hasMore: boolean;
      total?: number;
    };
    TestRun: {
      id: string;
      conclusion: components['schemas']['Conclusion'];
      branch: string;
      isPullRequest: boolean;
      sha: string;
      quarantineState: components['schemas']['QuarantineState'];
      statusAtRunTime: components['schemas']['TestStatus'];
      /** Format: date-time */
      startedAt: string;
      /** Format: date-time */
      endedAt: string;
      pullRequest: components['schemas']['TestRunPullRequest'] | null;
      buildUrl: string | null;
      workflow: string | null;
      jobName: string | null;
    };
    /** @enum {string} */
    Conclusion: 'success' | 'failure' | 'skipped';
    TestRunPullRequest: {
      number: number;
      url?: string;
    };
    Ticket: {
      id: string;
      provider: components['schemas']['TicketProvider'];
      key: string;
      /** Format: uri */
      url: string;
      title: string;
      status: string;
      assignee: string | null;
      /** Format: date-time */
      syncedAt: string;
    };
    /** @enum {string} */
    TicketProvider: 'jiraCloud' | 'linear' | 'asana';
    LinkTicketRequest: {
      externalTicketId: string;
      /** Format: uuid */
      integrationId?: string;
    };
    RepositoryList: {
      data: components['schemas']['Repository'][];
      nextCursor: string | null;
      hasMore: boolean;
      total?: number;
    };
    Repository: {
      id: string;
      provider: components['schemas']['Provider'];
      path: string;
      host: string | null;
      url: string;
      defaultBranch: string | null;
      isPrivate: boolean | null;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    /** @enum {string} */
    Provider: 'github' | 'gitlab' | 'bitbucket' | 'unknown';
  };
  responses: {
    Error_VALIDATION_FAILED_or_INVALID_CURSOR: {
      headers: {
        'X-Request-Id': components['headers']['XRequestId'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    Error_AUTHENTICATION_REQUIRED_or_INVALID_TOKEN: {
      headers: {
        'X-Request-Id': components['headers']['XRequestId'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    Error_INSUFFICIENT_PERMISSIONS: {
      headers: {
        'X-Request-Id': components['headers']['XRequestId'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    Error_RATE_LIMIT_EXCEEDED: {
      headers: {
        'X-Request-Id': components['headers']['XRequestId'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    Error_INTERNAL_ERROR: {
      headers: {
        'X-Request-Id': components['headers']['XRequestId'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    Error_VALIDATION_FAILED: {
      headers: {
        'X-Request-Id': components['headers']['XRequestId'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    Error_REPOSITORY_NOT_FOUND: {
      headers: {
        'X-Request-Id': components['headers']['XRequestId'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    Error_QUEUE_ALREADY_EXISTS: {
      headers: {
        'X-Request-Id': components['headers']['XRequestId'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    Error_MERGE_QUEUE_NOT_CREATABLE: {
      headers: {
        'X-Request-Id': components['headers']['XRequestId'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    Error_UPSTREAM_ERROR: {
      headers: {
        'X-Request-Id': components['headers']['XRequestId'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    Error_MERGE_QUEUE_NOT_FOUND: {
      headers: {
        'X-Request-Id': components['headers']['XRequestId'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    Error_QUEUE_HAS_ACTIVE_ENTRIES: {
      headers: {
        'X-Request-Id': components['headers']['XRequestId'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    Error_PR_ALREADY_ENQUEUED: {
      headers: {
        'X-Request-Id': components['headers']['XRequestId'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    Error_PR_NOT_ENQUEUEABLE: {
      headers: {
        'X-Request-Id': components['headers']['XRequestId'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    Error_MODE_CHANGE_IN_PROGRESS: {
      headers: {
        'X-Request-Id': components['headers']['XRequestId'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    Error_ALLOWED_BOT_SUBMITTERS_FROZEN: {
      headers: {
        'X-Request-Id': components['headers']['XRequestId'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    Error_REPOSITORY_NOT_FOUND_or_PR_NOT_FOUND: {
      headers: {
        'X-Request-Id': components['headers']['XRequestId'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    Error_IMPACTED_TARGETS_UNSUPPORTED: {
      headers: {
        'X-Request-Id': components['headers']['XRequestId'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    Error_VERIFICATION_RUN_NOT_FOUND: {
      headers: {
        'X-Request-Id': components['headers']['XRequestId'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    Error_PR_NOT_FOUND: {
      headers: {
        'X-Request-Id': components['headers']['XRequestId'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    Error_PR_NOT_IN_ACTIVE_STATE_or_PR_ALREADY_ENQUEUED: {
      headers: {
        'X-Request-Id': components['headers']['XRequestId'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    Error_PR_NOT_IN_ACTIVE_STATE: {
      headers: {
        'X-Request-Id': components['headers']['XRequestId'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    Error_PR_TESTS_NOT_RESTARTABLE: {
      headers: {
        'X-Request-Id': components['headers']['XRequestId'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    Error_VALIDATION_FAILED_or_CI_HOST_UNSUPPORTED: {
      headers: {
        'X-Request-Id': components['headers']['XRequestId'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    Error_VALIDATION_FAILED_or_INVALID_CURSOR_or_CI_HOST_UNSUPPORTED: {
      headers: {
        'X-Request-Id': components['headers']['XRequestId'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    Error_REPOSITORY_NOT_FOUND_or_CI_SCOPE_NOT_FOUND: {
      headers: {
        'X-Request-Id': components['headers']['XRequestId'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    Error_TEST_COLLECTION_NOT_FOUND: {
      headers: {
        'X-Request-Id': components['headers']['XRequestId'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    Error_TEST_CASE_NOT_FOUND: {
      headers: {
        'X-Request-Id': components['headers']['XRequestId'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    Error_TICKETING_NOT_CONFIGURED_or_TICKETING_CREDENTIALS_INVALID_or_TICKET_LINK_CONFLICT: {
      headers: {
        'X-Request-Id': components['headers']['XRequestId'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    Error_TICKET_NOT_FOUND: {
      headers: {
        'X-Request-Id': components['headers']['XRequestId'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
    Error_PROVIDER_URL_NOT_FOUND: {
      headers: {
        'X-Request-Id': components['headers']['XRequestId'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ErrorResponse'];
      };
    };
  };
  parameters: {
    limit: number;
    cursor: string;
    includeTotal: boolean;
  };
  requestBodies: never;
  headers: {
    XRequestId: string;
  };
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  'mergeQueues.list': {
    parameters: {
      query?: {
        limit?: components['parameters']['limit'];
        cursor?: components['parameters']['cursor'];
        includeTotal?: components['parameters']['includeTotal'];
        repositoryId?: string;
        targetBranch?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['MergeQueueList'];
        };
      };
      400: components['responses']['Error_VALIDATION_FAILED_or_INVALID_CURSOR'];
      401: components['responses']['Error_AUTHENTICATION_REQUIRED_or_INVALID_TOKEN'];
      403: components['responses']['Error_INSUFFICIENT_PERMISSIONS'];
      429: components['responses']['Error_RATE_LIMIT_EXCEEDED'];
      500: components['responses']['Error_INTERNAL_ERROR'];
    };
  };
  'mergeQueues.create': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateMergeQueueRequest'];
      };
    };
    responses: {
      201: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['MergeQueue'];
        };
      };
      400: components['responses']['Error_VALIDATION_FAILED'];
      401: components['responses']['Error_AUTHENTICATION_REQUIRED_or_INVALID_TOKEN'];
      403: components['responses']['Error_INSUFFICIENT_PERMISSIONS'];
      404: components['responses']['Error_REPOSITORY_NOT_FOUND'];
      409: components['responses']['Error_QUEUE_ALREADY_EXISTS'];
      422: components['responses']['Error_MERGE_QUEUE_NOT_CREATABLE'];
      429: components['responses']['Error_RATE_LIMIT_EXCEEDED'];
      500: components['responses']['Error_INTERNAL_ERROR'];
      502: components['responses']['Error_UPSTREAM_ERROR'];
    };
  };
  'mergeQueues.organizationMetrics': {
    parameters: {
      query?: {
        repositoryId?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': components['schemas']['PrometheusExposition'];
        };
      };
      400: components['responses']['Error_VALIDATION_FAILED'];
      401: components['responses']['Error_AUTHENTICATION_REQUIRED_or_INVALID_TOKEN'];
      403: components['responses']['Error_INSUFFICIENT_PERMISSIONS'];
      404: components['responses']['Error_REPOSITORY_NOT_FOUND'];
      429: components['responses']['Error_RATE_LIMIT_EXCEEDED'];
      500: components['responses']['Error_INTERNAL_ERROR'];
    };
  };
  'mergeQueues.metrics': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': components['schemas']['PrometheusExposition'];
        };
      };
      401: components['responses']['Error_AUTHENTICATION_REQUIRED_or_INVALID_TOKEN'];
      404: components['responses']['Error_MERGE_QUEUE_NOT_FOUND'];
      429: components['responses']['Error_RATE_LIMIT_EXCEEDED'];
      500: components['responses']['Error_INTERNAL_ERROR'];
    };
  };
  'mergeQueues.get': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['MergeQueue'];
        };
      };
      401: components['responses']['Error_AUTHENTICATION_REQUIRED_or_INVALID_TOKEN'];
      404: components['responses']['Error_MERGE_QUEUE_NOT_FOUND'];
      429: components['responses']['Error_RATE_LIMIT_EXCEEDED'];
      500: components['responses']['Error_INTERNAL_ERROR'];
    };
  };
  'mergeQueues.delete': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      204: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components['responses']['Error_AUTHENTICATION_REQUIRED_or_INVALID_TOKEN'];
      403: components['responses']['Error_INSUFFICIENT_PERMISSIONS'];
      404: components['responses']['Error_MERGE_QUEUE_NOT_FOUND'];
      409: components['responses']['Error_QUEUE_HAS_ACTIVE_ENTRIES'];
      429: components['responses']['Error_RATE_LIMIT_EXCEEDED'];
      500: components['responses']['Error_INTERNAL_ERROR'];
      502: components['responses']['Error_UPSTREAM_ERROR'];
    };
  };
  'mergeQueues.order': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['MergeQueueOrder'];
        };
      };
      401: components['responses']['Error_AUTHENTICATION_REQUIRED_or_INVALID_TOKEN'];
      403: components['responses']['Error_INSUFFICIENT_PERMISSIONS'];
      404: components['responses']['Error_MERGE_QUEUE_NOT_FOUND'];
      429: components['responses']['Error_RATE_LIMIT_EXCEEDED'];
      500: components['responses']['Error_INTERNAL_ERROR'];
      502: components['responses']['Error_UPSTREAM_ERROR'];
    };
  };
  'mergeQueues.graph': {
    parameters: {
      query?: {
        includeImpactedTargets?: boolean;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['MergeGraph'];
        };
      };
      400: components['responses']['Error_VALIDATION_FAILED'];
      401: components['responses']['Error_AUTHENTICATION_REQUIRED_or_INVALID_TOKEN'];
      403: components['responses']['Error_INSUFFICIENT_PERMISSIONS'];
      404: components['responses']['Error_MERGE_QUEUE_NOT_FOUND'];
      429: components['responses']['Error_RATE_LIMIT_EXCEEDED'];
      500: components['responses']['Error_INTERNAL_ERROR'];
      502: components['responses']['Error_UPSTREAM_ERROR'];
    };
  };
  'mergeQueues.listTestingResults': {
    parameters: {
      query: {
        limit?: components['parameters']['limit'];
        cursor?: components['parameters']['cursor'];
        includeTotal?: components['parameters']['includeTotal'];
        since: string;
        until?: string;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TestingResultList'];
        };
      };
      400: components['responses']['Error_VALIDATION_FAILED_or_INVALID_CURSOR'];
      401: components['responses']['Error_AUTHENTICATION_REQUIRED_or_INVALID_TOKEN'];
      403: components['responses']['Error_INSUFFICIENT_PERMISSIONS'];
      404: components['responses']['Error_MERGE_QUEUE_NOT_FOUND'];
      429: components['responses']['Error_RATE_LIMIT_EXCEEDED'];
      500: components['responses']['Error_INTERNAL_ERROR'];
      502: components['responses']['Error_UPSTREAM_ERROR'];
    };
  };
  'mergeQueues.listPullRequests': {
    parameters: {
      query?: {
        limit?: components['parameters']['limit'];
        cursor?: components['parameters']['cursor'];
        includeTotal?: components['parameters']['includeTotal'];
        state?: string;
        author?: string;
        concludedAfter?: string;
        concludedBefore?: string;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PullRequestList'];
        };
      };
      400: components['responses']['Error_VALIDATION_FAILED_or_INVALID_CURSOR'];
      401: components['responses']['Error_AUTHENTICATION_REQUIRED_or_INVALID_TOKEN'];
      403: components['responses']['Error_INSUFFICIENT_PERMISSIONS'];
      404: components['responses']['Error_MERGE_QUEUE_NOT_FOUND'];
      429: components['responses']['Error_RATE_LIMIT_EXCEEDED'];
      500: components['responses']['Error_INTERNAL_ERROR'];
    };
  };
  'mergeQueues.submitPullRequest': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['SubmitPullRequestRequest'];
      };
    };
    responses: {
      201: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PullRequest'];
        };
      };
      400: components['responses']['Error_VALIDATION_FAILED'];
      401: components['responses']['Error_AUTHENTICATION_REQUIRED_or_INVALID_TOKEN'];
      403: components['responses']['Error_INSUFFICIENT_PERMISSIONS'];
      404: components['responses']['Error_MERGE_QUEUE_NOT_FOUND'];
      409: components['responses']['Error_PR_ALREADY_ENQUEUED'];
      422: components['responses']['Error_PR_NOT_ENQUEUEABLE'];
      429: components['responses']['Error_RATE_LIMIT_EXCEEDED'];
      500: components['responses']['Error_INTERNAL_ERROR'];
      502: components['responses']['Error_UPSTREAM_ERROR'];
    };
  };
  'mergeQueues.switchModes': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['SwitchModesRequest'];
      };
    };
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['MergeQueueStateChange'];
        };
      };
      400: components['responses']['Error_VALIDATION_FAILED'];
      401: components['responses']['Error_AUTHENTICATION_REQUIRED_or_INVALID_TOKEN'];
      403: components['responses']['Error_INSUFFICIENT_PERMISSIONS'];
      404: components['responses']['Error_MERGE_QUEUE_NOT_FOUND'];
      409: components['responses']['Error_MODE_CHANGE_IN_PROGRESS'];
      429: components['responses']['Error_RATE_LIMIT_EXCEEDED'];
      500: components['responses']['Error_INTERNAL_ERROR'];
      502: components['responses']['Error_UPSTREAM_ERROR'];
    };
  };
  'mergeQueues.pause': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['MergeQueueStateChange'];
        };
      };
      400: components['responses']['Error_VALIDATION_FAILED'];
      401: components['responses']['Error_AUTHENTICATION_REQUIRED_or_INVALID_TOKEN'];
      403: components['responses']['Error_INSUFFICIENT_PERMISSIONS'];
      404: components['responses']['Error_MERGE_QUEUE_NOT_FOUND'];
      429: components['responses']['Error_RATE_LIMIT_EXCEEDED'];
      500: components['responses']['Error_INTERNAL_ERROR'];
      502: components['responses']['Error_UPSTREAM_ERROR'];
    };
  };
  'mergeQueues.resume': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['MergeQueueStateChange'];
        };
      };
      400: components['responses']['Error_VALIDATION_FAILED'];
      401: components['responses']['Error_AUTHENTICATION_REQUIRED_or_INVALID_TOKEN'];
      403: components['responses']['Error_INSUFFICIENT_PERMISSIONS'];
      404: components['responses']['Error_MERGE_QUEUE_NOT_FOUND'];
      429: components['responses']['Error_RATE_LIMIT_EXCEEDED'];
      500: components['responses']['Error_INTERNAL_ERROR'];
      502: components['responses']['Error_UPSTREAM_ERROR'];
    };
  };
  'mergeQueues.drain': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['MergeQueueStateChange'];
        };
      };
      400: components['responses']['Error_VALIDATION_FAILED'];
      401: components['responses']['Error_AUTHENTICATION_REQUIRED_or_INVALID_TOKEN'];
      403: components['responses']['Error_INSUFFICIENT_PERMISSIONS'];
      404: components['responses']['Error_MERGE_QUEUE_NOT_FOUND'];
      429: components['responses']['Error_RATE_LIMIT_EXCEEDED'];
      500: components['responses']['Error_INTERNAL_ERROR'];
      502: components['responses']['Error_UPSTREAM_ERROR'];
    };
  };
  'mergeQueues.updateConfig': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateMergeQueueConfigRequest'];
      };
    };
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['MergeQueue'];
        };
      };
      400: components['responses']['Error_VALIDATION_FAILED'];
      401: components['responses']['Error_AUTHENTICATION_REQUIRED_or_INVALID_TOKEN'];
      403: components['responses']['Error_INSUFFICIENT_PERMISSIONS'];
      404: components['responses']['Error_MERGE_QUEUE_NOT_FOUND'];
      409: components['responses']['Error_MODE_CHANGE_IN_PROGRESS'];
      422: components['responses']['Error_ALLOWED_BOT_SUBMITTERS_FROZEN'];
      429: components['responses']['Error_RATE_LIMIT_EXCEEDED'];
      500: components['responses']['Error_INTERNAL_ERROR'];
      502: components['responses']['Error_UPSTREAM_ERROR'];
    };
  };
  'impactedTargets.upload': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UploadImpactedTargetsRequest'];
      };
    };
    responses: {
      202: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components['responses']['Error_VALIDATION_FAILED'];
      401: components['responses']['Error_AUTHENTICATION_REQUIRED_or_INVALID_TOKEN'];
      403: components['responses']['Error_INSUFFICIENT_PERMISSIONS'];
      404: components['responses']['Error_REPOSITORY_NOT_FOUND_or_PR_NOT_FOUND'];
      422: components['responses']['Error_IMPACTED_TARGETS_UNSUPPORTED'];
      429: components['responses']['Error_RATE_LIMIT_EXCEEDED'];
      500: components['responses']['Error_INTERNAL_ERROR'];
      502: components['responses']['Error_UPSTREAM_ERROR'];
    };
  };
  'mergeQueueVerificationRuns.get': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['VerificationRun'];
        };
      };
      401: components['responses']['Error_AUTHENTICATION_REQUIRED_or_INVALID_TOKEN'];
      404: components['responses']['Error_VERIFICATION_RUN_NOT_FOUND'];
      429: components['responses']['Error_RATE_LIMIT_EXCEEDED'];
      500: components['responses']['Error_INTERNAL_ERROR'];
    };
  };
  'mergeQueues.listVerificationRuns': {
    parameters: {
      query?: {
        limit?: components['parameters']['limit'];
        cursor?: components['parameters']['cursor'];
        includeTotal?: components['parameters']['includeTotal'];
        status?: components['schemas']['VerificationRunStatus'] & unknown;
        createdAfter?: string;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['VerificationRunList'];
        };
      };
      400: components['responses']['Error_VALIDATION_FAILED_or_INVALID_CURSOR'];
      401: components['responses']['Error_AUTHENTICATION_REQUIRED_or_INVALID_TOKEN'];
      404: components['responses']['Error_MERGE_QUEUE_NOT_FOUND'];
      429: components['responses']['Error_RATE_LIMIT_EXCEEDED'];
      500: components['responses']['Error_INTERNAL_ERROR'];
    };
  };
  'pullRequests.listVerificationRuns': {
    parameters: {
      query?: {
        limit?: components['parameters']['limit'];
        cursor?: components['parameters']['cursor'];
        includeTotal?: components['parameters']['includeTotal'];
        status?: components['schemas']['VerificationRunStatus'] & unknown;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['VerificationRunList'];
        };
      };
      400: components['responses']['Error_VALIDATION_FAILED_or_INVALID_CURSOR'];
      401: components['responses']['Error_AUTHENTICATION_REQUIRED_or_INVALID_TOKEN'];
      404: components['responses']['Error_PR_NOT_FOUND'];
      429: components['responses']['Error_RATE_LIMIT_EXCEEDED'];
      500: components['responses']['Error_INTERNAL_ERROR'];
    };
  };
  'pullRequests.queueEntryHistory': {
    parameters: {
      query?: {
        limit?: components['parameters']['limit'];
        cursor?: components['parameters']['cursor'];
        includeTotal?: components['parameters']['includeTotal'];
        direction?: 'oldest' | 'newest';
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['QueueEntryHistoryList'];
        };
      };
      400: components['responses']['Error_VALIDATION_FAILED_or_INVALID_CURSOR'];
      401: components['responses']['Error_AUTHENTICATION_REQUIRED_or_INVALID_TOKEN'];
      404: components['responses']['Error_PR_NOT_FOUND'];
      429: components['responses']['Error_RATE_LIMIT_EXCEEDED'];
      500: components['responses']['Error_INTERNAL_ERROR'];
    };
  };
  'pullRequests.queueEntryHistoryBatch': {
    parameters: {
      query: {
        limit?: components['parameters']['limit'];
        cursor?: components['parameters']['cursor'];
        includeTotal?: components['parameters']['includeTotal'];
        direction?: 'oldest' | 'newest';
        pullRequestIds: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['BatchQueueEntryHistoryList'];
        };
      };
      400: components['responses']['Error_VALIDATION_FAILED_or_INVALID_CURSOR'];
      401: components['responses']['Error_AUTHENTICATION_REQUIRED_or_INVALID_TOKEN'];
      403: components['responses']['Error_INSUFFICIENT_PERMISSIONS'];
      429: components['responses']['Error_RATE_LIMIT_EXCEEDED'];
      500: components['responses']['Error_INTERNAL_ERROR'];
    };
  };
  'pullRequests.resolveByCoordinates': {
    parameters: {
      query: {
        limit?: components['parameters']['limit'];
        cursor?: components['parameters']['cursor'];
        includeTotal?: components['parameters']['includeTotal'];
        repositoryId: string;
        number?: string;
        branch?: string;
        baseBranch?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PullRequestList'];
        };
      };
      400: components['responses']['Error_VALIDATION_FAILED_or_INVALID_CURSOR'];
      401: components['responses']['Error_AUTHENTICATION_REQUIRED_or_INVALID_TOKEN'];
      403: components['responses']['Error_INSUFFICIENT_PERMISSIONS'];
      429: components['responses']['Error_RATE_LIMIT_EXCEEDED'];
      500: components['responses']['Error_INTERNAL_ERROR'];
    };
  };
  'pullRequests.get': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PullRequest'];
        };
      };
      400: components['responses']['Error_VALIDATION_FAILED'];
      401: components['responses']['Error_AUTHENTICATION_REQUIRED_or_INVALID_TOKEN'];
      403: components['responses']['Error_INSUFFICIENT_PERMISSIONS'];
      404: components['responses']['Error_PR_NOT_FOUND'];
      429: components['responses']['Error_RATE_LIMIT_EXCEEDED'];
      500: components['responses']['Error_INTERNAL_ERROR'];
    };
  };
  'pullRequests.reprioritize': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ReprioritizeRequest'];
      };
    };
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PullRequest'];
        };
      };
      400: components['responses']['Error_VALIDATION_FAILED'];
      401: components['responses']['Error_AUTHENTICATION_REQUIRED_or_INVALID_TOKEN'];
      403: components['responses']['Error_INSUFFICIENT_PERMISSIONS'];
      404: components['responses']['Error_PR_NOT_FOUND'];
      409: components['responses']['Error_PR_NOT_IN_ACTIVE_STATE_or_PR_ALREADY_ENQUEUED'];
      422: components['responses']['Error_PR_NOT_ENQUEUEABLE'];
      429: components['responses']['Error_RATE_LIMIT_EXCEEDED'];
      500: components['responses']['Error_INTERNAL_ERROR'];
      502: components['responses']['Error_UPSTREAM_ERROR'];
    };
  };
  'pullRequests.updateQueueEntry': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateQueueEntryRequest'];
      };
    };
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PullRequest'];
        };
      };
      400: components['responses']['Error_VALIDATION_FAILED'];
      401: components['responses']['Error_AUTHENTICATION_REQUIRED_or_INVALID_TOKEN'];
      403: components['responses']['Error_INSUFFICIENT_PERMISSIONS'];
      404: components['responses']['Error_PR_NOT_FOUND'];
      409: components['responses']['Error_PR_NOT_IN_ACTIVE_STATE_or_PR_ALREADY_ENQUEUED'];
      422: components['responses']['Error_PR_NOT_ENQUEUEABLE'];
      429: components['responses']['Error_RATE_LIMIT_EXCEEDED'];
      500: components['responses']['Error_INTERNAL_ERROR'];
      502: components['responses']['Error_UPSTREAM_ERROR'];
    };
  };
  'pullRequests.dequeue': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PullRequest'];
        };
      };
      400: components['responses']['Error_VALIDATION_FAILED'];
      401: components['responses']['Error_AUTHENTICATION_REQUIRED_or_INVALID_TOKEN'];
      403: components['responses']['Error_INSUFFICIENT_PERMISSIONS'];
      404: components['responses']['Error_PR_NOT_FOUND'];
      409: components['responses']['Error_PR_NOT_IN_ACTIVE_STATE'];
      429: components['responses']['Error_RATE_LIMIT_EXCEEDED'];
      500: components['responses']['Error_INTERNAL_ERROR'];
      502: components['responses']['Error_UPSTREAM_ERROR'];
    };
  };
  'pullRequests.restartTests': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PullRequest'];
        };
      };
      400: components['responses']['Error_VALIDATION_FAILED'];
      401: components['responses']['Error_AUTHENTICATION_REQUIRED_or_INVALID_TOKEN'];
      403: components['responses']['Error_INSUFFICIENT_PERMISSIONS'];
      404: components['responses']['Error_PR_NOT_FOUND'];
      409: components['responses']['Error_PR_NOT_IN_ACTIVE_STATE'];
      422: components['responses']['Error_PR_TESTS_NOT_RESTARTABLE'];
      429: components['responses']['Error_RATE_LIMIT_EXCEEDED'];
      500: components['responses']['Error_INTERNAL_ERROR'];
      502: components['responses']['Error_UPSTREAM_ERROR'];
    };
  };
  'dynamicCi.generatePlan': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CiPlanRequest'];
      };
    };
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CiPlan'];
        };
      };
      400: components['responses']['Error_VALIDATION_FAILED_or_CI_HOST_UNSUPPORTED'];
      401: components['responses']['Error_AUTHENTICATION_REQUIRED_or_INVALID_TOKEN'];
      404: components['responses']['Error_REPOSITORY_NOT_FOUND'];
      429: components['responses']['Error_RATE_LIMIT_EXCEEDED'];
      500: components['responses']['Error_INTERNAL_ERROR'];
      502: components['responses']['Error_UPSTREAM_ERROR'];
    };
  };
  'dynamicCi.generateBuildkitePlan': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['BuildkitePlanRequest'];
      };
    };
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CiPlan'];
        };
      };
      400: components['responses']['Error_VALIDATION_FAILED_or_CI_HOST_UNSUPPORTED'];
      401: components['responses']['Error_AUTHENTICATION_REQUIRED_or_INVALID_TOKEN'];
      404: components['responses']['Error_REPOSITORY_NOT_FOUND'];
      429: components['responses']['Error_RATE_LIMIT_EXCEEDED'];
      500: components['responses']['Error_INTERNAL_ERROR'];
      502: components['responses']['Error_UPSTREAM_ERROR'];
    };
  };
  'dynamicCi.listPrJobs': {
    parameters: {
      query: {
        limit?: components['parameters']['limit'];
        cursor?: components['parameters']['cursor'];
        includeTotal?: components['parameters']['includeTotal'];
        host?: string;
        owner: string;
        name: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CiWorkflowList'];
        };
      };
      400: components['responses']['Error_VALIDATION_FAILED_or_INVALID_CURSOR_or_CI_HOST_UNSUPPORTED'];
      401: components['responses']['Error_AUTHENTICATION_REQUIRED_or_INVALID_TOKEN'];
      404: components['responses']['Error_REPOSITORY_NOT_FOUND'];
      429: components['responses']['Error_RATE_LIMIT_EXCEEDED'];
      500: components['responses']['Error_INTERNAL_ERROR'];
    };
  };
  'dynamicCi.listForceOverrides': {
    parameters: {
      query: {
        limit?: components['parameters']['limit'];
        cursor?: components['parameters']['cursor'];
        includeTotal?: components['parameters']['includeTotal'];
        host?: string;
        owner: string;
        name: string;
        prNumber: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ForceOverrideList'];
        };
      };
      400: components['responses']['Error_VALIDATION_FAILED_or_INVALID_CURSOR_or_CI_HOST_UNSUPPORTED'];
      401: components['responses']['Error_AUTHENTICATION_REQUIRED_or_INVALID_TOKEN'];
      404: components['responses']['Error_REPOSITORY_NOT_FOUND'];
      429: components['responses']['Error_RATE_LIMIT_EXCEEDED'];
      500: components['responses']['Error_INTERNAL_ERROR'];
    };
  };
  'dynamicCi.setForceOverrides': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['SetForceOverridesRequest'];
      };
    };
    responses: {
      204: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components['responses']['Error_VALIDATION_FAILED_or_CI_HOST_UNSUPPORTED'];
      401: components['responses']['Error_AUTHENTICATION_REQUIRED_or_INVALID_TOKEN'];
      404: components['responses']['Error_REPOSITORY_NOT_FOUND_or_CI_SCOPE_NOT_FOUND'];
      429: components['responses']['Error_RATE_LIMIT_EXCEEDED'];
      500: components['responses']['Error_INTERNAL_ERROR'];
    };
  };
  'testCollections.list': {
    parameters: {
      query?: {
        limit?: components['parameters']['limit'];
        cursor?: components['parameters']['cursor'];
        includeTotal?: components['parameters']['includeTotal'];
        q?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TestCollectionList'];
        };
      };
      400: components['responses']['Error_VALIDATION_FAILED_or_INVALID_CURSOR'];
      401: components['responses']['Error_AUTHENTICATION_REQUIRED_or_INVALID_TOKEN'];
      403: components['responses']['Error_INSUFFICIENT_PERMISSIONS'];
      429: components['responses']['Error_RATE_LIMIT_EXCEEDED'];
      500: components['responses']['Error_INTERNAL_ERROR'];
    };
  };
  'testCollections.create': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateTestCollectionRequest'];
      };
    };
    responses: {
      201: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TestCollection'];
        };
      };
      400: components['responses']['Error_VALIDATION_FAILED'];
      401: components['responses']['Error_AUTHENTICATION_REQUIRED_or_INVALID_TOKEN'];
      403: components['responses']['Error_INSUFFICIENT_PERMISSIONS'];
      429: components['responses']['Error_RATE_LIMIT_EXCEEDED'];
      500: components['responses']['Error_INTERNAL_ERROR'];
    };
  };
  'testCollections.get': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TestCollection'];
        };
      };
      400: components['responses']['Error_VALIDATION_FAILED'];
      401: components['responses']['Error_AUTHENTICATION_REQUIRED_or_INVALID_TOKEN'];
      404: components['responses']['Error_TEST_COLLECTION_NOT_FOUND'];
      429: components['responses']['Error_RATE_LIMIT_EXCEEDED'];
      500: components['responses']['Error_INTERNAL_ERROR'];
    };
  };
  'testCases.get': {
    parameters: {
      query?: {
        include?: 'metrics';
        period?: '1d' | '7d' | '14d' | '30d';
      };
      header?: never;
      path: {
        testCaseId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TestCase'];
        };
      };
      400: components['responses']['Error_VALIDATION_FAILED'];
      401: components['responses']['Error_AUTHENTICATION_REQUIRED_or_INVALID_TOKEN'];
      404: components['responses']['Error_TEST_CASE_NOT_FOUND'];
      429: components['responses']['Error_RATE_LIMIT_EXCEEDED'];
      500: components['responses']['Error_INTERNAL_ERROR'];
    };
  };
  'testCases.list': {
    parameters: {
      query?: {
        limit?: components['parameters']['limit'];
        cursor?: components['parameters']['cursor'];
        includeTotal?: components['parameters']['includeTotal'];
        testCollectionId?: string;
        status?: string;
        q?: string;
        file?: string;
        owner?: string;
        variant?: string;
        include?: 'metrics';
        label?: string;
        quarantineState?: 'quarantined' | 'notQuarantined';
        markedFlaky?: boolean;
        newlyFlaky?: boolean;
        period?: '1d' | '7d' | '14d' | '30d';
        sort?: 'name' | 'failureRate' | 'durationP95' | 'prsImpacted' | 'lastRunAt' | 'lastFailureAt';
        direction?: 'asc' | 'desc';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TestCaseList'];
        };
      };
      400: components['responses']['Error_VALIDATION_FAILED_or_INVALID_CURSOR'];
      401: components['responses']['Error_AUTHENTICATION_REQUIRED_or_INVALID_TOKEN'];
      403: components['responses']['Error_INSUFFICIENT_PERMISSIONS'];
      429: components['responses']['Error_RATE_LIMIT_EXCEEDED'];
      500: components['responses']['Error_INTERNAL_ERROR'];
    };
  };
  'testCases.listStatusHistory': {
    parameters: {
      query?: {
        limit?: components['parameters']['limit'];
        cursor?: components['parameters']['cursor'];
        includeTotal?: components['parameters']['includeTotal'];
        startedAfter?: string;
        startedBefore?: string;
      };
      header?: never;
      path: {
        testCaseId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['StatusHistoryEntryList'];
        };
      };
      400: components['responses']['Error_VALIDATION_FAILED_or_INVALID_CURSOR'];
      401: components['responses']['Error_AUTHENTICATION_REQUIRED_or_INVALID_TOKEN'];
      404: components['responses']['Error_TEST_CASE_NOT_FOUND'];
      429: components['responses']['Error_RATE_LIMIT_EXCEEDED'];
      500: components['responses']['Error_INTERNAL_ERROR'];
    };
  };
  'testCases.listTestRuns': {
    parameters: {
      query?: {
        limit?: components['parameters']['limit'];
        cursor?: components['parameters']['cursor'];
        includeTotal?: components['parameters']['includeTotal'];
        conclusion?: 'success' | 'failure' | 'skipped';
        branches?: string;
        pullRequestOnly?: boolean;
        quarantineState?: 'quarantined' | 'notQuarantined';
        startedAfter?: string;
        startedBefore?: string;
      };
      header?: never;
      path: {
        testCaseId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TestRunList'];
        };
      };
      400: components['responses']['Error_VALIDATION_FAILED_or_INVALID_CURSOR'];
      401: components['responses']['Error_AUTHENTICATION_REQUIRED_or_INVALID_TOKEN'];
      404: components['responses']['Error_TEST_CASE_NOT_FOUND'];
      429: components['responses']['Error_RATE_LIMIT_EXCEEDED'];
      500: components['responses']['Error_INTERNAL_ERROR'];
    };
  };
  'testCases.linkTicket': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        testCaseId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['LinkTicketRequest'];
      };
    };
    responses: {
      201: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Ticket'];
        };
      };
      400: components['responses']['Error_VALIDATION_FAILED'];
      401: components['responses']['Error_AUTHENTICATION_REQUIRED_or_INVALID_TOKEN'];
      403: components['responses']['Error_INSUFFICIENT_PERMISSIONS'];
      404: components['responses']['Error_TEST_CASE_NOT_FOUND'];
      409: components['responses']['Error_TICKETING_NOT_CONFIGURED_or_TICKETING_CREDENTIALS_INVALID_or_TICKET_LINK_CONFLICT'];
      422: components['responses']['Error_TICKET_NOT_FOUND'];
      429: components['responses']['Error_RATE_LIMIT_EXCEEDED'];
      500: components['responses']['Error_INTERNAL_ERROR'];
      502: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          'Retry-After'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponse'];
        };
      };
      504: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  'repositories.resolveByProviderUrl': {
    parameters: {
      query: {
        limit?: components['parameters']['limit'];
        cursor?: components['parameters']['cursor'];
        includeTotal?: components['parameters']['includeTotal'];
        providerUrl: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RepositoryList'];
        };
      };
      400: components['responses']['Error_VALIDATION_FAILED_or_INVALID_CURSOR'];
      401: components['responses']['Error_AUTHENTICATION_REQUIRED_or_INVALID_TOKEN'];
      403: components['responses']['Error_INSUFFICIENT_PERMISSIONS'];
      404: components['responses']['Error_PROVIDER_URL_NOT_FOUND'];
      429: components['responses']['Error_RATE_LIMIT_EXCEEDED'];
      500: components['responses']['Error_INTERNAL_ERROR'];
    };
  };
  'repositories.get': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['XRequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Repository'];
        };
      };
      400: components['responses']['Error_VALIDATION_FAILED'];
      401: components['responses']['Error_AUTHENTICATION_REQUIRED_or_INVALID_TOKEN'];
      404: components['responses']['Error_REPOSITORY_NOT_FOUND'];
      429: components['responses']['Error_RATE_LIMIT_EXCEEDED'];
      500: components['responses']['Error_INTERNAL_ERROR'];
    };
  };
}

// v2 answers in the v1 shapes the operations read (the mapping of API-V2-NOTES' table, in our code):
// a pull request and its queue entry as one flat record, a queue's config as v1's settings, a
// verification run as v1's testing details. Enums go through the tables of wire/v2/from-v1.ts. Each
// function takes the v2 answer as its shape was checked and returns v1's answer type: a field v1 always
// has and the v2 answer may lack is a type error here, not a second check at run time.
import type {
  EnqueuedPullRequest,
  QueueConfiguration,
  SubmittedPullRequest,
  TestingDetails,
} from '../../../wire/index.js';
import {
  CHECK_CONCLUSION_V1,
  CHECK_STATUS_V1,
  MERGE_METHOD_V1,
  MERGEABILITY_V1,
  OPTIMIZATION_MODE_V1,
  QUEUE_ENTRY_STATE_V1,
  QUEUE_MODE_V1,
  QUEUE_STATE_V1,
  REQUIRED_STATUSES_SOURCE_V1,
  STATUS_CHECK_STATE_V1,
  VERIFICATION_RUN_STATUS_V1,
  toV1,
  type V2,
} from '../../../wire/v2/index.js';

type PullRequest = V2<'PullRequest'>;
type QueueEntry = V2<'QueueEntry'>;

/** The fields v1's queue and list answers carry for each PR. */
export function enqueuedPullRequestV1(pr: PullRequest): EnqueuedPullRequest {
  const entry: Partial<QueueEntry> = pr.queueEntry ?? {};
  return {
    ...(entry.id ? { id: entry.id } : {}),
    ...(entry.state ? { state: toV1(QUEUE_ENTRY_STATE_V1, entry.state) } : {}),
    stateChangedAt: entry.stateChangedAt ?? pr.createdAt,
    priorityValue: entry.priorityValue ?? 100,
    priorityName: entry.priorityName ?? 'medium',
    ...(entry.usedDefaultPriorityName ? { usedDefaultPriorityName: entry.usedDefaultPriorityName } : {}),
    skipTheLine: entry.skipsTheLine ?? false,
    noBatch: entry.allowBatching === false,
    prNumber: pr.number,
    prTitle: pr.title,
    prSha: pr.sha,
    prBaseBranch: pr.baseBranch,
    prAuthor: pr.author,
  };
}

/** getSubmittedPullRequest's answer. */
export function submittedPullRequestV1(pr: PullRequest): SubmittedPullRequest {
  const entry: Partial<QueueEntry> = pr.queueEntry ?? {};
  const readiness = entry.readiness;
  return {
    ...enqueuedPullRequestV1(pr),
    ...(readiness
      ? {
          readiness: {
            ...(readiness.hasImpactedTargets !== undefined
              ? { hasImpactedTargets: readiness.hasImpactedTargets }
              : {}),
            requiresImpactedTargets: readiness.requiresImpactedTargets,
            doesBaseBranchMatch: readiness.doesBaseBranchMatch,
            gitHubMergeability: toV1(MERGEABILITY_V1, readiness.mergeability),
          },
        }
      : {}),
    forceEnqueued: entry.direct ?? false,
    isCurrentlySubmittedToQueue: pr.isCurrentlySubmittedToQueue,
    verifiedByTestRun: entry.verifiedByVerificationRunId ?? null,
  };
}

/** A queue's state, mode and config as v1's settings (getQueue and updateQueue answer these). */
export function queueConfigurationV1(queue: V2<'MergeQueue'>): QueueConfiguration {
  const config = queue.config;
  return {
    state: toV1(QUEUE_STATE_V1, queue.state),
    branch: queue.targetBranch,
    concurrency: config.concurrency,
    testingTimeoutMinutes: config.testingTimeoutMinutes,
    mode: toV1(QUEUE_MODE_V1, queue.mode),
    canOptimisticallyMerge: config.canOptimisticallyMerge,
    pendingFailureDepth: config.pendingFailureDepth,
    batch: config.allowBatching,
    batchingMaxWaitTimeMinutes: config.batchingMaxWaitTimeMinutes,
    batchingMinSize: config.batchingMinSize,
    createPrsForTestingBranches: config.createsPrsForTestingBranches,
    commentsEnabled: config.areCommentsEnabled,
    commandsEnabled: config.areCommandsEnabled,
    statusCheckEnabled: config.isStatusCheckEnabled,
    bisectionConcurrency: config.bisectionConcurrency,
    requiredStatuses: config.requiredStatuses,
    directMergeMode: config.directMergeMode,
    optimizationMode: toV1(OPTIMIZATION_MODE_V1, config.optimizationMode),
    mergeMethod: toV1(MERGE_METHOD_V1, config.mergeMethod),
  };
}

/**
 * v1's enqueuedPullRequests: the PRs of the dispatch order (the running batches, then the pending line,
 * then those awaiting admission), each with its entry's details from the queue's active list. A PR not
 * ready yet is in neither, as it was not in v1's line.
 */
export function enqueuedInOrder(active: PullRequest[], order: V2<'MergeQueueOrder'>): EnqueuedPullRequest[] {
  const byNumber = new Map(active.map((pr) => [pr.number, pr]));
  const ranked = [
    ...order.batches.flatMap((batch) => batch.pullRequests),
    ...order.pending.map((item) => item.pullRequest),
    ...order.awaitingAdmission,
  ];
  const seen = new Set<number>();
  const line: EnqueuedPullRequest[] = [];
  for (const { number } of ranked) {
    const pr = byNumber.get(number);
    if (!pr || seen.has(number)) continue;
    seen.add(number);
    line.push(enqueuedPullRequestV1(pr));
  }
  return line;
}

type CheckRun = TestingDetails['checkSuites'][number]['checkRuns'][number];

/**
 * GitHub's own spelling of a check's status or conclusion, as v1 passed it on: v1 documents fewer values
 * than GitHub has (PENDING, WAITING, ...), and its tolerant read keeps the others as they came.
 */
function githubs<T extends string | undefined>(value: string | undefined): T | undefined {
  return value as T | undefined;
}

/** getMergeQueueTestingDetails' answer: v2's normalized checks split back into check runs and statuses. */
export function testingDetailsV1(run: V2<'VerificationRun'>): TestingDetails {
  const checkRuns = run.checks
    .filter((check) => check.kind === 'checkRun')
    .map((check) => ({
      name: check.name,
      url: check.url ?? '',
      status: githubs<CheckRun['status']>(check.providerStatus) ?? toV1(CHECK_STATUS_V1, check.status),
      ...(check.status === 'completed'
        ? {
            conclusion:
              githubs<CheckRun['conclusion']>(check.providerConclusion) ??
              toV1(CHECK_CONCLUSION_V1, check.conclusion),
          }
        : {}),
    }));
  const statusChecks = run.checks
    .filter((check) => check.kind === 'statusCheck')
    .map((check) => ({
      context: check.name,
      ...(check.url ? { url: check.url } : {}),
      state: check.status === 'completed' ? toV1(STATUS_CHECK_STATE_V1, check.conclusion) : 'PENDING',
    }));
  const targets = (set: V2<'ImpactedTargetSet'> | undefined) =>
    set ? (set.impactsAllTargets ? ['ALL'] : set.impactedTargets) : undefined;
  const all = targets(run.impactedTargets?.all);
  const testedOnly = targets(run.impactedTargets?.testedPullRequestsOnly);
  return {
    requiredStatuses: run.requiredStatuses,
    ...(run.requiredStatusesSource
      ? { requiredStatusesSource: toV1(REQUIRED_STATUSES_SOURCE_V1, run.requiredStatusesSource) }
      : {}),
    testBranch: run.testBranch,
    testBranchSha: run.testBranchSha,
    createdAt: run.createdAt,
    status: toV1(VERIFICATION_RUN_STATUS_V1, run.status),
    checkSuites: checkRuns.length ? [{ checkRuns }] : [],
    statusChecks,
    testedPullRequests: run.testedPullRequests.map((pr) => ({
      prNumber: pr.number,
      prUrl: pr.url ?? '',
      title: pr.title,
    })),
    ...(all ? { impactedTargets: all } : {}),
    ...(testedOnly ? { impactedTargetsForTestedPrs: testedOnly } : {}),
    dependentPrs: run.dependentPullRequests.map((pr) => pr.number),
  };
}

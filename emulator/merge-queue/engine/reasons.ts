// Why a PR is in its state, as `reason` in history and as the reason field of its webhook. The names are
// the service's (the spec's webhook enums); only the two not-ready reasons are the emulator's own, since
// no webhook announces a PR leaving the line.
import type {
  CancellationReason,
  FailureReason,
  MergedReason,
  QueuedReason,
  SubmittedReason,
} from '../../../src/wire/index.js';

export const REASONS = {
  submittedByApi: 'API_REQUESTED',
  nowReady: 'MERGE_ITEM_NOW_READY',
  testRunFailed: 'TEST_RUN_REQUIRED_STATUS_FAILED',
  testRunTimeout: 'TEST_RUN_TIMEOUT',
  failedByOptimization: 'TEST_RUN_FAILED_BY_OPTIMIZATION',
  mergeConflict: 'START_TEST_RUN_MERGE_CONFLICT',
  draftNotAllowed: 'START_TEST_RUN_DRAFT_PRS_NOT_ALLOWED',
  mergeFailed: 'GITHUB_API_MERGE_PR_FAILED',
  directMergeFailed: 'GITHUB_API_DIRECT_MERGE_PR_FAILED',
  updatedAtMergeTime: 'PR_UPDATED_AT_MERGE_TIME',
  targetBranchPushed: 'MANUAL_PUSH_TO_TARGET_BRANCH',
  prerequisiteFailed: 'PREREQUISITE_MERGE_ITEM_FAILED',
  prerequisiteCancelled: 'PREREQUISITE_MERGE_ITEM_CANCELLED',
  skipTheLineInterrupted: 'SKIP_THE_LINE_INTERRUPTED',
  restartedByApi: 'TESTS_RESTARTED_BY_API_REQUEST',
  restartedByUser: 'TESTS_RESTARTED_BY_USER',
  cancelledByUser: 'USER_REQUESTED',
  pushedTo: 'PR_PUSHED_TO',
  closed: 'PR_CLOSED',
  baseBranchChanged: 'PR_BASE_BRANCH_CHANGED',
  convertedToDraft: 'PR_CONVERTED_TO_DRAFT',
  bisectionRequired: 'BISECTION_REQUIRED',
  bisectionPassed: 'BISECTION_TEST_RUN_PASSED',
  merged: 'MERGE_GRAPH_MERGE',
  directMerged: 'MERGE_GRAPH_DIRECT_MERGE',
  /** History only: the PR left the line because it stopped being ready (mergeability, base branch). */
  notReady: 'NOT_READY',
} as const satisfies Record<
  string,
  SubmittedReason | QueuedReason | FailureReason | MergedReason | CancellationReason | 'NOT_READY'
>;

// Why a PR is in its state, as `reason` in history and as the reason field of its webhook. The names are
// the service's (the spec's webhook enums); only the two not-ready reasons are the emulator's own, since
// no webhook announces a PR leaving the line.
import type {
  CancellationReason,
  FailureReason,
  MergedReason,
  QueuedReason,
  SubmittedReason,
} from '../wire/index.js';

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

type ReasonCode = (typeof REASONS)[keyof typeof REASONS];

/** Each reason as a person reads it (the page shows these, with the code on hover). */
const REASON_WORDS: Record<ReasonCode, string> = {
  API_REQUESTED: 'submitted through the API',
  MERGE_ITEM_NOW_READY: 'ready, entered the line',
  TEST_RUN_REQUIRED_STATUS_FAILED: 'a required check failed',
  TEST_RUN_TIMEOUT: 'its test run timed out',
  TEST_RUN_FAILED_BY_OPTIMIZATION: 'failed without a run: the same PRs already failed together',
  START_TEST_RUN_MERGE_CONFLICT: 'conflicts with the PRs ahead of it',
  START_TEST_RUN_DRAFT_PRS_NOT_ALLOWED: 'a draft, which the queue does not test',
  GITHUB_API_MERGE_PR_FAILED: 'the code host refused to merge it',
  GITHUB_API_DIRECT_MERGE_PR_FAILED: 'the code host refused to merge it directly',
  PR_UPDATED_AT_MERGE_TIME: 'updated while it was being merged',
  MANUAL_PUSH_TO_TARGET_BRANCH: 'restarted: the target branch moved outside the queue',
  PREREQUISITE_MERGE_ITEM_FAILED: 'a PR ahead of it failed',
  PREREQUISITE_MERGE_ITEM_CANCELLED: 'a PR ahead of it was cancelled',
  SKIP_THE_LINE_INTERRUPTED: 'restarted: an urgent PR went ahead',
  TESTS_RESTARTED_BY_API_REQUEST: 'tests restarted through the API',
  TESTS_RESTARTED_BY_USER: 'tests restarted by a person',
  USER_REQUESTED: 'cancelled on request',
  PR_PUSHED_TO: 'new commits were pushed to it',
  PR_CLOSED: 'the PR was closed',
  PR_BASE_BRANCH_CHANGED: 'its base branch changed',
  PR_CONVERTED_TO_DRAFT: 'it became a draft',
  BISECTION_REQUIRED: 'its batch failed: tested in smaller groups',
  BISECTION_TEST_RUN_PASSED: 'cleared: its group passed',
  MERGE_GRAPH_MERGE: 'merged by the queue',
  MERGE_GRAPH_DIRECT_MERGE: 'merged directly, with nothing ahead to test on',
  NOT_READY: 'left the line: no longer ready to merge',
};

/** A reason in words; a code the emulator has no words for is spelled out rather than shown raw. */
export function reasonInWords(code: string): string {
  return REASON_WORDS[code as ReasonCode] ?? code.toLowerCase().replace(/_+/g, ' ').trim();
}

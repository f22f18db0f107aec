// v2's enums and transition reasons in words a person reads: "failed: a required check failed",
// "sent back: a PR it was tested on top of failed", "by @octocat". Unknown values (the service may add
// some) are spelled out from their own words rather than dropped.
import { QUEUE_ENTRY_STATE_V1, toV1 } from '../../../../wire/v2/index.js';

const STATE_WORDS: Record<string, string> = {
  notReady: 'not ready',
  pending: 'pending',
  testing: 'testing',
  testsPassed: 'tests passed',
  pendingFailure: 'failed, waiting on the PRs ahead',
  merged: 'merged',
  failed: 'failed',
  cancelled: 'cancelled',
};

const REASON_WORDS: Record<string, string> = {
  USER_REQUESTED: 'someone asked for it',
  TRUNK_ADMIN_REQUESTED: 'a Trunk admin asked for it',
  API_REQUESTED: 'an API call asked for it',
  TESTS_RESTARTED_BY_USER: 'someone restarted its tests',
  TESTS_RESTARTED_BY_API_REQUEST: 'an API call restarted its tests',
  MERGE_ITEM_NOW_READY: 'it became ready',
  MANUAL_PUSH_TO_TARGET_BRANCH: 'someone pushed to the target branch',
  PREREQUISITE_MERGE_ITEM_FAILED: 'a PR it was tested on top of failed',
  PREREQUISITE_MERGE_ITEM_CANCELLED: 'a PR it was tested on top of was cancelled',
  PREREQUISITE_MERGE_ITEM_MANUALLY_MERGED: 'a PR it was tested on top of was merged by hand',
  SKIP_THE_LINE_INTERRUPTED: 'an urgent PR skipped the line',
  BISECTION_REQUIRED: 'its batch failed and is being split to find the culprit',
  BISECTION_TEST_RUN_PASSED: 'its part of a split batch passed',
  TEST_RUN_PASSED: 'its test run passed',
  SUCCESSOR_TEST_RUN_PASSED: 'a run that includes it passed',
  PASSED_BY_OPTIMIZATION: 'passed by an optimization',
  TEST_RUN_REQUIRED_STATUS_FAILED: 'a required check failed',
  TEST_RUN_TIMEOUT: 'its test run timed out',
  TEST_RUN_FAILED_BY_OPTIMIZATION: 'failed by an optimization',
  START_TEST_RUN_MERGE_CONFLICT: 'it conflicts with the target branch',
  START_TEST_RUN_NO_REQUIRED_STATUSES: 'the queue has no required statuses',
  START_TEST_RUN_DRAFT_PRS_NOT_ALLOWED: 'it is a draft',
  PR_UPDATED_AT_MERGE_TIME: 'the PR changed as it was being merged',
  PR_CLOSED: 'the PR was closed',
  PR_MERGED_INTO_OTHER_BRANCH: 'the PR was merged into another branch',
  PR_PUSHED_TO: 'the PR was pushed to',
  PR_BASE_BRANCH_CHANGED: "the PR's base branch changed",
  PR_CONVERTED_TO_DRAFT: 'the PR became a draft',
  NOT_READY_TIMEOUT_EXPIRED: 'it stayed not ready too long',
  MERGE_GRAPH_MERGE: 'merged by the queue',
  MERGE_GRAPH_DIRECT_MERGE: 'merged directly',
  MANUAL_MERGE: 'merged by hand',
};

const RUN_STATUS_WORDS: Record<string, string> = {
  inProgress: 'in progress',
  failed: 'failed',
  cancelled: 'cancelled',
  succeeded: 'succeeded',
};

const REQUIRED_FROM_WORDS: Record<string, string> = {
  trunkConfig: "the repository's Trunk config",
  repoProviderBranchProtection: "the target branch's protection rules on GitHub",
  mergeInstance: "the queue's settings",
};

/** A camelCase value in words, for a value this version does not know: "switchingModes" -> "switching modes". */
function spelledOut(value: string): string {
  return value
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase()
    .slice(0, 80);
}

export function stateWords(state: unknown): string {
  if (typeof state !== 'string' || !state) return '';
  return STATE_WORDS[state] ?? spelledOut(state);
}

/** A transition's reason in words; '' when it has none (testing, pendingFailure). */
export function reasonWords(reason: unknown): string {
  if (typeof reason !== 'string' || !reason) return '';
  return REASON_WORDS[reason] ?? spelledOut(reason);
}

export function runStatusWords(status: unknown): string {
  if (typeof status !== 'string' || !status) return '';
  return RUN_STATUS_WORDS[status] ?? spelledOut(status);
}

/** Where a run's required statuses came from, in words. */
export function requiredFromWords(source: unknown): string {
  if (typeof source !== 'string' || !source) return '';
  return REQUIRED_FROM_WORDS[source] ?? spelledOut(source);
}

/** Who caused a step: "@login", or "a Trunk user" when only their id is known; '' when no person did. */
export function actorWords(actor: { gitHubLogin?: string; trunkUserId?: string } | undefined): string {
  if (actor?.gitHubLogin) return `@${actor.gitHubLogin.slice(0, 60)}`;
  return actor?.trunkUserId ? 'a Trunk user' : '';
}

/** The output spelling of a v2 state, as v1's outputs spell it: testsPassed -> TESTS_PASSED. */
export function stateOutputOf(state: unknown): string {
  return toV1(QUEUE_ENTRY_STATE_V1, state)?.toUpperCase() ?? '';
}

// Every enum of the v1 wire, with the values the service writes today (lowercase unless the spec says
// otherwise). Readers compare case-insensitively and keep values they do not know (see tolerant.ts).

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
export const GITHUB_MERGEABILITY = ['unspecified', 'in_progress', 'mergeable', 'not_mergeable'] as const;
export type GitHubMergeability = (typeof GITHUB_MERGEABILITY)[number];

/** Named priorities of the service; a number 0..255 is accepted too (0 is the highest). */
export const PRIORITY_NAMES = { urgent: 0, high: 10, medium: 100, low: 200 } as const;
export type PriorityName = keyof typeof PRIORITY_NAMES;
export const LOWEST_PRIORITY = 255;

// Testing details
export const REQUIRED_STATUSES_SOURCES = [
  'trunk_config',
  'repo_provider_branch_protection',
  'merge_instance',
] as const;
export const TEST_RUN_STATUSES = ['in_progress', 'failed', 'cancelled', 'succeeded'] as const;
export type TestRunStatus = (typeof TEST_RUN_STATUSES)[number];
/** GitHub's own enums, UPPERCASE on this wire. */
export const CHECK_RUN_STATUSES = ['QUEUED', 'IN_PROGRESS', 'COMPLETED'] as const;
export const CHECK_RUN_CONCLUSIONS = [
  'ACTION_REQUIRED',
  'CANCELLED',
  'FAILURE',
  'NEUTRAL',
  'SUCCESS',
  'SKIPPED',
  'STALE',
  'TIMED_OUT',
] as const;
export const STATUS_CHECK_STATES = ['ERROR', 'FAILURE', 'PENDING', 'SUCCESS'] as const;

// Flaky tests
export const UNHEALTHY_STATUSES = ['FLAKY', 'BROKEN'] as const;
export type UnhealthyStatus = (typeof UNHEALTHY_STATUSES)[number];
/** A test's health as `status.value` and webhooks write it. */
export const TEST_HEALTH = ['healthy', 'flaky', 'broken'] as const;
export type TestHealth = (typeof TEST_HEALTH)[number];
/** The same, as list-quarantined-tests writes it. */
export const QUARANTINED_TEST_STATUSES = ['HEALTHY', 'FLAKY', 'BROKEN'] as const;
export const QUARANTINE_SETTINGS = ['ALWAYS_QUARANTINE', 'AUTO_QUARANTINE'] as const;
/** A test's quarantine override, as the quarantining-setting webhook writes it. */
export const QUARANTINE_OVERRIDES = ['ALWAYS_QUARANTINE', 'NEVER_QUARANTINE', 'UNSPECIFIED'] as const;
export type QuarantineOverride = (typeof QUARANTINE_OVERRIDES)[number];
export const CI_PROVIDERS = [
  'github',
  'jenkins',
  'circleci',
  'semaphore',
  'travis',
  'webappio',
  'codebuild',
  'bitbucket',
  'azure',
  'gitlab',
  'drone',
  'buildkite',
] as const;
export const CI_RUN_CONCLUSIONS = ['success', 'failure', 'skipped', 'cancelled'] as const;
export const CI_RUN_CONCLUSION_CAUSES = ['test', 'ci'] as const;

// Service status and device login
export const STATUS_COLORS = ['green', 'yellow', 'red'] as const;
export const DEVICE_AUTH_STATUSES = ['pending', 'success', 'denied', 'expired', 'slow_down'] as const;
export type DeviceAuthStatus = (typeof DEVICE_AUTH_STATUSES)[number];

// Webhook reasons, UPPERCASE as the spec writes them.
export const SUBMITTED_REASONS = ['USER_REQUESTED', 'TRUNK_ADMIN_REQUESTED', 'API_REQUESTED'] as const;
export type SubmittedReason = (typeof SUBMITTED_REASONS)[number];
export const QUEUED_REASONS = [
  'MANUAL_PUSH_TO_TARGET_BRANCH',
  'PREREQUISITE_MERGE_ITEM_CANCELLED',
  'PREREQUISITE_MERGE_ITEM_FAILED',
  'PREREQUISITE_MERGE_ITEM_MANUALLY_MERGED',
  'MERGE_ITEM_NOW_READY',
  'TESTS_RESTARTED_BY_USER',
  'TESTS_RESTARTED_BY_API_REQUEST',
  'SKIP_THE_LINE_INTERRUPTED',
  'BISECTION_REQUIRED',
  'BISECTION_TEST_RUN_PASSED',
] as const;
export type QueuedReason = (typeof QUEUED_REASONS)[number];
export const FAILURE_REASONS = [
  'START_TEST_RUN_INVALID_EVENT',
  'START_TEST_RUN_MERGE_CONFLICT',
  'START_TEST_RUN_CONFIG_NOT_FOUND',
  'START_TEST_RUN_CONFIG_PARSING_FAILURE',
  'START_TEST_RUN_CONFIG_MISSING_REQUIRED_STATUSES',
  'START_TEST_RUN_CONFIG_BAD_REQUIRED_STATUSES',
  'START_TEST_RUN_CONFIG_BAD_VERSION',
  'START_TEST_RUN_NO_REQUIRED_STATUSES',
  'TEST_RUN_REQUIRED_STATUS_FAILED',
  'TEST_RUN_TIMEOUT',
  'GITHUB_API_MERGE_PR_FAILED',
  'GITHUB_API_DIRECT_MERGE_PR_FAILED',
  'PR_UPDATED_AT_MERGE_TIME',
  'START_TEST_RUN_RETRY_EXHAUSTED',
  'START_TEST_RUN_DRAFT_PRS_NOT_ALLOWED',
  'TEST_RUN_FAILED_BY_OPTIMIZATION',
] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];
export const MERGED_REASONS = ['MERGE_GRAPH_MERGE', 'MANUAL_MERGE', 'MERGE_GRAPH_DIRECT_MERGE'] as const;
export type MergedReason = (typeof MERGED_REASONS)[number];
export const CANCELLATION_REASONS = [
  'USER_REQUESTED',
  'PR_CLOSED',
  'PR_PUSHED_TO',
  'PR_BASE_BRANCH_CHANGED',
  'TRUNK_ADMIN_REQUESTED',
  'PR_CONVERTED_TO_DRAFT',
  'STACKED_PR_MEMBER_PUSHED_TO',
  'STACKED_PR_MEMBER_CLOSED',
  'STACKED_PR_MEMBER_MERGED',
  'STACKED_PR_MEMBER_BASE_BRANCH_CHANGED',
] as const;
export type CancellationReason = (typeof CANCELLATION_REASONS)[number];

/** The merge-queue webhook events, per PR (`pull_request.*`) and per batch (`pull_request_batch.*`). */
export const MERGE_QUEUE_ACTIONS = [
  'submitted',
  'queued',
  'testing',
  'pending_failure',
  'failed',
  'merged',
  'canceled',
] as const;
export type MergeQueueAction = (typeof MERGE_QUEUE_ACTIONS)[number];

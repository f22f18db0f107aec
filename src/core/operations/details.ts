// What an operation found, as data: handed through run() to an entry point that shows it its own way
// (the CLI's tables in a terminal). The summary says the same in markdown; these carry no formatting,
// and nothing in them is escaped or redacted yet: whoever shows them does both.
import type { readPullRequest, readQueue } from '../../wire/index.js';
import type { GateOutcome } from './flaky-tests/check-test-results/summary.js';
import type { ListedTest } from './flaky-tests/tests.js';
import type { UnhealthyCounts } from './flaky-tests/unhealthy-summary.js';
import type { Computed } from './impacted-targets/compute/compute.js';
import type { LintReport } from './impacted-targets/compute/lint.js';
import type { PlanReport } from './planner/report.js';
import type { HistoryStepRow } from './pull-request/v2/history.js';
import type { RunRow } from './pull-request/v2/run-summaries.js';
import type { PrReport } from './pull-request/wait.js';

export type QueueSnapshot = ReturnType<typeof readQueue>;

/** A queue after an admin operation (or as get-queue read it). */
export interface QueueDetails {
  kind: 'queue';
  /** What the step did, in a few words: "Merge queue paused", "Merge queue". */
  action: string;
  repo: string;
  branch: string;
  /** Undefined when there is no queue or it could not be read back. */
  queue?: QueueSnapshot;
  /** The service's time of the answer, for how long each PR has been in its state. */
  nowMs: number;
  /** Settings whose value the step changed. */
  changes: { name: string; before: string; after: string }[];
  /** The service has no queue for the branch. */
  missing?: boolean;
}

/** A PR in the queue, as submit-pull-request or get-submitted-pull-request last saw it. */
export interface PullRequestDetails {
  kind: 'pull-request';
  repo: string;
  branch: string;
  prNumber: number;
  report: PrReport;
  /** submit-pull-request only: the service said the PR was already queued. */
  alreadyQueued?: boolean;
}

export interface ComputedTargetsDetails {
  kind: 'computed-targets';
  computed: Computed;
}

export interface UploadedTargetsDetails {
  kind: 'uploaded-targets';
  prNumber: number;
  /** The targets read or computed: a list, or ALL. */
  targets: readonly string[] | 'ALL';
  targetCount: number;
  /** What went to the service: the list, ALL, or nothing ('' with `notUploaded` saying why). */
  sent: 'list' | 'ALL' | '';
  fallbackReason: string;
  notUploaded?: string;
  computed?: Computed;
}

/** What lint-impacted-targets-config found: which part of the config claims which tracked files. */
export interface TargetsConfigLintDetails {
  kind: 'targets-config-lint';
  report: LintReport;
}

export interface TestResultsDetails {
  kind: 'test-results';
  gate: GateOutcome;
}

/** How many tests or PRs a listing hands on for a person to read; the report file has every one. */
export const LISTED_IN_DETAILS = 50;

export interface TestListDetails {
  kind: 'test-list';
  listing: 'unhealthy' | 'quarantined' | 'failing';
  repo: string;
  /** The first tests, in the summary's order. */
  tests: ListedTest[];
  total: number;
  counts?: UnhealthyCounts;
  nowMs: number;
}

export interface PullRequestListDetails {
  kind: 'pull-request-list';
  branch: string;
  /** The first PRs listed. */
  pullRequests: ReturnType<typeof readPullRequest>[];
  total: number;
  complete: boolean;
  nowMs: number;
}

/** get-queue-entry-history: the PR's steps through the queue (v2). */
export interface QueueEntryHistoryDetails {
  kind: 'queue-entry-history';
  repo: string;
  branch: string;
  prNumber: number;
  /** Where the PR is now, in words; '' when it was never in the queue. */
  heading: string;
  /** The steps told in one sentence: "5 steps over 12m: tested twice, sent back once (...)". */
  story: string;
  steps: HistoryStepRow[];
}

/** list-verification-runs: the runs the queue started, the latest first (v2). */
export interface VerificationRunsDetails {
  kind: 'verification-runs';
  heading: string;
  runs: RunRow[];
  hasMore: boolean;
}

/** plan-queue-settings: the report, as --json gives it. */
export interface QueuePlanDetails {
  kind: 'queue-plan';
  report: PlanReport;
}

export type OperationDetails =
  | QueueDetails
  | PullRequestDetails
  | ComputedTargetsDetails
  | UploadedTargetsDetails
  | TargetsConfigLintDetails
  | TestResultsDetails
  | TestListDetails
  | PullRequestListDetails
  | QueueEntryHistoryDetails
  | VerificationRunsDetails
  | QueuePlanDetails;

/** An operation's details as the kinds above (types.ts names none of them, to keep imports one way). */
export function detailsOf(result: { details?: object }): OperationDetails | undefined {
  return result.details as OperationDetails | undefined;
}

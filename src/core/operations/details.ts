// What an operation found, as data: handed through run() to an entry point that shows it its own way
// (the CLI's tables in a terminal). The summary says the same in markdown; these carry no formatting,
// and nothing in them is escaped or redacted yet: whoever shows them does both. Each area declares its own kinds beside its code; this file gathers them, and no area imports it.
import type { TestListDetails, TestResultsDetails } from './flaky-tests/details.js';
import type {
  ComputedTargetsDetails,
  TargetsConfigLintDetails,
  UploadedTargetsDetails,
} from './impacted-targets/details.js';
import type { PlanReport } from './planner/report.js';
import type { HistoryStepRow } from './pull-request/v2/history.js';
import type { RunRow } from './pull-request/v2/run-summaries.js';
import type { PrReport } from './pull-request/wait.js';
import type { PullRequestActionDetails } from './pull-request/details.js';
import type { PullRequestListDetails, QueueDetails } from './queue/details.js';

export type { TestListDetails, TestResultsDetails } from './flaky-tests/details.js';
export type {
  ComputedTargetsDetails,
  TargetsConfigLintDetails,
  UploadedTargetsDetails,
} from './impacted-targets/details.js';
export type { PullRequestActionDetails } from './pull-request/details.js';
export type { PullRequestListDetails, QueueDetails, QueueSnapshot } from './queue/details.js';

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
  | PullRequestActionDetails
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

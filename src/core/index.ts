// Core's public face: everything an entry point (src/cli, src/mcp, src/github-action) uses of core, and
// nothing else; eslint refuses an entry's import of any other file of core. It only names what lives
// elsewhere, so a bundle takes from it only what its importer uses (package.json marks it free of side
// effects): the action's run does not load the CLI's pages.

// Running an operation, and what it ends with
export { run } from './run.js';
export type { RunResult } from './run.js';
export { EXIT_CODES, exitCodeOf, failureOf } from './failure.js';
export type { Wording } from './words.js';
export { VERSION } from './version.js';

// The operations and their inputs
export { isOperationName, OPERATION_NAMES, OPERATIONS, toKebabCase } from './operations/registry.js';
export type { Area, OperationName } from './operations/registry.js';
export { exampleInputs } from './operations/example.js';
export type { OperationExample } from './operations/example.js';
export { COMMON_INPUTS } from './common-inputs.js';
export type { InputSpec } from './inputs.js';
export type { ResolvedContext } from './context.js';
export type { OutputValue } from './operations/types.js';
export { closestMatches } from './suggest.js';

// What an operation found (its details), and the words its summary uses for it, for an entry's own pages
export { detailsOf } from './operations/details.js';
export type {
  ComputedTargetsDetails,
  OperationDetails,
  PullRequestActionDetails,
  PullRequestDetails,
  PullRequestListDetails,
  QueueDetails,
  QueueEntryHistoryDetails,
  QueuePlanDetails,
  QueueSnapshot,
  TargetsConfigLintDetails,
  TestListDetails,
  TestResultsDetails,
  UploadedTargetsDetails,
  VerificationRunsDetails,
} from './operations/details.js';
export { pullRequestUrl, stateOutput } from './operations/common.js';
export type { PrReport } from './operations/pull-request/wait.js';
export { outcomeWords, placeInLine, queueTime, reasonOf } from './operations/pull-request/summary.js';
export { notReadyBlockers } from './operations/pull-request/readiness.js';
export { serviceReason } from './operations/pull-request/progress.js';
export { shortSha } from './operations/pull-request/lookup.js';
export { testingDetailsIn, testRunReport } from './operations/pull-request/failing-checks.js';
export type { CheckedFailure } from './operations/flaky-tests/check-test-results/summary.js';
export { VERDICT_LABELS } from './operations/flaky-tests/check-test-results/verdicts.js';
export type { Computed } from './operations/impacted-targets/compute/compute.js';
export { lintHeadline } from './operations/impacted-targets/compute/lint-summary.js';
export { headline, TABLE_HEADERS, tableRows } from './operations/planner/report.js';
export type { PlanReport } from './operations/planner/report.js';
export { changeOf } from './operations/planner/recommend.js';
export { objectiveOf } from './operations/planner/evaluate.js';
export { OBJECTIVES } from './operations/planner/inputs.js';
export { SETTING_NAMES } from './operations/planner/settings.js';

// Text: clipping, control characters, redaction, durations, columns
export { clip, LOG_LINE_CHARS } from './report/clip.js';
export { INVISIBLE, oneLine } from './report/control-syntax.js';
export { redactor } from './report/redact.js';
export type { Redact } from './report/redact.js';
export { formatDaysSince, formatDuration, timeSince } from './report/duration.js';
export { filledColumns } from './report/filled-columns.js';
export { plural } from './report/words.js';

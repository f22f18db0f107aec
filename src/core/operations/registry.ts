// Every operation, one row each: its area, what it needs from the pipeline, the inputs it reads (beyond
// the common ones), its examples, how its settings are read, and the code that runs it. action.yml, the
// CLI's --help and docs/reference.md are generated from these rows.
import type { Needs } from '../context.js';
import type { OperationExamples } from './example.js';
import type { Inputs, InputSpec } from '../inputs.js';
import {
  CHECK_TEST_RESULTS_INPUTS,
  readCheckTestResultsSettings,
} from './flaky-tests/check-test-results/inputs.js';
import {
  FAILING_WINDOW_INPUTS,
  ORG_URL_SLUG_INPUT,
  PAGING_INPUTS,
  TEST_ID_INPUT,
  TICKET_INPUTS,
  UNHEALTHY_INPUTS,
  readFlakyTestsSettings,
} from './flaky-tests/inputs.js';
import { IMPACTED_TARGETS_INPUTS, readImpactedTargetsSettings } from './impacted-targets/inputs.js';
import {
  COMPUTE_INPUTS,
  LINT_INPUTS,
  readComputeSettings,
  readLintSettings,
} from './impacted-targets/compute/inputs.js';
import { METRICS_INPUTS, readMetricsSettings } from './metrics/inputs.js';
import {
  DIRECT_INPUT,
  NOTIFY_INPUTS,
  PRIORITY_INPUTS,
  TEST_RUN_ID_INPUT,
  WAIT_INPUTS,
  readPullRequestSettings,
} from './pull-request/inputs.js';
import {
  LIST_RUNS_INPUTS,
  TESTING_RESULTS_INPUTS,
  readTestingResultsSettings,
  readVerificationRunSettings,
} from './pull-request/v2/inputs.js';
import {
  IF_EXISTS_INPUT,
  LIST_PULL_REQUESTS_INPUTS,
  QUEUE_SETTINGS_INPUTS,
  QUEUE_STATE_INPUT,
  readListPullRequestsSettings,
  readQueueAdminSettings,
} from './queue/inputs.js';
import { EXIT_IF_DEQUEUED_INPUT, readMergeQueueRunSettings } from './merge-queue-run/inputs.js';
import { EXPORT_INPUTS, PLAN_INPUTS, readExportSettings, readPlanSettings } from './planner/inputs.js';
import { REASON_INPUT } from './reason.js';
import type { Operation, OperationContext, OperationResult } from './types.js';

// Each operation's code is loaded only when it runs (ncc makes each module a chunk of its own): a run
// loads the registry, the inputs and its own operation, not the other twenty.
const pullRequests = () => import('./pull-request/pull-requests.js');
const queues = () => import('./queue/admin.js');
const flakyTestCases = () => import('./flaky-tests/test-case.js');
const entryWrites = () => import('./pull-request/v2/entry-writes.js');
const verificationRuns = () => import('./pull-request/v2/verification-runs.js');

/** An operation whose code `load` brings in when it runs. */
function later<S, M>(load: () => Promise<M>, pick: (module: M) => Operation<S>): Operation<S> {
  return async (op) => pick(await load())(op);
}

export type Area = 'pull-request' | 'impacted-targets' | 'queue' | 'metrics' | 'flaky-tests';

export interface OperationRow<S> {
  area: Area;
  /** One line for --help. */
  summary: string;
  /** What the operation needs from the pipeline; anything not needed is never looked up. */
  needs: Needs;
  /** The inputs it reads beyond the common ones; any other input given is ignored with a warning. */
  inputs: readonly InputSpec[];
  /**
   * What a person does with it, by input name (--help's EXAMPLES, docs/reference.md's `with:`); the first
   * is its sample, which the help's test and the suites that run every operation run against the emulator.
   */
  examples: OperationExamples;
  /**
   * The API it calls: absent for both versions, `v2` for one only v2 serves (over v1 it stops with one
   * line before any request), `none` for one that works from files and git alone. Tests derive their
   * lists of operations from it.
   */
  api?: 'v2' | 'none';
  /** May run without api-token (a fork PR's upload is authenticated by its workflow run). */
  tokenOptional?: boolean;
  /**
   * Describes a merge-queue test run itself, so run() does not add the run's facts first (every other
   * operation on such a run publishes which PRs it tests).
   */
  describesMergeQueueRun?: boolean;
  read(input: Inputs, operation: string): S;
  run: Operation<S>;
}

/** What an operation is given beside its own settings. */
export type SharedContext = Omit<OperationContext<unknown>, 'settings'>;

export interface PreparedSettings {
  /** The operation's own settings, as read (their type is the row's). */
  settings: unknown;
  start(shared: SharedContext): Promise<OperationResult>;
}

/** A row with its settings type erased: read the settings first (all input errors surface here), then run. */
export interface RegisteredOperation extends Omit<OperationRow<unknown>, 'read' | 'run'> {
  prepare(input: Inputs, operation: string): PreparedSettings;
}

/** Keeps each row's settings type tied to its handler's. */
function row<S>({ read, run, ...about }: OperationRow<S>): RegisteredOperation {
  return {
    ...about,
    prepare(input, operation) {
      const settings = read(input, operation);
      return { settings, start: (shared) => run({ ...shared, settings }) };
    },
  };
}

const PR: Needs = { pr: true, headSha: false, targetBranch: true };
const QUEUE: Needs = { pr: false, headSha: false, targetBranch: true };
const REPO_ONLY: Needs = { pr: false, headSha: false, targetBranch: false };

const pullRequest = (
  summary: string,
  inputs: readonly InputSpec[],
  examples: OperationExamples,
  run: OperationRow<ReturnType<typeof readPullRequestSettings>>['run'],
  { needs = PR, api }: Pick<OperationRow<unknown>, 'api'> & { needs?: Needs } = {},
) =>
  row({
    area: 'pull-request',
    summary,
    needs,
    inputs,
    examples,
    read: readPullRequestSettings,
    run,
    ...(api ? { api } : {}),
  });
const queueAdmin = (
  summary: string,
  inputs: readonly InputSpec[],
  examples: OperationExamples,
  run: OperationRow<ReturnType<typeof readQueueAdminSettings>>['run'],
) => row({ area: 'queue', summary, needs: QUEUE, inputs, examples, read: readQueueAdminSettings, run });
const flakyTests = (
  summary: string,
  inputs: readonly InputSpec[],
  examples: OperationExamples,
  run: OperationRow<ReturnType<typeof readFlakyTestsSettings>>['run'],
) =>
  row({
    area: 'flaky-tests',
    summary,
    needs: REPO_ONLY,
    inputs,
    examples,
    read: readFlakyTestsSettings,
    run,
  });

export const OPERATIONS = {
  'submit-pull-request': pullRequest(
    'Submit the PR to the merge queue, and optionally wait until it merges.',
    [...PRIORITY_INPUTS, DIRECT_INPUT, ...WAIT_INPUTS, ...NOTIFY_INPUTS],
    [
      { about: 'Put PR 12 in the queue', inputs: { 'pr-number': '12' } },
      {
        about: 'Put it in ahead of medium ones, tested alone',
        inputs: { 'pr-number': '12', priority: 'high', 'no-batch': true },
      },
      {
        about: 'Wait until it merges (exit 1 if it fails or is cancelled)',
        inputs: { 'pr-number': '12', 'wait-for': 'merged' },
      },
    ],
    later(pullRequests, (m) => m.submitPullRequest),
  ),
  'reprioritize-pull-request': pullRequest(
    "Change a queued PR's priority in place (api-version v2).",
    [PRIORITY_INPUTS[0]!],
    [{ about: 'Move PR 12 up the line', inputs: { 'pr-number': '12', priority: 'high' } }],
    later(entryWrites, (m) => m.reprioritizePullRequest),
    { api: 'v2' },
  ),
  'update-queue-entry': pullRequest(
    "Change a queued PR's priority, batching or direct flag in place (api-version v2).",
    [...PRIORITY_INPUTS, DIRECT_INPUT],
    [{ about: 'Test PR 12 alone from now on', inputs: { 'pr-number': '12', 'no-batch': true } }],
    later(entryWrites, (m) => m.updateQueueEntry),
    { api: 'v2' },
  ),
  'get-queue-entry-history': pullRequest(
    "Every state the PR's queue entry went through: when, why, who caused it, which run (api-version v2).",
    [],
    [{ about: "Every state PR 12's entry went through", inputs: { 'pr-number': '12' } }],
    later(
      () => import('./pull-request/v2/history.js'),
      (m) => m.getQueueEntryHistory,
    ),
    { api: 'v2' },
  ),
  'list-verification-runs': row({
    api: 'v2',
    area: 'pull-request',
    summary: 'The CI runs the queue started, for the PR or the whole queue (api-version v2).',
    needs: QUEUE,
    inputs: LIST_RUNS_INPUTS,
    examples: [
      { about: 'The runs the queue started for PR 12', inputs: { 'pr-number': '12' } },
      { about: 'The failed runs of the whole queue', inputs: { 'runs-of': 'queue', 'run-status': 'failed' } },
    ],
    read: readVerificationRunSettings,
    run: later(verificationRuns, (m) => m.listVerificationRuns),
  }),
  'get-verification-run': row({
    api: 'v2',
    area: 'pull-request',
    summary: 'One verification run and its checks, required and failing ones first (api-version v2).',
    needs: QUEUE,
    inputs: [TEST_RUN_ID_INPUT],
    examples: [
      {
        about: 'One run and its checks (the id from list-verification-runs)',
        inputs: { 'test-run-id': 'run_2f9c41' },
      },
    ],
    read: readVerificationRunSettings,
    run: later(verificationRuns, (m) => m.getVerificationRun),
  }),
  'cancel-pull-request': pullRequest(
    'Take the PR out of the merge queue.',
    [REASON_INPUT],
    [
      { about: 'Take PR 12 out of the queue', inputs: { 'pr-number': '12' } },
      {
        about: 'The same without asking first, saying why',
        inputs: { 'pr-number': '12', reason: 'breaks the release build' },
        cli: ['--yes'],
      },
    ],
    later(pullRequests, (m) => m.cancelPullRequest),
  ),
  'restart-tests-on-pull-request': pullRequest(
    "Restart the PR's tests, keeping its place in the queue.",
    [],
    [{ about: "Run PR 12's tests again, keeping its place", inputs: { 'pr-number': '12' } }],
    later(pullRequests, (m) => m.restartTestsOnPullRequest),
  ),
  'get-submitted-pull-request': pullRequest(
    "The PR's state in the queue and why, and optionally wait for it to merge.",
    [...WAIT_INPUTS, ...NOTIFY_INPUTS],
    [
      { about: 'Where PR 12 is and why', inputs: { 'pr-number': '12' } },
      { about: 'The same for a program', inputs: { 'pr-number': '12' }, cli: ['--json'] },
    ],
    later(pullRequests, (m) => m.getSubmittedPullRequest),
  ),
  'get-merge-queue-testing-details': pullRequest(
    'The checks and PRs of a merge-queue test run.',
    [TEST_RUN_ID_INPUT],
    [
      {
        about: 'The checks and PRs of one test run',
        inputs: { 'test-run-id': '3f1c2a9e-5b7d-4e0f-9a61-2c8d4b6e7f10' },
      },
    ],
    later(pullRequests, (m) => m.getMergeQueueTestingDetails),
    { needs: QUEUE },
  ),
  'describe-merge-queue-run': row({
    area: 'pull-request',
    summary:
      'On a merge-queue test run: the PRs it tests and their impacted targets; optionally end the job when none is still queued.',
    needs: QUEUE,
    inputs: [TEST_RUN_ID_INPUT, EXIT_IF_DEQUEUED_INPUT],
    examples: [
      {
        about: 'In a job on trunk-merge/pr-12/<run>: the PRs it tests; end early if none is queued',
        inputs: { 'exit-if-dequeued': true },
      },
    ],
    read: readMergeQueueRunSettings,
    run: later(
      () => import('./merge-queue-run/describe.js'),
      (m) => m.describeMergeQueueRun,
    ),
    describesMergeQueueRun: true,
  }),
  'set-impacted-targets': row({
    area: 'impacted-targets',
    summary: "Upload the PR's impacted targets for a parallel queue.",
    needs: { pr: true, headSha: true, targetBranch: true },
    inputs: IMPACTED_TARGETS_INPUTS,
    examples: [
      {
        about: 'PR 12 (head 9fceb02) touches two targets',
        inputs: {
          'pr-sha': '9fceb02d0ae598e95dc970b74767f19372d61af8',
          'pr-number': '12',
          'impacted-targets': ['api', 'web'],
        },
      },
      {
        about: 'It touches everything (it conflicts with every PR)',
        inputs: {
          'pr-sha': '9fceb02d0ae598e95dc970b74767f19372d61af8',
          'pr-number': '12',
          'impacts-all': true,
        },
      },
    ],
    tokenOptional: true,
    read: readImpactedTargetsSettings,
    run: later(
      () => import('./impacted-targets/upload.js'),
      (m) => m.setImpactedTargets,
    ),
  }),
  'compute-impacted-targets': row({
    api: 'none',
    area: 'impacted-targets',
    summary: "Compute the PR's impacted targets from its changed files and a targets config.",
    needs: { pr: false, headSha: false, targetBranch: true },
    inputs: COMPUTE_INPUTS,
    examples: [
      { about: 'The targets your branch touches (config in .github/impacted-targets.yml)' },
      { about: 'With the config elsewhere', inputs: { 'targets-config': 'ci/targets.yml' } },
    ],
    tokenOptional: true,
    read: (input) => readComputeSettings(input),
    run: later(
      () => import('./impacted-targets/compute/operation.js'),
      (m) => m.computeImpactedTargets,
    ),
  }),
  'lint-impacted-targets-config': row({
    api: 'none',
    area: 'impacted-targets',
    summary:
      'Check a targets config against the tracked files: files no rule claims, globs that match nothing.',
    needs: REPO_ONLY,
    inputs: LINT_INPUTS,
    examples: [
      { about: 'Which rule claims which files, and what nothing claims' },
      { about: 'Fail (exit 1) when a file is left unclaimed', inputs: { strict: true } },
    ],
    tokenOptional: true,
    read: readLintSettings,
    run: later(
      () => import('./impacted-targets/compute/lint.js'),
      (m) => m.lintImpactedTargetsConfig,
    ),
  }),
  'create-queue': queueAdmin(
    'Create the merge queue of a branch.',
    [IF_EXISTS_INPUT, ...QUEUE_SETTINGS_INPUTS],
    [
      {
        about: 'A queue for main that tests four PRs at a time',
        inputs: { mode: 'parallel', concurrency: '4' },
      },
      { about: 'The same, or update the one there', inputs: { concurrency: '4', 'if-exists': 'update' } },
    ],
    later(queues, (m) => m.createQueue),
  ),
  'get-queue': queueAdmin(
    'The queue: its state, settings and the PRs in line.',
    [],
    [
      { about: "main's queue" },
      { about: 'Another branch, for a program', inputs: { 'target-branch': 'release' }, cli: ['--json'] },
    ],
    later(queues, (m) => m.getQueue),
  ),
  'update-queue': queueAdmin(
    "Change the queue's settings or state.",
    [QUEUE_STATE_INPUT, ...QUEUE_SETTINGS_INPUTS, REASON_INPUT],
    [
      { about: 'Test eight at a time, in batches', inputs: { concurrency: '8', batch: true } },
      { about: 'Pause it', inputs: { state: 'paused' } },
    ],
    later(queues, (m) => m.updateQueue),
  ),
  'delete-queue': queueAdmin(
    'Delete the queue (it must be empty).',
    [],
    [
      {
        about: 'Delete the (empty) queue of release',
        inputs: { 'target-branch': 'release' },
        cli: ['--yes'],
      },
    ],
    later(queues, (m) => m.deleteQueue),
  ),
  'pause-queue': queueAdmin(
    'Pause the queue: nothing new tests, nothing merges.',
    [REASON_INPUT],
    [
      { about: 'Stop testing and merging' },
      {
        about: 'Saying why (shown with your name in the summary)',
        inputs: { reason: 'release freeze until 16:00' },
      },
    ],
    later(queues, (m) => m.pauseQueue),
  ),
  'resume-queue': queueAdmin(
    'Resume a paused or draining queue.',
    [],
    [{ about: 'Start again' }],
    later(queues, (m) => m.resumeQueue),
  ),
  'drain-queue': queueAdmin(
    'Drain the queue: what is in it finishes, nothing new starts.',
    [REASON_INPUT],
    [{ about: 'Let what is in finish, start nothing new' }],
    later(queues, (m) => m.drainQueue),
  ),
  'list-pull-requests': row({
    area: 'queue',
    summary: "The queue's PRs, filtered by state and time, all pages.",
    needs: QUEUE,
    inputs: LIST_PULL_REQUESTS_INPUTS,
    examples: [
      { about: 'The PRs testing now', inputs: { state: 'testing' } },
      { about: 'Those merged since November', inputs: { state: 'merged', since: '2026-11-01T00:00:00Z' } },
    ],
    read: readListPullRequestsSettings,
    run: later(
      () => import('./queue/list-pull-requests.js'),
      (m) => m.listPullRequests,
    ),
  }),
  'list-testing-results': row({
    api: 'v2',
    area: 'queue',
    summary: "The queue's testing results over a window of up to 45 days, all pages (api-version v2).",
    needs: QUEUE,
    inputs: TESTING_RESULTS_INPUTS,
    examples: [
      { about: 'The last 7 days of test runs' },
      { about: 'A window', inputs: { since: '2026-11-01T00:00:00Z' } },
    ],
    read: readTestingResultsSettings,
    run: later(
      () => import('./pull-request/v2/testing-results.js'),
      (m) => m.listTestingResults,
    ),
  }),
  'export-queue-history': row({
    api: 'v2',
    area: 'queue',
    summary:
      "Append up to 45 days of the queue's PRs, entry histories, runs and settings to a history file (api-version v2, read-only).",
    needs: QUEUE,
    inputs: EXPORT_INPUTS,
    examples: [{ about: 'Append the history to a file', inputs: { history: 'queue-history.jsonl' } }],
    read: readExportSettings,
    run: later(
      () => import('./planner/export.js'),
      (m) => m.exportQueueHistory,
    ),
  }),
  'plan-queue-settings': row({
    api: 'v2',
    area: 'queue',
    summary:
      'Replay the queue under other settings and recommend only what beats the current ones by more than the model error (read-only).',
    // A synthetic plan needs no repository; one read from the API needs it and the target branch.
    needs: { pr: false, headSha: false, targetBranch: false, repo: false },
    inputs: PLAN_INPUTS,
    examples: [
      {
        about: 'Settings for a new queue: 300 PRs a day, 30-minute CI',
        inputs: { prs: '300', arrivals: '300/d', 'ci-duration': '30m' },
      },
      {
        about: 'From an exported history, trying other concurrencies',
        inputs: { history: 'queue-history.jsonl', vary: 'concurrency=2,4,8' },
      },
    ],
    tokenOptional: true,
    read: readPlanSettings,
    run: later(
      () => import('./planner/operation.js'),
      (m) => m.planQueueSettings,
    ),
  }),
  'get-merge-queue-metrics': row({
    area: 'metrics',
    summary: "The queue's Prometheus metrics, summed up.",
    needs: REPO_ONLY,
    inputs: METRICS_INPUTS,
    examples: [
      { about: "This repository's queue metrics" },
      { about: 'Every repository of the organization', inputs: { 'all-repositories': true } },
    ],
    read: readMetricsSettings,
    run: later(
      () => import('./metrics/metrics.js'),
      (m) => m.getMergeQueueMetrics,
    ),
  }),
  'list-unhealthy-tests': flakyTests(
    'Flaky and broken tests, with a report and an optional failing threshold.',
    [ORG_URL_SLUG_INPUT, ...UNHEALTHY_INPUTS, ...PAGING_INPUTS],
    [
      { about: 'Flaky and broken tests', inputs: { 'org-url-slug': 'acme' } },
      {
        about: 'Fail (exit 1) when any test is broken',
        inputs: { 'org-url-slug': 'acme', 'fail-on': 'broken' },
      },
    ],
    later(
      () => import('./flaky-tests/unhealthy.js'),
      (m) => m.listUnhealthyTests,
    ),
  ),
  'list-quarantined-tests': flakyTests(
    'The quarantined tests.',
    [ORG_URL_SLUG_INPUT, ...PAGING_INPUTS],
    [{ about: 'The quarantined tests', inputs: { 'org-url-slug': 'acme' } }],
    later(
      () => import('./flaky-tests/quarantined.js'),
      (m) => m.listQuarantinedTests,
    ),
  ),
  'list-failing-tests': flakyTests(
    'Tests that failed in a window of up to 7 days.',
    [ORG_URL_SLUG_INPUT, ...FAILING_WINDOW_INPUTS, ...PAGING_INPUTS],
    [{ about: 'Tests that failed in the last 7 days', inputs: { 'org-url-slug': 'acme' } }],
    later(
      () => import('./flaky-tests/failing.js'),
      (m) => m.listFailingTests,
    ),
  ),
  'check-test-results': row({
    area: 'flaky-tests',
    summary:
      'The quarantine gate: JUnit reports in, a verdict for each failed test, and a failure only for those not quarantined.',
    needs: REPO_ONLY,
    inputs: [ORG_URL_SLUG_INPUT, ...CHECK_TEST_RESULTS_INPUTS, ...FAILING_WINDOW_INPUTS, ...PAGING_INPUTS],
    examples: [
      {
        about: 'The quarantine gate: fail (exit 1) when a failed test is not quarantined',
        inputs: { 'org-url-slug': 'acme', 'junit-paths': 'reports/**/*.xml' },
        exitCode: 1,
      },
    ],
    read: readCheckTestResultsSettings,
    run: later(
      () => import('./flaky-tests/check-test-results/operation.js'),
      (m) => m.checkTestResults,
    ),
  }),
  'get-test-details': flakyTests(
    'One test in detail.',
    [ORG_URL_SLUG_INPUT, TEST_ID_INPUT],
    [
      {
        about: 'One test (its id from list-unhealthy-tests)',
        inputs: { 'org-url-slug': 'acme', 'test-id': '8d2b5c1e-0f4a-4c3b-9e7d-1a6f2b3c4d5e' },
      },
    ],
    later(flakyTestCases, (m) => m.getTestDetails),
  ),
  'link-ticket-to-test-case': flakyTests(
    'Link a ticket to a test case.',
    TICKET_INPUTS,
    [
      {
        about: 'Link ticket KAN-123',
        inputs: {
          'test-case-id': '8d2b5c1e-0f4a-4c3b-9e7d-1a6f2b3c4d5e',
          'external-ticket-id': 'KAN-123',
        },
      },
    ],
    later(flakyTestCases, (m) => m.linkTicketToTestCase),
  ),
} satisfies Record<string, RegisteredOperation>;

export type OperationName = keyof typeof OPERATIONS;
export const OPERATION_NAMES = Object.keys(OPERATIONS) as OperationName[];

export function isOperationName(name: string): name is OperationName {
  return Object.hasOwn(OPERATIONS, name);
}

/** `submitPullRequest` -> `submit-pull-request`; kebab-case names pass through lowercased. */
export function toKebabCase(name: string): string {
  return name
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/[_\s]+/g, '-')
    .toLowerCase();
}

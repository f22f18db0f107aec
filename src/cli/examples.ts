// The EXAMPLES of each operation's help: what a person types on a laptop (the repository and target branch
// come from the checkout's origin remote). Keyed by operation, so that a new operation without examples
// does not compile; __tests__/cli/help-examples.test.ts runs them against the emulator.
import type { OperationName } from '../core/index.js';

export interface Example {
  /** What it does, as a shell comment above the command. */
  about: string;
  /** The arguments after the command's name, exactly as the test runs them. */
  args: readonly string[];
  /** The exit code it ends with where that is not 0 (what `about` says). */
  exitCode?: number;
}

const ex = (about: string, ...args: string[]): Example => ({ about, args });
const failing = (about: string, ...args: string[]): Example => ({ about, args, exitCode: 1 });

export const EXAMPLES: Record<OperationName, readonly Example[]> = {
  'submit-pull-request': [
    ex('Put PR 12 in the queue', '--pr-number', '12'),
    ex(
      'Put it in ahead of medium ones, tested alone',
      '--pr-number',
      '12',
      '--priority',
      'high',
      '--no-batch',
    ),
    ex(
      'Wait until it merges (exit 1 if it fails or is cancelled)',
      '--pr-number',
      '12',
      '--wait-for',
      'merged',
    ),
  ],
  'reprioritize-pull-request': [ex('Move PR 12 up the line', '--pr-number', '12', '--priority', 'high')],
  'update-queue-entry': [ex('Test PR 12 alone from now on', '--pr-number', '12', '--no-batch')],
  'get-queue-entry-history': [ex("Every state PR 12's entry went through", '--pr-number', '12')],
  'list-verification-runs': [
    ex('The runs the queue started for PR 12', '--pr-number', '12'),
    ex('The failed runs of the whole queue', '--runs-of', 'queue', '--run-status', 'failed'),
  ],
  'get-verification-run': [
    ex('One run and its checks (the id from list-verification-runs)', '--test-run-id', 'run_2f9c41'),
  ],
  'cancel-pull-request': [
    ex('Take PR 12 out of the queue (a terminal asks first)', '--pr-number', '12'),
    ex(
      'The same from a script, saying why',
      '--pr-number',
      '12',
      '--yes',
      '--reason',
      'breaks the release build',
    ),
  ],
  'restart-tests-on-pull-request': [ex("Run PR 12's tests again, keeping its place", '--pr-number', '12')],
  'get-submitted-pull-request': [
    ex('Where PR 12 is and why', '--pr-number', '12'),
    ex('The same for a program', '--pr-number', '12', '--json'),
  ],
  'get-merge-queue-testing-details': [
    ex('The checks and PRs of one test run', '--test-run-id', '3f1c2a9e-5b7d-4e0f-9a61-2c8d4b6e7f10'),
  ],
  'describe-merge-queue-run': [
    ex(
      'In a job on trunk-merge/pr-12/<run>: the PRs it tests; end early if none is queued',
      '--exit-if-dequeued',
    ),
  ],
  'set-impacted-targets': [
    ex(
      'PR 12 (head 9fceb02) touches two targets',
      '--pr-sha',
      '9fceb02d0ae598e95dc970b74767f19372d61af8',
      '--pr-number',
      '12',
      '--impacted-targets',
      'api',
      '--impacted-targets',
      'web',
    ),
    ex(
      'It touches everything (it conflicts with every PR)',
      '--pr-sha',
      '9fceb02d0ae598e95dc970b74767f19372d61af8',
      '--pr-number',
      '12',
      '--impacts-all',
    ),
  ],
  'compute-impacted-targets': [
    ex('The targets your branch touches (config in .github/impacted-targets.yml)'),
    ex('With the config elsewhere', '--targets-config', 'ci/targets.yml'),
  ],
  'lint-impacted-targets-config': [
    ex('Which rule claims which files, and what nothing claims'),
    ex('Fail (exit 1) when a file is left unclaimed', '--strict'),
  ],
  'create-queue': [
    ex('A queue for main that tests four PRs at a time', '--mode', 'parallel', '--concurrency', '4'),
    ex('The same, or update the one there', '--concurrency', '4', '--if-exists', 'update'),
  ],
  'get-queue': [
    ex("main's queue"),
    ex('Another branch, for a program', '--target-branch', 'release', '--json'),
  ],
  'update-queue': [
    ex('Test eight at a time, in batches', '--concurrency', '8', '--batch'),
    ex('Pause it', '--state', 'paused'),
  ],
  'delete-queue': [
    ex('Delete the (empty) queue of release, without asking', '--target-branch', 'release', '--yes'),
  ],
  'pause-queue': [
    ex('Stop testing and merging'),
    ex('Saying why (shown with your name in the summary)', '--reason', 'release freeze until 16:00'),
  ],
  'resume-queue': [ex('Start again')],
  'drain-queue': [ex('Let what is in finish, start nothing new (a terminal asks first)')],
  'list-pull-requests': [
    ex('The PRs testing now', '--state', 'testing'),
    ex('Those merged since November', '--state', 'merged', '--since', '2026-11-01T00:00:00Z'),
  ],
  'list-testing-results': [
    ex('The last 7 days of test runs'),
    ex('A window', '--since', '2026-11-01T00:00:00Z'),
  ],
  'export-queue-history': [ex('Append the history to a file', '--history', 'queue-history.jsonl')],
  'plan-queue-settings': [
    ex(
      'Settings for a new queue: 300 PRs a day, 30-minute CI',
      '--prs',
      '300',
      '--arrivals',
      '300/d',
      '--ci-duration',
      '30m',
    ),
    ex(
      'From an exported history, trying other concurrencies',
      '--history',
      'queue-history.jsonl',
      '--vary',
      'concurrency=2,4,8',
    ),
  ],
  'get-merge-queue-metrics': [
    ex("This repository's queue metrics"),
    ex('Every repository of the organization', '--all-repositories'),
  ],
  'list-unhealthy-tests': [
    ex('Flaky and broken tests', '--org-url-slug', 'acme'),
    ex('Fail (exit 1) when any test is broken', '--org-url-slug', 'acme', '--fail-on', 'broken'),
  ],
  'list-quarantined-tests': [ex('The quarantined tests', '--org-url-slug', 'acme')],
  'list-failing-tests': [ex('Tests that failed in the last 7 days', '--org-url-slug', 'acme')],
  'check-test-results': [
    failing(
      'The quarantine gate: exit 1 when a failed test is not quarantined',
      '--org-url-slug',
      'acme',
      '--junit-paths',
      'reports/**/*.xml',
    ),
  ],
  'get-test-details': [
    ex(
      'One test (its id from list-unhealthy-tests --json)',
      '--org-url-slug',
      'acme',
      '--test-id',
      '8d2b5c1e-0f4a-4c3b-9e7d-1a6f2b3c4d5e',
    ),
  ],
  'link-ticket-to-test-case': [
    ex(
      'Link ticket KAN-123',
      '--test-case-id',
      '8d2b5c1e-0f4a-4c3b-9e7d-1a6f2b3c4d5e',
      '--external-ticket-id',
      'KAN-123',
    ),
  ],
};

/** An argument as a shell takes it: quoted only when it holds something the shell would read. */
export function shellWord(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

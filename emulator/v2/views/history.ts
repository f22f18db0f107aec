// A pull request's queue-entry history, from the engine's timeline: each transition with its state, when,
// and why (SCREAMING_SNAKE; null for testing and pendingFailure, whose eventual failure reason goes in the
// pendingFailure details), the verification run it happened in, and the failing checks of a failure.
// No transition carries an actor: in the emulator no person causes one (keys belong to the organization).
import type { V2 } from '../../../src/wire/v2/index.js';
import { repoKeyOf, type HistoryEvent, type TestRun } from '../../../src/queue-model/index.js';
import type { PullRequestRef, V2Directory } from '../directory.js';
import { ENTRY_STATE } from '../enums.js';
import { checksOf } from './run.js';
import { iso } from './time.js';

type StateEvent = Extract<HistoryEvent, { kind: 'pr_state' }>;
type Transition = V2<'QueueEntryStateTransition'>;

/** The reason a passed run gives (the engine records none). */
const TESTS_PASSED = 'TEST_RUN_PASSED';

/** Every queue of the repository, deleted ones too (their histories stay readable). */
function everQueuesOf(directory: V2Directory, ref: PullRequestRef) {
  const key = repoKeyOf(ref.repo);
  return [
    ...directory.queuesOf(ref.repo),
    ...directory.engine.deletedQueues().filter((q) => repoKeyOf(q.repo) === key),
  ];
}

/** The PR's transitions in every queue of its repository, deleted ones too, oldest first. */
export function stateEventsOf(directory: V2Directory, ref: PullRequestRef): StateEvent[] {
  const queueKeys = new Set(everQueuesOf(directory, ref).map((q) => q.key));
  return directory.engine.history.filter(
    (event): event is StateEvent =>
      event.kind === 'pr_state' && event.prNumber === ref.number && queueKeys.has(event.queueKey),
  );
}

function runOf(directory: V2Directory, ref: PullRequestRef, event: StateEvent): TestRun | undefined {
  if (!event.runId) return undefined;
  return everQueuesOf(directory, ref)
    .find((q) => q.key === event.queueKey)
    ?.runs.get(event.runId);
}

/** The required checks that did not pass, one per name, concluded as the provider spells it (`FAILURE`). */
function failingChecks(run: TestRun | undefined): V2<'FailureCausingCheck'>[] {
  if (!run) return [];
  return checksOf(run)
    .filter((check) => check.kind === 'checkRun' && check.conclusion !== 'success')
    .map((check) => ({
      name: check.name,
      ...(check.url ? { url: check.url } : {}),
      ...(check.providerConclusion ? { conclusion: check.providerConclusion } : {}),
    }));
}

export function transitionView(directory: V2Directory, ref: PullRequestRef, event: StateEvent): Transition {
  const state = ENTRY_STATE[event.to];
  const silent = state === 'testing' || state === 'pendingFailure';
  const transition: Transition = {
    pullRequestId: ref.id,
    state,
    changedAt: iso(event.at),
    reason: silent ? null : (event.reason ?? (state === 'testsPassed' ? TESTS_PASSED : null)),
  };
  if (event.runId) transition.verificationRunId = event.runId;
  if (event.prerequisitePrNumber !== undefined) {
    transition.prerequisitePullRequestId = directory.pullRequest(ref.repo, event.prerequisitePrNumber).id;
  }
  const run = runOf(directory, ref, event);
  if (state === 'pendingFailure') {
    transition.pendingFailure = {
      ...(event.reason ? { eventualFailureReason: event.reason } : {}),
      waitingFor: [],
      failureCausingChecks: failingChecks(run),
    };
  }
  if (state === 'failed') transition.failed = { failureCausingChecks: failingChecks(run) };
  return transition;
}

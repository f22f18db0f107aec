// A queue's lists: its pull requests (each PR's one entry, most recently enqueued first; by state, author
// and conclusion time) and its testing results (each PR of each finished run, over at most 45 days).
import type { V2 } from '../../../src/wire/v2/index.js';
import { UNKNOWN, type Submission, type TestRun } from '../../../src/queue-model/index.js';
import type { V2Handlers } from '../call.js';
import { ENTRY_STATE } from '../enums.js';
import { validationFailed } from '../errors.js';
import { listRowOf, pullRequestView } from '../views/pull-request.js';
import { iso } from '../views/time.js';

const DAY_MS = 86_400_000;
const MAX_RANGE_DAYS = 45;
const ENTRY_STATES = new Set<string>(Object.values(ENTRY_STATE));

function statesOf(text: string | undefined): Set<string> | undefined {
  if (text === undefined) return undefined;
  const states = text.split(',').map((s) => s.trim());
  const wrong = states.filter((s) => !ENTRY_STATES.has(s));
  if (wrong.length > 0) {
    throw validationFailed(
      `state ${wrong.join(', ')} is not a queue-entry state; the states are ${[...ENTRY_STATES].join(', ')} (comma separated, spelled exactly so)`,
    );
  }
  return new Set(states);
}

function concludedWithin(
  submission: Submission,
  after: number | undefined,
  before: number | undefined,
): boolean {
  if (after === undefined && before === undefined) return true;
  const at = submission.concludedAt;
  return at !== null && (after === undefined || at >= after) && (before === undefined || at <= before);
}

interface Result {
  run: TestRun;
  submission: Submission;
}

function outcomeOf(run: TestRun, submission: Submission): V2<'TestingOutcome'> {
  if (run.status === 'succeeded') return 'passed';
  if (run.status === 'failed') return 'failed';
  // A run stopped because its PR was taken out was cancelled; one stopped while the PR went on
  // (a restart, a failure ahead, a PR skipping the line) was interrupted.
  const takenOut = submission.state === 'cancelled' && submission.concludedAt === run.finishedAt;
  return takenOut ? 'cancelled' : 'interrupted';
}

function resultView({ run, submission }: Result): V2<'TestingResult'> {
  const concluded =
    submission.state === 'merged' || submission.state === 'failed' || submission.state === 'cancelled';
  return {
    pullRequestNumber: submission.prNumber,
    endedAt: iso(run.finishedAt!),
    testingDurationMs: run.finishedAt! - run.createdAt,
    outcome: outcomeOf(run, submission),
    ...(concluded ? { entryConclusion: submission.state as V2<'QueueEntryConclusion'> } : {}),
    isBisection: run.kind === 'bisection',
    startedBisection: run.kind === 'main' && run.status === 'failed' && run.tested.length > 1,
    verificationRunId: run.id,
  };
}

export const queueListHandlers: Pick<
  V2Handlers,
  'mergeQueues.listPullRequests' | 'mergeQueues.listTestingResults'
> = {
  'mergeQueues.listPullRequests': (call, { directory }) => {
    const queue = directory.queueById(call.path.id);
    const { state, author, concludedAfter, concludedBefore } = call.query;
    const states = statesOf(state);
    const after = concludedAfter === undefined ? undefined : Date.parse(concludedAfter);
    const before = concludedBefore === undefined ? undefined : Date.parse(concludedBefore);
    const entries = [...queue.submissions]
      .reverse()
      .filter((s) => queue.latestByPr.get(s.prNumber) === s)
      .filter((s) => !states || states.has(ENTRY_STATE[s.state]))
      .filter((s) => author === undefined || (s.info.author ?? UNKNOWN) === author)
      .filter((s) => concludedWithin(s, after, before));
    return call.page(
      entries,
      (s) => s.id,
      (s) => listRowOf(pullRequestView(directory, directory.pullRequest(queue.repo, s.prNumber), s)),
    );
  },
  'mergeQueues.listTestingResults': (call, { directory, engine }) => {
    const queue = directory.queueById(call.path.id);
    const since = Date.parse(call.query.since);
    // Untold, until is the time of the first page, kept by its cursors: a run ending while a client
    // pages does not shift the pages.
    const until =
      call.query.until === undefined ? call.firstPageTime(engine.clock.now()) : Date.parse(call.query.until);
    if (until <= since) throw validationFailed('until must be after since');
    if (until - since > MAX_RANGE_DAYS * DAY_MS) {
      throw validationFailed(
        `since and until may be at most ${MAX_RANGE_DAYS} days apart; ask for a shorter range`,
      );
    }
    const results = [...queue.runs.values()]
      .filter((run) => run.finishedAt !== null && run.finishedAt >= since && run.finishedAt <= until)
      .sort((a, b) => b.finishedAt! - a.finishedAt!)
      .flatMap((run) => run.tested.map((submission) => ({ run, submission })));
    return call.page(results, ({ run, submission }) => `${run.id}/${submission.id}`, resultView);
  },
};

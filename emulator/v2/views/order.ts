// A queue's dispatch order, computed from the engine's line: the runs that hold PRs (batches), the PRs
// waiting their turn in the order the scheduler will take them (what is directly ahead in their lane,
// and which failures hold them). PRs not ready are in none of the lists; awaitingAdmission (PRs past the
// graph's size cap) is always empty, as the emulator's graph has no cap.
import type { V2 } from '../../../src/wire/v2/index.js';
import {
  dependenciesAhead,
  type QueueRecord,
  type Submission,
  type TestRun,
} from '../../../src/queue-model/index.js';
import type { V2Directory } from '../directory.js';
import { ENTRY_STATE, QUEUE_MODE, QUEUE_STATE } from '../enums.js';
import { queuedPullRequestView } from './pull-request.js';

export function orderView(directory: V2Directory, queue: QueueRecord): V2<'MergeQueueOrder'> {
  const { engine } = directory;
  const line = engine.scheduler.order(queue);
  return {
    mode: QUEUE_MODE[queue.mode],
    queueState: QUEUE_STATE[queue.state],
    batchingEnabled: queue.settings.batch,
    isolationResolved: true,
    hasCycle: false,
    batches: batchesOf(directory, queue, line),
    pending: pendingOf(directory, queue, line),
    awaitingAdmission: [],
    awaitingAdmissionTotal: 0,
  };
}

/** Each run that still holds PRs of the line (testing, passed, or failed and waiting), in line order. */
function batchesOf(directory: V2Directory, queue: QueueRecord, line: Submission[]): V2<'OrderedBatch'>[] {
  const byRun = new Map<TestRun, Submission[]>();
  for (const submission of line) {
    const run = submission.run;
    if (!run || !queue.liveRuns.has(run) || submission.state === 'pending') continue;
    byRun.set(run, [...(byRun.get(run) ?? []), submission]);
  }
  return [...byRun].map(([run, members]) => ({
    verificationRunId: run.id,
    state: ENTRY_STATE[members[0]!.state],
    isBisection: run.kind === 'bisection',
    pullRequests: members.map((s) => queuedPullRequestView(directory, s)),
  }));
}

function pendingOf(
  directory: V2Directory,
  queue: QueueRecord,
  line: Submission[],
): V2<'OrderedPendingItem'>[] {
  const targetsOf = (s: Submission) => directory.engine.core.targetsOf(s);
  const items: V2<'OrderedPendingItem'>[] = [];
  let batchable = 0;
  line.forEach((submission, index) => {
    if (submission.state !== 'pending') return;
    const lane = dependenciesAhead(line, index, targetsOf(submission), targetsOf);
    const failing = lane.filter((s) => s.state === 'pending_failure');
    const item: V2<'OrderedPendingItem'> = {
      pullRequest: queuedPullRequestView(directory, submission),
      schedulability: failing.length > 0 ? 'heldBehindFailure' : 'schedulable',
      directlyAhead: lane.slice(-1).map((s) => queuedPullRequestView(directory, s)),
      heldBy: failing.map((s) => queuedPullRequestView(directory, s)),
    };
    // Numbered from 1, the same for the PRs predicted to be tested together; none for a held PR.
    if (queue.settings.batch && !submission.noBatch && failing.length === 0) {
      item.predictedBatch = Math.floor(batchable++ / queue.settings.batchingMinSize) + 1;
    }
    items.push(item);
  });
  return items;
}

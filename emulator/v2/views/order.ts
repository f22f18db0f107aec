// A queue's dispatch order, computed from the engine's line: the runs that hold PRs (batches), the PRs
// waiting their turn in the order the scheduler will take them (what is directly ahead in their lane,
// and which failures hold them), and the submitted PRs not admitted yet.
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

/** awaitingAdmission lists at most this many; awaitingAdmissionTotal counts them all. */
export const AWAITING_ADMISSION_SHOWN = 100;

export function orderView(directory: V2Directory, queue: QueueRecord): V2<'MergeQueueOrder'> {
  const { engine } = directory;
  const line = engine.scheduler.order(queue);
  const awaiting = [...queue.live].filter((s) => s.state === 'not_ready').sort((a, b) => a.seq - b.seq);
  return {
    mode: QUEUE_MODE[queue.mode],
    queueState: QUEUE_STATE[queue.state],
    batchingEnabled: queue.settings.batch,
    isolationResolved: true,
    hasCycle: false,
    batches: batchesOf(directory, queue, line),
    pending: pendingOf(directory, queue, line),
    awaitingAdmission: awaiting
      .slice(0, AWAITING_ADMISSION_SHOWN)
      .map((s) => queuedPullRequestView(directory, s)),
    awaitingAdmissionTotal: awaiting.length,
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
    if (queue.settings.batch && !submission.noBatch) {
      item.predictedBatch = Math.floor(batchable++ / queue.settings.batchingMinSize);
    }
    items.push(item);
  });
  return items;
}

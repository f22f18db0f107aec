// A queue's dispatch order, computed from the engine's line: the runs that hold PRs (batches), the PRs
// waiting their turn in the order the scheduler will take them, the held ones last (what they depend on
// directly in the reduced graph, and which failures hold them), and the ready PRs past a graph queue's
// admission cap. PRs not ready are in none of the lists. The emulator resolves isolate rules in every
// read, and its graph has no cycle: edges run from a PR ahead in the line to one behind.
import type { V2 } from '../../../src/wire/v2/index.js';
import {
  awaitingAdmission,
  dependenciesAhead,
  type QueueRecord,
  type Submission,
  testsAlone,
  type TestRun,
} from '../../../src/queue-model/index.js';
import type { V2Directory } from '../directory.js';
import { ENTRY_STATE, QUEUE_MODE, QUEUE_STATE } from '../enums.js';
import { directPredecessors } from './graph.js';
import { queuedPullRequestView } from './pull-request.js';

/** How many PRs awaiting admission an order read lists (`awaitingAdmissionTotal` counts them all). */
const AWAITING_ADMISSION_SHOWN = 100;

export function orderView(directory: V2Directory, queue: QueueRecord): V2<'MergeQueueOrder'> {
  const { engine } = directory;
  const line = engine.scheduler.order(queue);
  const awaiting = awaitingAdmission(queue);
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
      .map((submission) => queuedPullRequestView(directory, submission)),
    awaitingAdmissionTotal: awaiting.length,
  };
}

/** Each run that still holds PRs of the line (testing, passed, or failed and waiting), in line order, bisections last. */
function batchesOf(directory: V2Directory, queue: QueueRecord, line: Submission[]): V2<'OrderedBatch'>[] {
  const byRun = new Map<TestRun, Submission[]>();
  for (const submission of line) {
    const run = submission.run;
    if (!run || !queue.liveRuns.has(run) || submission.state === 'pending') continue;
    byRun.set(run, [...(byRun.get(run) ?? []), submission]);
  }
  const runs = [...byRun].sort(([a], [b]) => Number(a.kind === 'bisection') - Number(b.kind === 'bisection'));
  return runs.map(([run, members]) => ({
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
  const direct = directPredecessors(line.map(targetsOf));
  const view = (s: Submission) => queuedPullRequestView(directory, s);
  const schedulable: V2<'OrderedPendingItem'>[] = [];
  const held: V2<'OrderedPendingItem'>[] = [];
  const predict = batchPredictor(queue, (s) => testsAlone(queue, s, targetsOf(s)));
  line.forEach((submission, index) => {
    if (submission.state !== 'pending') return;
    const lane = dependenciesAhead(line, index, targetsOf(submission), targetsOf);
    const failing = lane.filter((s) => s.state === 'pending_failure');
    const item: V2<'OrderedPendingItem'> = {
      pullRequest: view(submission),
      schedulability: failing.length > 0 ? 'heldBehindFailure' : 'schedulable',
      // The document: no batching, no directlyAhead anywhere.
      directlyAhead: queue.settings.batch ? direct[index]!.map((i) => view(line[i]!)) : [],
      heldBy: failing.map(view),
    };
    const batch = failing.length === 0 ? predict(submission) : undefined;
    if (batch !== undefined) item.predictedBatch = batch;
    (failing.length > 0 ? held : schedulable).push(item);
  });
  return [...schedulable, ...held];
}

/**
 * While batching, numbers the schedulable PRs' predicted batches from 1 as the scheduler groups them: up
 * to `batchingMinSize` together, a PR tested alone (no batching, or isolated by a rule) in its own.
 */
function batchPredictor(
  queue: QueueRecord,
  alone: (submission: Submission) => boolean,
): (submission: Submission) => number | undefined {
  let batch = 0;
  let filled = Infinity;
  return (submission) => {
    if (!queue.settings.batch) return undefined;
    if (alone(submission) || filled >= queue.settings.batchingMinSize) {
      batch++;
      filled = 0;
    }
    filled = alone(submission) ? Infinity : filled + 1;
    return batch;
  };
}

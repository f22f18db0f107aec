// A queue's dispatch order, computed from the engine's line: the runs that hold PRs (batches), the PRs
// waiting their turn in the order the scheduler will take them, the held ones last (what they depend on
// directly in the reduced graph, and which failures hold them). PRs not ready are in none of the lists; awaitingAdmission (PRs past the
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
import { targetPatternMatches } from '../config-patch.js';
import { directPredecessors } from './graph.js';
import { queuedPullRequestView } from './pull-request.js';

export function orderView(directory: V2Directory, queue: QueueRecord): V2<'MergeQueueOrder'> {
  const { engine } = directory;
  const line = engine.scheduler.order(queue);
  return {
    mode: QUEUE_MODE[queue.mode],
    queueState: QUEUE_STATE[queue.state],
    batchingEnabled: queue.settings.batch,
    isolationResolved: !isolationCouldApply(directory, queue, line),
    hasCycle: false,
    batches: batchesOf(directory, queue, line),
    pending: pendingOf(directory, queue, line),
    awaitingAdmission: [],
    awaitingAdmissionTotal: 0,
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
  let batchable = 0;
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
    // Numbered from 1, the same for the PRs predicted to be tested together; none for a held PR.
    if (queue.settings.batch && !submission.noBatch && failing.length === 0) {
      item.predictedBatch = Math.floor(batchable++ / queue.settings.batchingMinSize) + 1;
    }
    (failing.length > 0 ? held : schedulable).push(item);
  });
  return [...schedulable, ...held];
}

/**
 * Whether an isolate batching rule names a target of a waiting PR while batching: the emulator keeps the
 * rules without acting on them, so its predicted batches leave that PR's isolation unresolved.
 */
function isolationCouldApply(directory: V2Directory, queue: QueueRecord, line: Submission[]): boolean {
  const rules = directory.extrasOf(queue).batchingRules;
  if (!queue.settings.batch || rules.length === 0) return false;
  return line.some((submission) => {
    if (submission.state !== 'pending') return false;
    const targets = directory.engine.core.targetsOf(submission);
    return (
      targets !== 'ALL' &&
      targets.some((target) => rules.some((rule) => targetPatternMatches(rule.targetPattern, target)))
    );
  });
}

// The line as v2's dispatch order tells it, exactly rather than approximately: the runs holding PRs
// (batches) and the PRs waiting, in the order the queue will take them; for the PR, what is directly
// ahead of it, which failures hold it, and the batch it is predicted to join.
import type { V2 } from '../../../../wire/v2/index.js';
import type { OperationContext } from '../../types.js';
import type { LinePr, LineView } from '../line.js';
import { queueIdOf, type V2Access } from './access.js';

/** What the dispatch order says of one PR. */
export interface DispatchView {
  /** The PRs the queue takes right before this one (its lane's last, in a parallel queue). */
  directlyAhead: number[];
  /** The failed PRs whose blame the queue is still working out, which this one waits on. */
  heldBy: number[];
  /** The batch it is predicted to be tested in, counted from 1. */
  predictedBatch?: number;
  /** The run testing it now, and the PRs tested with it. */
  batch?: { runId: string; with: number[]; isBisection: boolean };
}

/** queueState and the PRs' states in v1's spelling, which the line's readers use. */
function snake(value: string): string {
  return value.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

export async function readDispatchLine(
  op: OperationContext<unknown>,
  access: V2Access,
  prNumber: number,
): Promise<LineView> {
  const id = await queueIdOf(op, access);
  const { data } = await access.v2.call('mergeQueues.order', { path: { id } });
  return dispatchLineOf(data, prNumber);
}

export function dispatchLineOf(order: V2<'MergeQueueOrder'>, prNumber: number): LineView {
  const line: LinePr[] = [];
  const linePr = (pr: V2<'QueuedPullRequest'>, state: string): LinePr => ({
    prNumber: pr.number,
    state,
    urgent: false,
    prSha: pr.sha,
  });
  for (const batch of order.batches)
    line.push(...batch.pullRequests.map((pr) => linePr(pr, snake(batch.state))));
  for (const item of order.pending) line.push(linePr(item.pullRequest, 'pending'));
  const index = line.findIndex((pr) => pr.prNumber === prNumber);
  const view: LineView = {
    queueState: snake(order.queueState),
    position: index >= 0 ? index + 1 : undefined,
    length: line.length,
    ahead: index >= 0 ? line.slice(0, index) : [],
  };
  const pending = order.pending.find((item) => item.pullRequest.number === prNumber);
  if (pending) {
    view.dispatch = {
      directlyAhead: pending.directlyAhead.map((pr) => pr.number),
      heldBy: pending.heldBy.map((pr) => pr.number),
      ...(pending.predictedBatch !== undefined ? { predictedBatch: pending.predictedBatch + 1 } : {}),
    };
    return view;
  }
  const batch = order.batches.find((b) => b.pullRequests.some((pr) => pr.number === prNumber));
  if (batch) {
    const others = batch.pullRequests.map((pr) => pr.number).filter((n) => n !== prNumber);
    const runId = batch.verificationRunId;
    view.dispatch = {
      directlyAhead: [],
      heldBy: [],
      batch: { runId, with: others, isBisection: batch.isBisection },
    };
  }
  return view;
}

const list = (numbers: number[]) => numbers.map((n) => `#${n}`).join(', ');

/** The PR's place in words: "behind #12, held by #9 (failed, blame being worked out)", "first in line". */
export function dispatchWords(dispatch: DispatchView): string {
  const parts: string[] = [];
  if (dispatch.batch) {
    const { with: others, isBisection } = dispatch.batch;
    parts.push(
      others.length
        ? `in one ${isBisection ? 'bisection run' : 'run'} with ${list(others)}`
        : `in its own ${isBisection ? 'bisection run' : 'run'}`,
    );
  } else {
    parts.push(
      dispatch.directlyAhead.length ? `directly behind ${list(dispatch.directlyAhead)}` : 'next to be tested',
    );
  }
  if (dispatch.heldBy.length) {
    parts.push(`held by ${list(dispatch.heldBy)} (failed; the queue is working out which PR is to blame)`);
  }
  if (dispatch.predictedBatch !== undefined) parts.push(`predicted batch ${dispatch.predictedBatch}`);
  return parts.join(', ');
}

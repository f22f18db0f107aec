// The line as v2's dispatch order tells it, exactly rather than approximately: the runs holding PRs
// (batches) and the PRs waiting, in the order the queue will take them; for the PR, what is directly
// ahead of it, which failures hold it, and the batch it is predicted to join.
import { QUEUE_ENTRY_STATE_V1, QUEUE_STATE_V1, toV1, type V2 } from '../../../../wire/v2/index.js';
import type { OperationContext } from '../../types.js';
import type { DispatchView, LinePr, LineView } from '../line-view.js';
import { queueIdOf, type V2Access } from './access.js';

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
    line.push(
      ...batch.pullRequests.map((pr) => linePr(pr, toV1(QUEUE_ENTRY_STATE_V1, batch.state) ?? batch.state)),
    );
  for (const item of order.pending) line.push(linePr(item.pullRequest, 'pending'));
  const index = line.findIndex((pr) => pr.prNumber === prNumber);
  const view: LineView = {
    // The line's readers take v1's spelling.
    queueState: toV1(QUEUE_STATE_V1, order.queueState) ?? order.queueState,
    position: index >= 0 ? index + 1 : undefined,
    length: line.length,
    ahead: index >= 0 ? line.slice(0, index) : [],
  };
  const pending = order.pending.find((item) => item.pullRequest.number === prNumber);
  if (pending) {
    view.dispatch = {
      directlyAhead: pending.directlyAhead.map((pr) => pr.number),
      heldBy: pending.heldBy.map((pr) => pr.number),
      // 1-based in the document already.
      ...(pending.predictedBatch !== undefined ? { predictedBatch: pending.predictedBatch } : {}),
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

// Where a PR stands in its queue's line, from getQueue: the queue's state, the PR's place in the line
// (approximate: the line moves between two looks) and the PRs ahead of it. Over v2, from the queue's
// dispatch order instead: what is directly ahead and what holds the PR (v2/dispatch.ts).
import { enumValue } from '../../../wire/index.js';
import type { QueueAnswer } from '../../api/typed-answers.js';
import { wordsOf } from '../../failure.js';
import { words, type Words } from '../../words.js';
import { queueRef } from '../common.js';
import type { OperationContext } from '../types.js';
import { v2Of } from './v2/access.js';
import type { LinePr, LineView } from './line-view.js';
import { readDispatchLine } from './v2/dispatch.js';

/** The line as getQueue shows it; undefined (said once in the log) when it cannot be read. */
export async function readLine(
  op: OperationContext<unknown>,
  prNumber: number,
  warnOnce: (message: Words) => void,
): Promise<LineView | undefined> {
  try {
    const access = v2Of(op);
    if (access) return await readDispatchLine(op, access, prNumber);
    const response = await op.client.call('getQueue', queueRef(op.context));
    return lineOf(response.answer, prNumber);
  } catch (error) {
    warnOnce(
      words`The queue's line could not be read (${wordsOf(error)}); progress lines show the PR's state only.`,
    );
    return undefined;
  }
}

export function lineOf(queue: QueueAnswer, prNumber: number): LineView {
  const prs: LinePr[] = (queue.enqueuedPullRequests ?? []).map((pr) => ({
    prNumber: Number(pr.prNumber),
    state: enumValue(pr.state),
    priorityValue: typeof pr.priorityValue === 'number' ? pr.priorityValue : undefined,
    priorityName:
      typeof pr.priorityName === 'string' && pr.priorityName ? pr.priorityName.toLowerCase() : undefined,
    urgent: pr.priorityValue === 0 || pr.skipTheLine === true,
    prSha: typeof pr.prSha === 'string' ? pr.prSha : undefined,
  }));
  const index = prs.findIndex((pr) => pr.prNumber === prNumber);
  return {
    queueState: enumValue(queue.state),
    concurrency: typeof queue.concurrency === 'number' ? queue.concurrency : undefined,
    position: index >= 0 ? index + 1 : undefined,
    length: prs.length,
    ahead: index >= 0 ? prs.slice(0, index) : [],
  };
}

export const QUEUE_STATE_NOTES: Record<string, string> = {
  paused: 'the queue is paused: nothing merges and no new testing starts until it is resumed',
  draining: 'the queue is draining: PRs in it finish, no new PR enters the line',
  switching_modes: 'the queue is switching modes: no new testing starts until the runs in progress end',
};

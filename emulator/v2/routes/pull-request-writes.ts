// Writing pull requests: submitting one to a queue (by the queue's id), taking it out, restarting its
// tests, and changing its priority, batching or direct flag, each through the engine v1 uses.
import type { V2Handlers } from '../call.js';
import { V2Error } from '../errors.js';
import { pullRequestView } from '../views/pull-request.js';
import { activeEntryOf, priorityOf } from './entries.js';

type Writes =
  | 'mergeQueues.submitPullRequest'
  | 'pullRequests.dequeue'
  | 'pullRequests.restartTests'
  | 'pullRequests.reprioritize'
  | 'pullRequests.updateQueueEntry';

const RESTARTABLE = new Set(['testing', 'pending_failure']);

export const pullRequestWriteHandlers: Pick<V2Handlers, Writes> = {
  'mergeQueues.submitPullRequest': (call, { directory, engine }) => {
    const queue = directory.queueById(call.path.id);
    const { number, allowBatching, direct } = call.body;
    const ref = directory.pullRequest(queue.repo, number);
    const current = directory.latestSubmission(queue.repo, number);
    if (current && current.queue.live.has(current)) {
      throw new V2Error(
        409,
        'PR_ALREADY_ENQUEUED',
        `Pull request #${number} is already in the merge queue for ${current.queue.branch} (${current.state.replace('_', ' ')}); change it with reprioritize or PATCH queue-entry`,
      );
    }
    if (queue.latestByPr.get(number)?.state === 'merged') {
      throw new V2Error(
        422,
        'PR_NOT_ENQUEUEABLE',
        `Pull request #${number} is already merged into ${queue.branch}`,
      );
    }
    const priority = priorityOf(call.body);
    engine.submitPullRequest(queue.repo, queue.branch, number, {
      ...(priority !== undefined ? { priority } : {}),
      ...(allowBatching !== undefined ? { noBatch: !allowBatching } : {}),
      direct: direct === true,
    });
    return pullRequestView(directory, ref);
  },
  'pullRequests.dequeue': (call, { directory, engine }) => {
    const ref = directory.pullRequestById(call.path.id);
    const entry = activeEntryOf(directory, ref);
    engine.cancelPullRequest(ref.repo, entry.queue.branch, ref.number);
    return pullRequestView(directory, ref);
  },
  'pullRequests.restartTests': (call, { directory, engine }) => {
    const ref = directory.pullRequestById(call.path.id);
    const entry = activeEntryOf(directory, ref);
    if (!RESTARTABLE.has(entry.state)) {
      throw new V2Error(
        422,
        'PR_TESTS_NOT_RESTARTABLE',
        `Pull request #${ref.number} is ${entry.state.replace('_', ' ')}; tests restart only while testing or in pending failure`,
      );
    }
    engine.restartTestsOnPullRequest(ref.repo, entry.queue.branch, ref.number);
    return pullRequestView(directory, ref);
  },
  'pullRequests.reprioritize': (call, { directory, engine }) => {
    const ref = directory.pullRequestById(call.path.id);
    const entry = activeEntryOf(directory, ref);
    engine.updateEntry(ref.repo, entry.queue.branch, ref.number, { priority: priorityOf(call.body)! });
    return pullRequestView(directory, ref);
  },
  'pullRequests.updateQueueEntry': (call, { directory, engine }) => {
    const ref = directory.pullRequestById(call.path.id);
    const entry = activeEntryOf(directory, ref);
    const priority = priorityOf(call.body);
    const { allowBatching, direct } = call.body;
    engine.updateEntry(ref.repo, entry.queue.branch, ref.number, {
      ...(priority !== undefined ? { priority } : {}),
      ...(allowBatching !== undefined ? { noBatch: !allowBatching } : {}),
      ...(direct !== undefined ? { direct } : {}),
    });
    return pullRequestView(directory, ref);
  },
};

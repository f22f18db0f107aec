// Reading merge queues: the list (by repository and target branch), one queue, and its dispatch order.
import type { V2Handlers } from '../call.js';
import { repoKeyOf } from '../../../src/queue-model/index.js';
import { validationFailed } from '../errors.js';
import { orderView } from '../views/order.js';
import { queueView } from '../views/queue.js';

export const queueReadHandlers: Pick<
  V2Handlers,
  'mergeQueues.list' | 'mergeQueues.get' | 'mergeQueues.order'
> = {
  'mergeQueues.list': (call, { directory, engine }) => {
    const { repositoryId, targetBranch } = call.query;
    if (targetBranch !== undefined && repositoryId === undefined) {
      throw validationFailed('targetBranch filters the queues of one repository: give repositoryId too');
    }
    // A repository the organization does not have holds no queue: an empty list, as the document has no 404 here.
    const repo =
      repositoryId === undefined ? undefined : (directory.findRepository(repositoryId)?.repo ?? null);
    const queues = engine
      .queues()
      .filter((q) => repo === undefined || (repo !== null && repoKeyOf(q.repo) === repoKeyOf(repo)))
      .filter((q) => targetBranch === undefined || q.branch === targetBranch);
    return call.page(
      queues,
      (q) => q.key,
      (q) => queueView(directory, q),
    );
  },
  'mergeQueues.get': (call, { directory }) => queueView(directory, directory.queueById(call.path.id)),
  'mergeQueues.order': (call, { directory }) => orderView(directory, directory.queueById(call.path.id)),
};

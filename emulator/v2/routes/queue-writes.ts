// Writing merge queues: create, delete, the config PATCH, pause/resume/drain and switch-modes, through
// the engine v1 uses. A write whose User-Agent or X-Source names Terraform or OpenTofu marks the queue
// Terraform-managed; a manual write after that marks it drifted.
import type { QueueState } from '../../../src/wire/index.js';
import type { QueueRecord } from '../../../src/queue-model/index.js';
import type { V2Call, V2Context, V2Handlers } from '../call.js';
import { applyExtras, engineSettingsOf } from '../config-patch.js';
import { QUEUE_MODE, fromV2 } from '../enums.js';
import { V2Error } from '../errors.js';
import { queueView, stateChangeView } from '../views/queue.js';

type Writes =
  | 'mergeQueues.create'
  | 'mergeQueues.delete'
  | 'mergeQueues.updateConfig'
  | 'mergeQueues.pause'
  | 'mergeQueues.resume'
  | 'mergeQueues.drain'
  | 'mergeQueues.switchModes';

const TERRAFORM = /terraform|opentofu/i;

/** Stamps the queue's extras after a settings write: when, and by whom (Terraform or a person). */
function written(context: V2Context, queue: QueueRecord, headers: Record<string, unknown>): void {
  const extras = context.directory.extrasOf(queue);
  extras.updatedAt = context.engine.clock.now();
  const byTerraform = [headers['user-agent'], headers['x-source']].some(
    (h) => typeof h === 'string' && TERRAFORM.test(h),
  );
  if (byTerraform) extras.managedState = 'terraform';
  else if (extras.managedState === 'terraform') extras.managedState = 'terraformWithDrift';
}

function refuseWhileSwitching(queue: QueueRecord): void {
  if (queue.state === 'switching_modes') {
    throw new V2Error(
      409,
      'MODE_CHANGE_IN_PROGRESS',
      `The merge queue for ${queue.branch} is switching modes; try again once its runs have finished`,
    );
  }
}

type StateWrite = 'mergeQueues.pause' | 'mergeQueues.resume' | 'mergeQueues.drain';

function changeState(state: Exclude<QueueState, 'switching_modes'>) {
  return (call: V2Call<StateWrite>, context: V2Context) => {
    const queue = context.directory.queueById(call.path.id);
    context.engine.updateQueue(queue.repo, queue.branch, { state });
    written(context, queue, call.headers);
    return stateChangeView(context.directory, queue);
  };
}

export const queueWriteHandlers: Pick<V2Handlers, Writes> = {
  'mergeQueues.create': (call, context) => {
    const { repositoryId, targetBranch, mode, concurrency, bisectionConcurrency, enqueueingLabel } =
      call.body;
    const { repo } = context.directory.repositoryById(repositoryId);
    if (context.engine.findQueue(repo, targetBranch)) {
      throw new V2Error(
        409,
        'QUEUE_ALREADY_EXISTS',
        `A merge queue for ${targetBranch} already exists in this repository; find it with GET /v2/merge-queues?repositoryId&targetBranch`,
      );
    }
    const queue = context.engine.createQueue(
      repo,
      targetBranch,
      mode ? fromV2(QUEUE_MODE, mode) : undefined,
      concurrency,
    );
    context.directory.forgetQueue(queue);
    if (bisectionConcurrency !== undefined)
      context.engine.updateQueue(repo, targetBranch, { bisectionConcurrency });
    // The second write, as the service's: refused, it leaves the queue made (create is not atomic).
    if (enqueueingLabel !== undefined) applyExtras(context.directory.extrasOf(queue), { enqueueingLabel });
    written(context, queue, call.headers);
    return queueView(context.directory, queue);
  },
  'mergeQueues.delete': (call, { directory, engine }) => {
    const queue = directory.queueById(call.path.id);
    if (queue.live.size > 0) {
      throw new V2Error(
        409,
        'QUEUE_HAS_ACTIVE_ENTRIES',
        `The merge queue for ${queue.branch} still holds ${queue.live.size} pull request(s); drain it until it is empty first`,
      );
    }
    engine.deleteQueue(queue.repo, queue.branch);
    directory.forgetQueue(queue);
    return undefined;
  },
  'mergeQueues.updateConfig': (call, context) => {
    const queue = context.directory.queueById(call.path.id);
    refuseWhileSwitching(queue);
    const extras = context.directory.extrasOf(queue);
    applyExtras(extras, call.body);
    queue.isolateTargets = extras.batchingRules.map((rule) => rule.targetPattern);
    context.engine.updateQueue(queue.repo, queue.branch, engineSettingsOf(call.body));
    written(context, queue, call.headers);
    return queueView(context.directory, queue);
  },
  'mergeQueues.pause': changeState('paused'),
  'mergeQueues.resume': changeState('running'),
  'mergeQueues.drain': changeState('draining'),
  'mergeQueues.switchModes': (call, context) => {
    const queue = context.directory.queueById(call.path.id);
    refuseWhileSwitching(queue);
    context.engine.updateQueue(queue.repo, queue.branch, { mode: fromV2(QUEUE_MODE, call.body.mode) });
    written(context, queue, call.headers);
    return stateChangeView(context.directory, queue);
  },
};

// A merge queue as v2 shows it: its state and mode in v2's spelling, and the whole configuration (the
// engine's settings renamed per the migration guide, with the settings v2 adds kept by the directory).
import type { V2 } from '../../../src/wire/v2/index.js';
import { bisectionConcurrencyOf, type QueueRecord } from '../../../src/queue-model/index.js';
import type { V2Directory } from '../directory.js';
import { DIRECT_MERGE_MODE, MERGE_METHOD, OPTIMIZATION_MODE, QUEUE_MODE, QUEUE_STATE } from '../enums.js';
import { repositoryUrl } from './repository.js';
import { iso } from './time.js';

export function queueConfigView(directory: V2Directory, queue: QueueRecord): V2<'MergeQueueConfig'> {
  const s = queue.settings;
  const extras = directory.extrasOf(queue);
  return {
    concurrency: s.concurrency,
    bisectionConcurrency: bisectionConcurrencyOf(queue),
    pendingFailureDepth: s.pendingFailureDepth,
    canOptimisticallyMerge: s.canOptimisticallyMerge,
    allowBatching: s.batch,
    batchingMaxWaitTimeMinutes: s.batchingMaxWaitTimeMinutes,
    batchingMinSize: s.batchingMinSize,
    testingTimeoutMinutes: s.testingTimeoutMinutes,
    notReadyTimeoutMinutes: extras.notReadyTimeoutMinutes,
    createsPrsForTestingBranches: s.createPrsForTestingBranches,
    areCommentsEnabled: s.commentsEnabled,
    areCommandsEnabled: s.commandsEnabled,
    isStatusCheckEnabled: s.statusCheckEnabled,
    isExtensionEnabled: extras.isExtensionEnabled,
    areLabelCommandsEnabled: extras.areLabelCommandsEnabled,
    areStateLabelsEnabled: extras.areStateLabelsEnabled,
    requiredStatuses: [...(s.requiredStatuses ?? [])],
    allowedBotSubmitters: [...extras.allowedBotSubmitters],
    batchingRules: extras.batchingRules.map((rule) => ({ ...rule })),
    directMergeMode: DIRECT_MERGE_MODE[s.directMergeMode],
    optimizationMode: OPTIMIZATION_MODE[s.optimizationMode],
    mergeMethod: MERGE_METHOD[s.mergeMethod],
    testBranchConstructionMode: extras.testBranchConstructionMode,
    enqueueingLabel: extras.enqueueingLabel,
  };
}

export function pullRequestsPath(id: string): string {
  return `/v2/merge-queues/${id}/pull-requests`;
}

export function queueView(directory: V2Directory, queue: QueueRecord): V2<'MergeQueue'> {
  const id = directory.queueId(queue);
  const extras = directory.extrasOf(queue);
  return {
    id,
    repositoryId: directory.repositoryId(queue.repo),
    targetBranch: queue.branch,
    state: QUEUE_STATE[queue.state],
    mode: QUEUE_MODE[queue.mode],
    managedState: extras.managedState,
    createdAt: iso(extras.createdAt),
    updatedAt: iso(extras.updatedAt),
    repositoryUrl: repositoryUrl(queue.repo),
    pullRequestsUrl: pullRequestsPath(id),
    config: queueConfigView(directory, queue),
  };
}

export function stateChangeView(directory: V2Directory, queue: QueueRecord): V2<'MergeQueueStateChange'> {
  const id = directory.queueId(queue);
  return {
    id,
    state: QUEUE_STATE[queue.state],
    mode: QUEUE_MODE[queue.mode],
    pullRequestsUrl: pullRequestsPath(id),
  };
}

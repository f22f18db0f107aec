// Queue settings: their defaults, the configuration the API returns, and applying an update.
import type { QueueConfiguration, QueueSettings } from '../../../src/wire/index.js';
import type { QueueRecord, QueueSettingsState } from './types.js';

export function defaultSettings(): QueueSettingsState {
  return {
    concurrency: 1,
    testingTimeoutMinutes: 60,
    pendingFailureDepth: 1,
    canOptimisticallyMerge: false,
    batch: false,
    batchingMaxWaitTimeMinutes: 10,
    batchingMinSize: 2,
    bisectionConcurrency: 1,
    createPrsForTestingBranches: true,
    commentsEnabled: true,
    commandsEnabled: true,
    statusCheckEnabled: true,
    requiredStatuses: null,
    directMergeMode: 'off',
    optimizationMode: 'off',
    mergeMethod: 'squash',
  };
}

/** The queue's full configuration as getQueue and updateQueue return it. */
export function configurationOf(queue: QueueRecord): QueueConfiguration {
  return {
    state: queue.state,
    branch: queue.branch,
    mode: queue.mode,
    ...queue.settings,
    requiredStatuses: [...(queue.settings.requiredStatuses ?? [])],
  };
}

const SETTING_NAMES = new Set<string>(Object.keys(defaultSettings()));

/**
 * Applies the plain settings of an update (enums already lowercased). `state` and `mode` are left to the
 * engine, which knows about switching modes.
 */
export function applySettings(queue: QueueRecord, update: QueueSettings): void {
  const settings = queue.settings as unknown as Record<string, unknown>;
  for (const [name, value] of Object.entries(update)) {
    if (value !== undefined && name !== 'requiredStatuses' && SETTING_NAMES.has(name)) settings[name] = value;
  }
  if (update.deleteRequiredStatuses) queue.settings.requiredStatuses = null;
  else if (update.requiredStatuses && update.requiredStatuses.length > 0) {
    queue.settings.requiredStatuses = [...update.requiredStatuses];
  }
}

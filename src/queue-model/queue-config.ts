// Queue settings: their defaults, the configuration the API returns, and applying an update.
import type { QueueConfiguration, QueueSettings } from '../wire/index.js';
import type { QueueRecord, QueueSettingsState } from './types.js';

/**
 * A new queue's settings, as the service's. Its pending failure depth is 0, a value the OpenAPI document's
 * `minimum: 1` refuses in an update (the README says so). The bisection concurrency follows the testing
 * concurrency until set (see bisectionConcurrencyOf).
 */
export function defaultSettings(): QueueSettingsState {
  return {
    concurrency: 1,
    testingTimeoutMinutes: 5 * 60,
    pendingFailureDepth: 0,
    canOptimisticallyMerge: false,
    batch: false,
    batchingMaxWaitTimeMinutes: 5,
    batchingMinSize: 4,
    bisectionConcurrency: 1,
    createPrsForTestingBranches: true,
    commentsEnabled: true,
    commandsEnabled: true,
    statusCheckEnabled: true,
    requiredStatuses: null,
    directMergeMode: 'always',
    optimizationMode: 'off',
    mergeMethod: 'squash',
  };
}

/** How many bisection runs may test at once: the testing concurrency until set on its own. */
export function bisectionConcurrencyOf(queue: QueueRecord): number {
  return queue.bisectionConcurrencySet ? queue.settings.bisectionConcurrency : queue.settings.concurrency;
}

/** The queue's full configuration as getQueue and updateQueue return it. */
export function configurationOf(queue: QueueRecord): QueueConfiguration {
  return {
    state: queue.state,
    branch: queue.branch,
    mode: queue.mode,
    ...queue.settings,
    bisectionConcurrency: bisectionConcurrencyOf(queue),
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
  if (update.bisectionConcurrency !== undefined) queue.bisectionConcurrencySet = true;
  if (update.deleteRequiredStatuses) queue.settings.requiredStatuses = null;
  else if (update.requiredStatuses && update.requiredStatuses.length > 0) {
    queue.settings.requiredStatuses = [...update.requiredStatuses];
  }
}

// A config PATCH (JSON merge patch) in the engine's terms: the settings v1 has, renamed back and their
// enums mapped, go to the engine; the settings only v2 has are kept in the queue's extras.
import type { QueueSettings } from '../../src/wire/index.js';
import type { V2 } from '../../src/wire/v2/index.js';
import type { QueueExtras } from './directory.js';
import { DIRECT_MERGE_MODE, MERGE_METHOD, OPTIMIZATION_MODE, fromV2 } from './enums.js';
import { validationFailed } from './errors.js';

type Patch = V2<'UpdateMergeQueueConfigRequest'>;

/** v2's names of the settings v1 has, and v1's. */
const RENAMED = {
  concurrency: 'concurrency',
  bisectionConcurrency: 'bisectionConcurrency',
  pendingFailureDepth: 'pendingFailureDepth',
  canOptimisticallyMerge: 'canOptimisticallyMerge',
  allowBatching: 'batch',
  batchingMaxWaitTimeMinutes: 'batchingMaxWaitTimeMinutes',
  batchingMinSize: 'batchingMinSize',
  testingTimeoutMinutes: 'testingTimeoutMinutes',
  createsPrsForTestingBranches: 'createPrsForTestingBranches',
  areCommentsEnabled: 'commentsEnabled',
  areCommandsEnabled: 'commandsEnabled',
  isStatusCheckEnabled: 'statusCheckEnabled',
} as const satisfies Partial<Record<keyof Patch, keyof QueueSettings>>;

const EXTRAS = [
  'notReadyTimeoutMinutes',
  'isExtensionEnabled',
  'areLabelCommandsEnabled',
  'areStateLabelsEnabled',
  'allowedBotSubmitters',
  'batchingRules',
  'testBranchConstructionMode',
  'enqueueingLabel',
] as const satisfies readonly (keyof Patch & keyof QueueExtras)[];

export function engineSettingsOf(patch: Patch): QueueSettings {
  const settings: Record<string, unknown> = {};
  for (const [v2Name, v1Name] of Object.entries(RENAMED)) {
    const value = patch[v2Name as keyof typeof RENAMED];
    if (value !== undefined) settings[v1Name] = value;
  }
  if (patch.requiredStatuses !== undefined) {
    if (patch.requiredStatuses.length === 0) settings.deleteRequiredStatuses = true;
    else settings.requiredStatuses = [...patch.requiredStatuses];
  }
  if (patch.directMergeMode) settings.directMergeMode = fromV2(DIRECT_MERGE_MODE, patch.directMergeMode);
  if (patch.optimizationMode) settings.optimizationMode = fromV2(OPTIMIZATION_MODE, patch.optimizationMode);
  if (patch.mergeMethod) settings.mergeMethod = fromV2(MERGE_METHOD, patch.mergeMethod);
  return settings as QueueSettings;
}

export function applyExtras(extras: QueueExtras, patch: Patch): void {
  if (patch.notReadyTimeoutMinutes !== undefined && patch.notReadyTimeoutMinutes % 60 !== 0) {
    throw validationFailed('notReadyTimeoutMinutes must be whole hours: a multiple of 60');
  }
  if (patch.enqueueingLabel?.toLowerCase().startsWith('trunk-')) {
    throw validationFailed(
      `enqueueingLabel ${JSON.stringify(patch.enqueueingLabel)} begins with trunk-, a prefix the service keeps for its own labels; choose another`,
    );
  }
  for (const rule of patch.batchingRules ?? []) checkTargetPattern(rule.targetPattern);
  const target = extras as unknown as Record<string, unknown>;
  for (const name of EXTRAS) {
    const value = patch[name];
    if (value !== undefined)
      target[name] = Array.isArray(value)
        ? value.map((v: unknown) => (typeof v === 'object' ? { ...v } : v))
        : value;
  }
}

/** A batching rule names a target exactly, or a prefix when it ends in one `*`; `*` alone names all. */
function checkTargetPattern(pattern: string): void {
  const star = pattern.indexOf('*');
  if (pattern === '*' || (star >= 0 && star !== pattern.length - 1)) {
    throw validationFailed(
      `batchingRules targetPattern ${JSON.stringify(pattern)} is not a target or a prefix ending in one *; a bare * is refused`,
    );
  }
}

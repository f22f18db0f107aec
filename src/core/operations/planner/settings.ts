// The settings a plan varies, by their v2 config names: a new queue's defaults, the engine's names for
// them, the values each takes, and the patch (v2) and updateQueue body (v1) that would apply a change.
import { defaultSettings } from '../../../queue-model/queue-config.js';
import type { QueueSettingsState } from '../../../queue-model/types.js';

export const OPTIMIZATION_MODES_V2 = ['off', 'bisectionSkipRedundantTests'] as const;

/** Every setting the model's rules read, under its v2 config name. Complete in every candidate. */
export interface PlanSettings {
  concurrency: number;
  allowBatching: boolean;
  batchingMinSize: number;
  batchingMaxWaitTimeMinutes: number;
  pendingFailureDepth: number;
  canOptimisticallyMerge: boolean;
  bisectionConcurrency: number;
  optimizationMode: (typeof OPTIMIZATION_MODES_V2)[number];
  testingTimeoutMinutes: number;
}

export type SettingName = keyof PlanSettings;

type Kind =
  | { type: 'integer'; min: number; max: number }
  | { type: 'boolean' }
  | { type: 'choice'; values: readonly string[] };

/** Each setting's values, as the v2 config takes them (concurrency up to 1000, as v2 allows). */
export const SETTING_KINDS: Record<SettingName, Kind> = {
  concurrency: { type: 'integer', min: 1, max: 1000 },
  allowBatching: { type: 'boolean' },
  batchingMinSize: { type: 'integer', min: 1, max: 100 },
  batchingMaxWaitTimeMinutes: { type: 'integer', min: 0, max: 24 * 60 },
  pendingFailureDepth: { type: 'integer', min: 0, max: 100 },
  canOptimisticallyMerge: { type: 'boolean' },
  bisectionConcurrency: { type: 'integer', min: 1, max: 1000 },
  optimizationMode: { type: 'choice', values: OPTIMIZATION_MODES_V2 },
  testingTimeoutMinutes: { type: 'integer', min: 1, max: 24 * 60 },
};

export const SETTING_NAMES = Object.keys(SETTING_KINDS) as SettingName[];

/** A new queue's settings, as the service creates one (its bisection concurrency follows concurrency). */
export function newQueueSettings(): PlanSettings {
  const engine = defaultSettings();
  return {
    concurrency: engine.concurrency,
    allowBatching: engine.batch,
    batchingMinSize: engine.batchingMinSize,
    batchingMaxWaitTimeMinutes: engine.batchingMaxWaitTimeMinutes,
    pendingFailureDepth: engine.pendingFailureDepth,
    canOptimisticallyMerge: engine.canOptimisticallyMerge,
    bisectionConcurrency: engine.concurrency,
    optimizationMode: engine.optimizationMode === 'off' ? 'off' : 'bisectionSkipRedundantTests',
    testingTimeoutMinutes: engine.testingTimeoutMinutes,
  };
}

/** The same settings under the engine's (v1) names. */
export function engineSettings(settings: PlanSettings): Partial<QueueSettingsState> {
  return {
    concurrency: settings.concurrency,
    batch: settings.allowBatching,
    batchingMinSize: settings.batchingMinSize,
    batchingMaxWaitTimeMinutes: settings.batchingMaxWaitTimeMinutes,
    pendingFailureDepth: settings.pendingFailureDepth,
    canOptimisticallyMerge: settings.canOptimisticallyMerge,
    bisectionConcurrency: settings.bisectionConcurrency,
    optimizationMode: settings.optimizationMode === 'off' ? 'off' : 'bisection_skip_redundant_tests',
    testingTimeoutMinutes: settings.testingTimeoutMinutes,
  };
}

/** The settings with one changed; a bisection concurrency that followed concurrency keeps following it. */
export function withSetting(current: PlanSettings, name: SettingName, value: PlanSettings[SettingName]) {
  const changed = { ...current, [name]: value } as PlanSettings;
  if (name === 'concurrency' && current.bisectionConcurrency === current.concurrency) {
    changed.bisectionConcurrency = value as number;
  }
  return changed;
}

/** What differs, by v2 config name: the JSON Merge Patch for PATCH /v2/merge-queues/{id}/config. */
export function configPatch(current: PlanSettings, next: PlanSettings): Partial<PlanSettings> {
  const patch: Record<string, unknown> = {};
  for (const name of SETTING_NAMES) if (current[name] !== next[name]) patch[name] = next[name];
  return patch as Partial<PlanSettings>;
}

/** The same change as v1's updateQueue body takes it (batch, snake_case enum values). */
export function updateQueueBody(patch: Partial<PlanSettings>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(patch)) {
    if (name === 'allowBatching') body.batch = value;
    else if (name === 'optimizationMode')
      body.optimizationMode = value === 'off' ? 'off' : 'bisection_skip_redundant_tests';
    else body[name] = value;
  }
  return body;
}

/** Settings in one fixed key order, so that the JSON is the same byte for byte. */
export function ordered(settings: PlanSettings): PlanSettings {
  return Object.fromEntries(SETTING_NAMES.map((name) => [name, settings[name]])) as unknown as PlanSettings;
}

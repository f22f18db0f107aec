// The v1 spelling of each v2 enum value and the other way round, by table: v2 renamed some values
// (single -> queue, parallel -> graph) and spells the rest in camelCase, so a value is looked up here,
// never re-cased. A value a table lacks (one the service added later) is passed on as it came.
import type {
  CHECK_RUN_CONCLUSIONS,
  CHECK_RUN_STATUSES,
  DIRECT_MERGE_MODES,
  GitHubMergeability,
  MERGE_METHODS,
  OPTIMIZATION_MODES,
  PrState,
  QueueMode,
  QueueState,
  REQUIRED_STATUSES_SOURCES,
  STATUS_CHECK_STATES,
  TestRunStatus,
} from '../enums.js';
import type { components } from './openapi-types.js';

type V2<Name extends keyof components['schemas']> = components['schemas'][Name];

/** Each v2 value and its v1 spelling: both sides typed, so a value either wire adds is a type error here. */
type Table<V2Value extends string, V1Value extends string = string> = Readonly<Record<V2Value, V1Value>>;

export const QUEUE_ENTRY_STATE_V1: Table<V2<'QueueEntryState'>, PrState> = {
  notReady: 'not_ready',
  pending: 'pending',
  testing: 'testing',
  testsPassed: 'tests_passed',
  pendingFailure: 'pending_failure',
  merged: 'merged',
  failed: 'failed',
  cancelled: 'cancelled',
};

export const QUEUE_STATE_V1: Table<V2<'MergeQueueState'>, QueueState> = {
  running: 'running',
  paused: 'paused',
  draining: 'draining',
  switchingModes: 'switching_modes',
};

export const QUEUE_MODE_V1: Table<V2<'MergeQueueMode'>, QueueMode> = { queue: 'single', graph: 'parallel' };

export const MERGE_METHOD_V1: Table<V2<'MergeMethod'>, (typeof MERGE_METHODS)[number]> = {
  mergeCommit: 'merge_commit',
  squash: 'squash',
  rebase: 'rebase',
};

export const OPTIMIZATION_MODE_V1: Table<V2<'OptimizationMode'>, (typeof OPTIMIZATION_MODES)[number]> = {
  off: 'off',
  bisectionSkipRedundantTests: 'bisection_skip_redundant_tests',
};

export const DIRECT_MERGE_MODE_V1: Table<V2<'DirectMergeMode'>, (typeof DIRECT_MERGE_MODES)[number]> = {
  off: 'off',
  always: 'always',
};

export const MERGEABILITY_V1: Table<V2<'Mergeability'>, GitHubMergeability> = {
  mergeable: 'mergeable',
  notMergeable: 'not_mergeable',
  inProgress: 'in_progress',
  unspecified: 'unspecified',
};

export const VERIFICATION_RUN_STATUS_V1: Table<V2<'VerificationRunStatus'>, TestRunStatus> = {
  inProgress: 'in_progress',
  failed: 'failed',
  cancelled: 'cancelled',
  succeeded: 'succeeded',
};

export const REQUIRED_STATUSES_SOURCE_V1: Table<
  V2<'RequiredStatusesSource'>,
  (typeof REQUIRED_STATUSES_SOURCES)[number]
> = {
  trunkConfig: 'trunk_config',
  repoProviderBranchProtection: 'repo_provider_branch_protection',
  mergeInstance: 'merge_instance',
};

/** A normalized check's status and conclusion as v1's check runs spelt them (GitHub's, UPPERCASE). */
export const CHECK_STATUS_V1: Table<V2<'CheckStatus'>, (typeof CHECK_RUN_STATUSES)[number]> = {
  queued: 'QUEUED',
  inProgress: 'IN_PROGRESS',
  completed: 'COMPLETED',
};
export const CHECK_CONCLUSION_V1: Table<V2<'CheckConclusion'>, (typeof CHECK_RUN_CONCLUSIONS)[number]> = {
  success: 'SUCCESS',
  failure: 'FAILURE',
  neutral: 'NEUTRAL',
  cancelled: 'CANCELLED',
  skipped: 'SKIPPED',
  timeout: 'TIMED_OUT',
};
/** The same conclusion as a v1 commit status's state. */
export const STATUS_CHECK_STATE_V1: Table<V2<'CheckConclusion'>, (typeof STATUS_CHECK_STATES)[number]> = {
  success: 'SUCCESS',
  failure: 'FAILURE',
  neutral: 'SUCCESS',
  cancelled: 'ERROR',
  skipped: 'SUCCESS',
  timeout: 'ERROR',
};

/**
 * The v1 spelling of a v2 value, by its table: typed as v1 documents it for a value of the v2 type (one
 * the service added later is passed on as it came, as a tolerant read keeps it), undefined for a value
 * that is no text.
 */
export function toV1<V extends string, W extends string>(table: Table<V, W>, value: V): W;
export function toV1<V extends string>(table: Table<V>, value: unknown): string | undefined;
export function toV1<V extends string>(table: Table<V>, value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  return Object.hasOwn(table, value) ? table[value as V] : value;
}

/** The v2 value whose v1 spelling is `value` (any case), by the same table; undefined when none is. */
export function fromV1<V extends string>(table: Table<V>, value: unknown): V | undefined {
  if (typeof value !== 'string') return undefined;
  const wanted = value.toLowerCase();
  return (Object.keys(table) as V[]).find((v2) => table[v2].toLowerCase() === wanted);
}

/** The same table turned round, v1 value to v2 value (what a server speaking v1 inside writes out as v2). */
export function byV1Value<V2Value extends string, V1Value extends string>(
  table: Table<V2Value, V1Value>,
): Readonly<Record<V1Value, V2Value>> {
  const entries = Object.entries(table) as [V2Value, V1Value][];
  return Object.fromEntries(entries.map(([v2, v1]) => [v1, v2])) as Record<V1Value, V2Value>;
}

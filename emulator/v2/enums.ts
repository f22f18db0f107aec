// The engine speaks v1's enums; v2 spells them in camelCase and renames some. Each table maps one enum
// value by value (as the migration guide's table does), typed by both wires, so that a value either side
// adds is a type error here rather than a re-cased guess.
import type {
  DIRECT_MERGE_MODES,
  MERGE_METHODS,
  OPTIMIZATION_MODES,
  PrState,
  QueueMode,
  QueueState,
} from '../../src/wire/index.js';
import type { V2 } from '../../src/wire/v2/index.js';
import type { Mergeability, RunStatus } from '../merge-queue/engine/types.js';

export const ENTRY_STATE = {
  not_ready: 'notReady',
  pending: 'pending',
  testing: 'testing',
  tests_passed: 'testsPassed',
  pending_failure: 'pendingFailure',
  merged: 'merged',
  failed: 'failed',
  cancelled: 'cancelled',
} as const satisfies Record<PrState, V2<'QueueEntryState'>>;

export const QUEUE_STATE = {
  running: 'running',
  paused: 'paused',
  draining: 'draining',
  switching_modes: 'switchingModes',
} as const satisfies Record<QueueState, V2<'MergeQueueState'>>;

export const QUEUE_MODE = { single: 'queue', parallel: 'graph' } as const satisfies Record<
  QueueMode,
  V2<'MergeQueueMode'>
>;

export const MERGEABILITY = {
  mergeable: 'mergeable',
  not_mergeable: 'notMergeable',
  in_progress: 'inProgress',
  unspecified: 'unspecified',
} as const satisfies Record<Mergeability, V2<'Mergeability'>>;

export const RUN_STATUS = {
  in_progress: 'inProgress',
  succeeded: 'succeeded',
  failed: 'failed',
  cancelled: 'cancelled',
} as const satisfies Record<RunStatus, V2<'VerificationRunStatus'>>;

export const MERGE_METHOD = {
  merge_commit: 'mergeCommit',
  squash: 'squash',
  rebase: 'rebase',
} as const satisfies Record<(typeof MERGE_METHODS)[number], V2<'MergeMethod'>>;

export const DIRECT_MERGE_MODE = { off: 'off', always: 'always' } as const satisfies Record<
  (typeof DIRECT_MERGE_MODES)[number],
  V2<'DirectMergeMode'>
>;

export const OPTIMIZATION_MODE = {
  off: 'off',
  bisection_skip_redundant_tests: 'bisectionSkipRedundantTests',
} as const satisfies Record<(typeof OPTIMIZATION_MODES)[number], V2<'OptimizationMode'>>;

/** The v1 value a v2 value maps from (requests arrive in v2's spelling). */
export function fromV2<V1 extends string, V2Value extends string>(
  table: Record<V1, V2Value>,
  value: V2Value,
): V1 {
  const found = (Object.entries(table) as [V1, V2Value][]).find(([, v2]) => v2 === value);
  if (!found) throw new Error(`no v1 value maps to ${value}`);
  return found[0];
}

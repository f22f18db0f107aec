// The engine speaks v1's enums; v2 spells them in camelCase and renames some. The tables are the wire's
// (src/wire/v2/from-v1.ts, one per enum, typed on both sides), turned round: v1 value to v2 value.
import {
  DIRECT_MERGE_MODE_V1,
  MERGEABILITY_V1,
  MERGE_METHOD_V1,
  OPTIMIZATION_MODE_V1,
  QUEUE_ENTRY_STATE_V1,
  QUEUE_MODE_V1,
  QUEUE_STATE_V1,
  VERIFICATION_RUN_STATUS_V1,
  byV1Value,
} from '../../src/wire/v2/from-v1.js';

export const ENTRY_STATE = byV1Value(QUEUE_ENTRY_STATE_V1);
export const QUEUE_STATE = byV1Value(QUEUE_STATE_V1);
export const QUEUE_MODE = byV1Value(QUEUE_MODE_V1);
export const MERGEABILITY = byV1Value(MERGEABILITY_V1);
export const RUN_STATUS = byV1Value(VERIFICATION_RUN_STATUS_V1);
export const MERGE_METHOD = byV1Value(MERGE_METHOD_V1);
export const DIRECT_MERGE_MODE = byV1Value(DIRECT_MERGE_MODE_V1);
export const OPTIMIZATION_MODE = byV1Value(OPTIMIZATION_MODE_V1);

/** The v1 value a v2 value maps from (requests arrive in v2's spelling). */
export function fromV2<V1 extends string, V2Value extends string>(
  table: Readonly<Record<V1, V2Value>>,
  value: V2Value,
): V1 {
  const found = (Object.entries(table) as [V1, V2Value][]).find(([, v2]) => v2 === value);
  if (!found) throw new Error(`no v1 value maps to ${value}`);
  return found[0];
}

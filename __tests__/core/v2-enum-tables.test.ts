// The v1 <-> v2 enum tables are one per enum (src/wire/v2/from-v1.ts): the client reads v2's values as
// v1's through them and the emulator writes the engine's v1 values as v2's through the same tables turned
// round. Each must pair every value of both wires once, or a state would be lost on one side.
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import {
  DIRECT_MERGE_MODES,
  GITHUB_MERGEABILITY,
  MERGE_METHODS,
  OPTIMIZATION_MODES,
  PR_STATES,
  QUEUE_MODES,
  QUEUE_STATES,
  TEST_RUN_STATUSES,
} from '../../src/wire/index.js';
import * as tables from '../../src/wire/v2/from-v1.js';

const document = JSON.parse(
  readFileSync(new URL('../../src/wire/v2/openapi.structure.json', import.meta.url), 'utf8'),
) as { components: { schemas: Record<string, { enum?: string[] }> } };

const PAIRS: [string, Readonly<Record<string, string>>, readonly string[]][] = [
  ['QueueEntryState', tables.QUEUE_ENTRY_STATE_V1, PR_STATES],
  ['MergeQueueState', tables.QUEUE_STATE_V1, QUEUE_STATES],
  ['MergeQueueMode', tables.QUEUE_MODE_V1, QUEUE_MODES],
  ['MergeMethod', tables.MERGE_METHOD_V1, MERGE_METHODS],
  ['OptimizationMode', tables.OPTIMIZATION_MODE_V1, OPTIMIZATION_MODES],
  ['DirectMergeMode', tables.DIRECT_MERGE_MODE_V1, DIRECT_MERGE_MODES],
  ['Mergeability', tables.MERGEABILITY_V1, GITHUB_MERGEABILITY],
  ['VerificationRunStatus', tables.VERIFICATION_RUN_STATUS_V1, TEST_RUN_STATUSES],
];

describe('v1 <-> v2 enum tables', () => {
  it.each(PAIRS)('pairs every %s value of the v2 document with one v1 value', (schema, table, v1Values) => {
    expect(Object.keys(table).sort()).toEqual([...(document.components.schemas[schema]?.enum ?? [])].sort());
    expect(Object.values(table).sort()).toEqual([...v1Values].sort());
    const turned = tables.byV1Value(table);
    for (const [v2, v1] of Object.entries(table)) {
      expect(turned[v1]).toBe(v2);
      expect(tables.toV1(table, v2)).toBe(v1);
      expect(tables.fromV1(table, v1.toUpperCase())).toBe(v2);
    }
  });
});

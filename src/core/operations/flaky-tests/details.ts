// What the flaky-tests operations found, as data for an entry point to show (operations/details.ts
// gathers every area's kinds).
import type { GateOutcome } from './check-test-results/summary.js';
import type { ListedTest } from './tests.js';
import type { UnhealthyCounts } from './unhealthy-summary.js';

export interface TestResultsDetails {
  kind: 'test-results';
  gate: GateOutcome;
}

export interface TestListDetails {
  kind: 'test-list';
  listing: 'unhealthy' | 'quarantined' | 'failing';
  repo: string;
  /** The first tests, in the summary's order. */
  tests: ListedTest[];
  total: number;
  counts?: UnhealthyCounts;
  nowMs: number;
}

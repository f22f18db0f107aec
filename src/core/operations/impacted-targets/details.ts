// What the impacted-targets operations found, as data for an entry point to show (operations/details.ts
// gathers every area's kinds).
import type { Computed } from './compute/compute.js';
import type { LintReport } from './compute/lint-report.js';

export interface ComputedTargetsDetails {
  kind: 'computed-targets';
  computed: Computed;
}

export interface UploadedTargetsDetails {
  kind: 'uploaded-targets';
  prNumber: number;
  /** The targets read or computed: a list, or ALL. */
  targets: readonly string[] | 'ALL';
  targetCount: number;
  /** What went to the service: the list, ALL, or nothing ('' with `notUploaded` saying why). */
  sent: 'list' | 'ALL' | '';
  fallbackReason: string;
  notUploaded?: string;
  computed?: Computed;
}

/** What lint-impacted-targets-config found: which part of the config claims which tracked files. */
export interface TargetsConfigLintDetails {
  kind: 'targets-config-lint';
  report: LintReport;
}

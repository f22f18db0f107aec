// The reliability tests leave what they ran under .tmp/reliability/, one JSON file per table, so that
// scripts/reliability-report.ts can render RELIABILITY.md from real runs rather than from a hand-kept list.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const RECORD_DIR = join(process.cwd(), '.tmp', 'reliability');

export interface BadInputRow {
  operation: string;
  /** The input that is wrong, as the line must name it. */
  input: string;
  /** What kind of mistake: wrong type, out of range, unknown value, conflicting, ... */
  kind: string;
  /** The value given, as shown in the table (short). */
  given: string;
  /** The ::error:: line the action printed. */
  line: string;
  passed: boolean;
}

export interface FaultCellRow {
  operation: string;
  fault: string;
  /** `succeeded` (after retries) or `failed` (with one line). */
  outcome: 'succeeded' | 'failed';
  /** Attempts that reached the emulator's endpoint. */
  attempts: number;
  /** Side effects in the emulator's history for this cell (submissions, queue writes...). */
  sideEffects: string;
  /** The ::error:: line, when failed. */
  line: string;
  seconds: number;
  deadlineSeconds: number;
  passed: boolean;
  /** What was wrong with the cell, when it did not pass. */
  problems: string[];
  /** A defect already reported that this cell shows. */
  knownIssue?: string;
}

export interface CheckRow {
  area: string;
  check: string;
  passed: boolean;
  detail?: string;
}

export function writeRecord(name: string, rows: unknown[]): void {
  mkdirSync(RECORD_DIR, { recursive: true });
  writeFileSync(
    join(RECORD_DIR, `${name}.json`),
    `${JSON.stringify({ ranAt: new Date().toISOString(), node: process.version, rows }, null, 2)}\n`,
  );
}

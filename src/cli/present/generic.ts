// Any operation without a page of its own: it is done, then its outputs as facts (the raw answer and
// the context every run publishes left out: --json has them).
import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import type { Page } from './page.js';

const CONTEXT_OUTPUTS = new Set([
  'response',
  'repo',
  'pr-number',
  'target-branch',
  'is-merge-queue-test-run',
]);

export function presentOutputs(page: Page, operation: string, outputs: Record<string, string>): void {
  page.outcome(`${operation}: done`, 'good');
  const gone = removedFiles(outputs);
  page.facts(
    Object.entries(outputs)
      .filter(([name, value]) => !CONTEXT_OUTPUTS.has(name) && value !== '')
      .filter(([name]) => !gone.some(([goneName]) => goneName === name))
      .map(([name, value]) => [name, value]),
  );
  notGone(page, gone);
}

/** The files the run wrote and kept, as facts; those removed at exit said once, not named. */
export function presentKeptFiles(page: Page, outputs: Record<string, string>): void {
  const gone = removedFiles(outputs);
  page.facts(
    Object.entries(outputs)
      .filter(([name, value]) => isFileOutput(name) && value !== '')
      .filter(([name]) => !gone.some(([goneName]) => goneName === name))
      .map(([name, value]) => [name, value]),
  );
  notGone(page, gone);
}

function removedFiles(outputs: Record<string, string>): [string, string][] {
  return Object.entries(outputs).filter(([name, value]) => isFileOutput(name) && isRemoved(value));
}

function notGone(page: Page, gone: [string, string][]): void {
  if (gone.length) {
    page.note(
      `${gone.map(([name]) => name).join(' and ')}: not kept, as nothing reads it after this run; --outputs-file PATH or --json keeps it.`,
    );
  }
}

/** An output that names a file the run wrote (metrics-file, report-file, report-csv-file). */
function isFileOutput(name: string): boolean {
  return name.endsWith('-file');
}

/** The run's own scratch files are removed at exit when no later step can read them: name none of them. */
function isRemoved(path: string): boolean {
  return path !== '' && isAbsolute(path) && !existsSync(path);
}

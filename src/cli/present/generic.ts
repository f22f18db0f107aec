// Any operation without a page of its own: it is done, then its outputs as facts (the raw answer and
// the context every run publishes left out: --json has them).
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
  page.facts(
    Object.entries(outputs)
      .filter(([name, value]) => !CONTEXT_OUTPUTS.has(name) && value !== '')
      .map(([name, value]) => [name, value]),
  );
}

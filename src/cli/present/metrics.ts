// get-merge-queue-metrics for a person: the last hour in one line, then the figures with durations as
// people say them ("5m", not 300) and the metrics file only where the user kept it.
import { formatDuration } from '../../core/index.js';
import type { Page } from './page.js';
import { presentKeptFiles } from './generic.js';

export function presentMetrics(page: Page, outputs: Record<string, string>): void {
  const figure = (name: string) => Number(outputs[name] || 0);
  const where = outputs.repo
    ? `${outputs.repo}${outputs['target-branch'] ? ` ${outputs['target-branch']}` : ''}`
    : 'every repository';
  const failed = figure('failed-last-hour');
  page.outcome(
    `Merge queue of ${where}, last hour: ${figure('depth')} in queue, ${figure('testing')} testing, ${figure('merged-last-hour')} merged, ${failed} failed`,
    failed ? 'waiting' : 'good',
  );
  page.facts([
    ['In queue', figure('depth')],
    ['Testing', figure('testing')],
    ['Awaiting mergeability', figure('awaiting-mergeability')],
    ['Merged', figure('merged-last-hour')],
    ['Failed', failed ? { text: failed, tone: 'bad' } : 0],
    ['Cancelled', figure('cancelled-last-hour')],
    ['Restarts', figure('restarts-last-hour')],
    ['Wait before testing', percentiles(outputs, ['wait-p50-seconds', 'p50'], ['wait-p90-seconds', 'p90'])],
    ['Test duration', percentiles(outputs, ['test-duration-p50-seconds', 'p50'])],
  ]);
  presentKeptFiles(page, outputs);
}

/** "about 5m (p50), 18m (p90)"; undefined (the row left out) when the hour saw no PR. */
function percentiles(outputs: Record<string, string>, ...figures: [name: string, label: string][]) {
  const shown = figures
    .filter(([name]) => outputs[name] !== undefined && outputs[name] !== '')
    .map(([name, label]) => `${formatDuration(Number(outputs[name]) * 1000)} (${label})`);
  return shown.length ? `about ${shown.join(', ')}` : undefined;
}

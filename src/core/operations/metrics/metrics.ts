// get-merge-queue-metrics: the Prometheus text of one repository (or of every repository of the
// organization) to a file, and its headline figures to outputs and the summary.
import { plural } from '../../report/words.js';
import { Markdown, escapeCell, escapeMarkdown } from '../../report/markdown.js';
import { repoSlug } from '../common.js';
import { CHART_COLOURS, horizontalBarChart } from '../../report/chart.js';
import { formatDuration as humanDuration } from '../../report/duration.js';
import {
  bucketCounts,
  quantile,
  figuresByQueue,
  parseMetricsText,
  total,
  type Durations,
  type Figures,
  type QueueFigures,
} from './prometheus-text.js';
import { writeStepFile } from '../step-file.js';
import type { Operation, OutputValue } from '../types.js';
import type { MetricsSettings } from './inputs.js';
import { ApiError, summarizeBody } from '../../api/errors.js';
import { nameOf, words } from '../../words.js';

/** Past this size the text is left out of the `response` output (outputs share a 1 MiB budget per job). */
const MAX_RESPONSE_OUTPUT_BYTES = 256 * 1024;

export const getMergeQueueMetrics: Operation<MetricsSettings> = async (op) => {
  const { allRepositories } = op.settings;
  const repo = repoSlug(op.context.repo);
  const branch = op.common.context.targetBranch;
  const response = await op.client.call(
    'getMergeQueueMetrics',
    allRepositories ? {} : { repo, repoHost: op.context.repo.host },
  );
  const metricsFile = await writeStepFile(op, 'metrics.prom', response.text);
  (op.log.outcome ?? op.log.info)(
    `Metrics (${Buffer.byteLength(response.text)} bytes) written to the metrics-file output.`,
  );

  const outputs: Record<string, OutputValue> = {
    response: Buffer.byteLength(response.text) <= MAX_RESPONSE_OUTPUT_BYTES ? response.text : '',
    'metrics-file': metricsFile,
  };
  const where = allRepositories ? 'every repository' : escapeMarkdown(repo);
  const summary = new Markdown().headingMarkdown(
    `📊 Merge queue: ${where}${branch ? ` <code>${escapeMarkdown(branch)}</code>` : ''}, last hour`,
  );

  let rows: QueueFigures[];
  try {
    rows = figuresByQueue(await parseMetricsText(response.text), {
      repo: allRepositories ? undefined : repo,
      branch,
    });
  } catch (error) {
    // Garbage is never success: most often api-url leads to something else (a sign-in page, a proxy).
    // The parser's reason quotes the text, which is the service's: it goes apart from our words.
    const reason = error instanceof Error ? error.message : String(error);
    summary.alert(
      'CAUTION',
      `The metrics could not be read as Prometheus text (${escapeMarkdown(reason)}); they are in ${escapeMarkdown(metricsFile)} as sent.`,
    );
    const failure = words`getMergeQueueMetrics failed: the API answered ${response.status} with text that is not Prometheus metrics; it is in ${metricsFile} as sent. Check ${nameOf('api-url')} (it should be the v1 API base).`;
    // metrics-file is an output of success; the failure line says where the text is.
    return {
      outputs: { response: outputs.response ?? '' },
      summary,
      failure,
      failureCause: new ApiError('getMergeQueueMetrics', 'the answer is not Prometheus metrics.', {
        kind: 'invalid-response',
        status: response.status,
        said: summarizeBody(op.redact(reason)),
      }),
    };
  }

  const headline = total(rows);
  Object.assign(outputs, headlineOutputs(headline), percentileOutputs(headline));
  addHeadline(summary, headline);
  const scope: [string, unknown][] = [
    [
      'Repositories',
      allRepositories ? 'every repository of the organization' : `${op.context.repo.host}/${repo}`,
    ],
    ['Branch', branch ?? 'every branch'],
  ];
  const everyFigure = factsTable([...scope, ...headlineFacts(headline)]);
  if (rows.length === 0) summary.paragraph('The service reported no queue in this scope.');
  summary.details('Every figure', `${everyFigure}\n\n${byQueueTable(rows)}`.trim());
  return { outputs, summary };
};

/** The figures across, the wait chart and the restarts warning: what a person reads first. */
function addHeadline(summary: Markdown, headline: Figures): void {
  const { merged, failed } = headline.conclusions;
  summary.factsAcross([
    ['In queue', headline.depth],
    ['Testing', headline.testing],
    ['Merged', merged],
    ['Failed', `${failed}${failed ? ' ⚠️' : ''}`],
    [
      'Wait before testing p50 / p90',
      `${formatRange(quantile(headline.waitDuration, 0.5))} / ${formatRange(quantile(headline.waitDuration, 0.9))}`,
    ],
    ['Test duration p50', formatRange(quantile(headline.testDuration, 0.5))],
    ['Time in queue p50', formatRange(quantile(headline.timeInQueue, 0.5))],
  ]);
  if (headline.waitDuration.count > 0) {
    const buckets = bucketCounts(headline.waitDuration).map((bucket) => ({
      label: formatRange({ lowSeconds: bucket.lowSeconds, highSeconds: bucket.highSeconds }),
      count: bucket.count,
    }));
    summary.mermaid(
      horizontalBarChart({
        title: 'Wait before testing (PRs started in the last hour)',
        categories: buckets.map((bucket) => bucket.label),
        series: [{ values: buckets.map((bucket) => bucket.count), colour: CHART_COLOURS.neutral }],
        valueLabel: 'PRs',
      }),
    );
    // The same numbers for a renderer that does not draw the chart.
    summary.factsAcross(buckets.map((bucket) => [`Waited ${bucket.label}`, bucket.count]));
  }
  if (headline.restarts > merged) {
    summary.alert(
      'WARNING',
      `${headline.restarts} restarts in the last hour and ${merged} merges: the line restarts more than it merges (check the failing PRs ahead).`,
    );
  }
}

/** One row per queue when there is more than one worth showing (an idle bisection lane is not). */
function byQueueTable(rows: QueueFigures[]): string {
  const shown = rows.filter((row) => row.queueType !== 'bisection' || !isIdle(row));
  if (shown.length <= 1) return '';
  const byQueue = new Markdown();
  byQueue.heading('By queue', 3).table(
    [
      'Repository',
      'Branch',
      'Queue',
      'Depth',
      'Testing',
      'Awaiting mergeability',
      'Merged',
      'Failed',
      'Cancelled',
      'Restarts',
    ],
    shown.map((row) =>
      [
        row.repo,
        row.branch,
        row.queueType,
        row.depth,
        row.testing,
        row.awaitingMergeability,
        row.conclusions.merged,
        row.conclusions.failed,
        row.conclusions.cancelled,
        row.restarts,
      ].map(escapeMarkdown),
    ),
    'queues not shown; see metrics-file',
  );
  byQueue.paragraph('_Merged, failed, cancelled and restarts count the last hour._');
  return byQueue.toString().trim();
}

function isIdle(row: QueueFigures): boolean {
  const { merged, failed, cancelled } = row.conclusions;
  return (
    row.depth + row.testing + row.awaitingMergeability + row.restarts + merged + failed + cancelled === 0
  );
}

function headlineOutputs(figures: Figures): Record<string, OutputValue> {
  return {
    depth: figures.depth,
    testing: figures.testing,
    'awaiting-mergeability': figures.awaitingMergeability,
    'merged-last-hour': figures.conclusions.merged,
    'failed-last-hour': figures.conclusions.failed,
    'cancelled-last-hour': figures.conclusions.cancelled,
    'restarts-last-hour': figures.restarts,
  };
}

function headlineFacts(figures: Figures): [string, unknown][] {
  const { merged, failed, cancelled } = figures.conclusions;
  return [
    ['PRs in the queue (depth)', figures.depth],
    ['PRs testing', figures.testing],
    ['PRs awaiting mergeability', figures.awaitingMergeability],
    ['Concluded in the last hour', `${merged} merged, ${failed} failed, ${cancelled} cancelled`],
    ['Restarts in the last hour', figures.restarts],
    ['Average wait before testing (last hour)', average(figures.waitDuration)],
    ['Average test duration (last hour)', average(figures.testDuration)],
    ['Average time in queue (last hour)', average(figures.timeInQueue)],
  ];
}

function percentileOutputs(figures: Figures): Record<string, OutputValue> {
  const seconds = (q: ReturnType<typeof quantile>) =>
    q && Number.isFinite(q.estimateSeconds) ? Math.round(q.estimateSeconds) : '';
  return {
    'wait-p50-seconds': seconds(quantile(figures.waitDuration, 0.5)),
    'wait-p90-seconds': seconds(quantile(figures.waitDuration, 0.9)),
    'test-duration-p50-seconds': seconds(quantile(figures.testDuration, 0.5)),
  };
}

/** A percentile as the bucket it falls in: "1m–5m", "under 1m", "over 2h"; "no PRs" without data. */
function formatRange(q: { lowSeconds: number; highSeconds: number } | undefined): string {
  if (!q) return 'no PRs';
  if (q.lowSeconds === 0) return `under ${humanDuration(q.highSeconds * 1000)}`;
  if (!Number.isFinite(q.highSeconds)) return `over ${humanDuration(q.lowSeconds * 1000)}`;
  return `${humanDuration(q.lowSeconds * 1000)}–${humanDuration(q.highSeconds * 1000)}`;
}

function factsTable(rows: [string, unknown][]): string {
  return new Markdown()
    .table(
      ['Figure', 'Value'],
      rows.map(([key, value]) => [escapeMarkdown(key), escapeCell(value)]),
    )
    .toString()
    .trim();
}

function average({ count, sumSeconds }: Durations): string {
  if (count === 0) return 'no PRs';
  return `${formatDuration(sumSeconds / count)} over ${plural(count, 'PR')}`;
}

function formatDuration(seconds: number): string {
  const whole = Math.round(seconds);
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = whole % 60;
  if (hours) return `${hours}h ${minutes}m`;
  if (minutes) return `${minutes}m ${rest}s`;
  return `${rest}s`;
}

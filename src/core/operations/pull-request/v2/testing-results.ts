// list-testing-results (v2 only): every test of the queue that ended in a window of at most 45 days, all
// pages: how many passed and failed, how long testing took, and each result.
import type { V2 } from '../../../../wire/v2/index.js';
import { realClock } from '../../../clock.js';
import { InputError } from '../../../errors.js';
import { formatDuration } from '../../../report/duration.js';
import { filledColumns } from '../../../report/filled-columns.js';
import { Markdown, codeSpan, escapeMarkdown, link } from '../../../report/markdown.js';
import { plural } from '../../../report/words.js';
import { pullRequestUrl, rawResponse } from '../../common.js';
import type { Operation, OperationContext } from '../../types.js';
import { queueIdOf, requireV2 } from './access.js';
import type { TestingResultsSettings } from './inputs.js';
import { ago } from './run-summaries.js';

type Result = V2<'TestingResult'>;

const DAY_MS = 24 * 3600_000;
export const MAX_WINDOW_DAYS = 45;
const DEFAULT_WINDOW_DAYS = 7;
const MAX_RESULTS = 10_000;
const SHOWN = 200;

const OUTCOME_WORDS: Record<string, string> = {
  passed: '✅ passed',
  failed: '❌ failed',
  interrupted: '⏸️ interrupted',
  cancelled: '🚫 cancelled',
};

/**
 * The window asked for, checked against the API's 45 days before anything is sent. Without until, the
 * service's now ends it (its clock, not the runner's); since then defaults to 7 days before the runner's now.
 */
export function testingWindow(
  settings: TestingResultsSettings,
  nowMs: number,
): { since: string; until?: string } {
  const untilMs = settings.until ? Date.parse(settings.until) : nowMs;
  const sinceMs = settings.since ? Date.parse(settings.since) : untilMs - DEFAULT_WINDOW_DAYS * DAY_MS;
  const end = settings.until ? 'until' : 'now';
  if (sinceMs >= untilMs) {
    throw new InputError('since', `is not before ${end}`, 'Set since to an earlier date-time than until.');
  }
  const days = (untilMs - sinceMs) / DAY_MS;
  if (days > MAX_WINDOW_DAYS) {
    throw new InputError(
      'since',
      `is ${Math.ceil(days)} days before ${end}, and the API answers at most ${MAX_WINDOW_DAYS} days`,
      `Set since and until at most ${MAX_WINDOW_DAYS} days apart (ask for longer spans window by window).`,
    );
  }
  return { since: new Date(sinceMs).toISOString(), ...(settings.until ? { until: settings.until } : {}) };
}

export const listTestingResults: Operation<TestingResultsSettings> = async (op) => {
  const access = requireV2(op);
  const nowMs = (op.clock ?? realClock).now();
  const window = testingWindow(op.settings, nowMs);
  const id = await queueIdOf(op, access);
  const results: Result[] = [];
  let text = '';
  let serverTimeMs: number | undefined;
  for await (const { data, response } of access.v2.pages('mergeQueues.listTestingResults', {
    path: { id },
    query: window,
  })) {
    results.push(...data.data);
    text ||= rawResponse(response);
    serverTimeMs ??= response.serverTimeMs;
    if (results.length >= MAX_RESULTS) break;
  }
  const seen = { since: window.since, until: window.until ?? new Date(serverTimeMs ?? nowMs).toISOString() };
  const count = (outcome: string) => results.filter((r) => r.outcome === outcome).length;
  return {
    outputs: {
      response: text,
      count: results.length,
      passed: count('passed'),
      failed: count('failed'),
      'median-testing-seconds': results.length
        ? Math.round(median(results.map((r) => r.testingDurationMs)) / 1000)
        : '',
      since: seen.since,
      until: seen.until,
    },
    summary: resultsSummary(op, results, seen, serverTimeMs ?? nowMs),
  };
};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function resultsSummary(
  op: OperationContext<unknown>,
  results: Result[],
  window: { since: string; until: string },
  nowMs: number,
): Markdown {
  const minute = (iso: string) => iso.slice(0, 16).replace('T', ' ');
  const span = `${minute(window.since)} to ${minute(window.until)} UTC`;
  const branch = codeSpan(op.context.targetBranch ?? '');
  if (!results.length)
    return new Markdown().headingMarkdown(
      `📊 No testing results from ${escapeMarkdown(span)} in the queue for ${branch}`,
    );
  const passed = results.filter((r) => r.outcome === 'passed').length;
  const failed = results.filter((r) => r.outcome === 'failed').length;
  const summary = new Markdown().headingMarkdown(
    `${failed ? '⚠️' : '✅'} ${escapeMarkdown(`${passed} of ${plural(results.length, 'testing result')} passed, ${failed} failed`)} in the queue for ${branch}`,
  );
  summary.paragraph(
    escapeMarkdown(
      `From ${span}; median testing time ${formatDuration(median(results.map((r) => r.testingDurationMs)))}; ${results.filter((r) => r.isBisection).length} in bisections.`,
    ),
  );
  const table = filledColumns(
    ['PR', 'Outcome', 'Ended', 'Testing time', 'Entry', 'Run'],
    results
      .slice(0, SHOWN)
      .map((r) => [
        link(`#${r.pullRequestNumber}`, pullRequestUrl(op.context.repo, r.pullRequestNumber)),
        escapeMarkdown(OUTCOME_WORDS[r.outcome ?? ''] ?? r.outcome ?? ''),
        escapeMarkdown(ago(r.endedAt, nowMs)),
        escapeMarkdown(formatDuration(r.testingDurationMs)),
        escapeMarkdown(r.entryConclusion ?? ''),
        r.verificationRunId
          ? `${codeSpan(r.verificationRunId.slice(0, 40))}${r.isBisection ? ' (bisection)' : ''}`
          : '',
      ]),
  );
  return summary.table(table.headers, table.rows, 'not shown', results.length);
}

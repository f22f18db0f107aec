// plan-queue-settings: replays the queue under candidate settings and recommends only what beats the
// current settings by more than the model's own margin. Read-only: it never writes to the service.
import { InputError } from '../../errors.js';
import { Markdown, codeSpan, escapeMarkdown } from '../../report/markdown.js';
import { CHART_COLOURS, horizontalBarChart } from '../../report/chart.js';
import { writeReportFile } from './report-file.js';
import { realClock } from '../../clock.js';
import { hasRepo } from '../../context.js';
import type { Operation, OperationContext, OperationResult } from '../types.js';
import { planFromHistory } from './backtest.js';
import { readQueueHistory } from './export.js';
import { historyCollector, readHistoryFiles, type QueueHistory } from './history-file.js';
import type { PlanQueueSettings } from './inputs.js';
import { PlanStopped, type PlanPace } from './pace.js';
import { planSynthetic } from './plan.js';
import { headline, LIMITS, TABLE_HEADERS, tableRows, type PlanReport } from './report.js';
import { changeOf } from './recommend.js';

const DAY_MS = 86_400_000;

export const planQueueSettings: Operation<PlanQueueSettings> = async (op) => {
  const settings = op.settings;
  const pace: PlanPace = {
    progress: (done, total) =>
      (op.log.progress ?? op.log.info)(`plan: ${done} of ${total} candidates replayed`),
    signal: op.signal,
  };
  try {
    if (settings.synthetic) return reportResult(op, await planSynthetic(settings, settings.synthetic, pace));
    const history = await historyOf(op);
    return reportResult(op, await planFromHistory(settings, history, pace));
  } catch (error) {
    if (!(error instanceof PlanStopped)) throw error;
    return {
      outputs: {},
      failure:
        'plan-queue-settings was called off (its time ran out or it was cancelled) before the backtest and the current settings were replayed: nothing to report. Give it more time, or fewer days.',
    };
  }
};

/** The history files given, or the last `days` days read from the API (v2, read-only). */
async function historyOf(op: OperationContext<PlanQueueSettings>): Promise<QueueHistory> {
  if (op.settings.historyFiles.length > 0) return readHistoryFiles(op.settings.historyFiles);
  if (!op.common.apiToken) {
    throw new InputError(
      'history',
      'is empty, and without a history file the plan reads the API, which needs api-token',
      'Give history files written by export-queue-history, api-token (v2) to read the last days, or prs for a synthetic plan.',
    );
  }
  if (!hasRepo(op.context)) {
    throw new InputError(
      'repo',
      'is empty, and reading the history from the API needs the repository',
      'Set repo (owner/name) and target-branch, or give history files.',
    );
  }
  const nowMs = (op.clock ?? realClock).now();
  const window = {
    since: new Date(nowMs - op.settings.days * DAY_MS).toISOString(),
    until: new Date(nowMs).toISOString(),
  };
  const { records } = await readQueueHistory(op, window);
  const collect = historyCollector();
  records.forEach(collect.take);
  return collect.history;
}

async function reportResult(
  op: Parameters<Operation<PlanQueueSettings>>[0],
  report: PlanReport,
): Promise<OperationResult> {
  const json = `${JSON.stringify(report, null, 2)}\n`;
  const reportFile = await writeReportFile(op, json);
  const result: OperationResult = {
    outputs: {
      response: JSON.stringify(report),
      fit: report.fit,
      recommendation: report.recommendation ? JSON.stringify(report.recommendation.patch) : '',
      'report-file': reportFile,
    },
    summary: planSummary(report),
    details: { kind: 'queue-plan', report },
  };
  if (op.settings.requireFit && !report.fit) {
    result.failure = `plan-queue-settings: ${report.verdict ?? 'the model does not reproduce the history'} (require-fit is set).`;
  }
  return result;
}

/** The outcome in a few words, with its icon: what a person reads first. */
function outcomeLine(report: PlanReport): string {
  const kind = report.synthetic ? ' (synthetic)' : '';
  if (report.recommendation) {
    return `✅ Recommended${kind}: ${changeOf(report.candidates[0]!.settings, report.recommendation.settings)}`;
  }
  const verdict = report.verdict ?? 'keep your settings';
  const short = verdict.slice(0, verdict.indexOf(':') < 0 ? undefined : verdict.indexOf(':'));
  const said = `${short.charAt(0).toUpperCase()}${short.slice(1)}${kind}`;
  return report.fit ? `🧭 ${said}` : `⚠️ ${said}`;
}

export function planSummary(report: PlanReport): Markdown {
  const rows = tableRows(report);
  const summary = new Markdown().heading(outcomeLine(report)).paragraph(escapeMarkdown(headline(report)));
  if (rows.length > 0) summary.table(TABLE_HEADERS, rows);
  const current = report.candidates[0]?.settings;
  const names = report.candidates.map((c, i) =>
    i === 0 || !current ? 'current' : changeOf(current, c.settings),
  );
  const chart = (title: string, label: string, values: number[], colour: string) =>
    horizontalBarChart({ title, categories: names, series: [{ values, colour }], valueLabel: label });
  if (report.candidates.length > 0)
    summary
      .mermaid(
        chart(
          'p90 time in queue',
          'minutes',
          report.candidates.map((c) => c.metrics.p90Minutes),
          CHART_COLOURS.neutral,
        ),
      )
      .mermaid(
        chart(
          'CI minutes per merged PR',
          'minutes',
          report.candidates.map((c) => c.metrics.ciMinutesPerMerge),
          CHART_COLOURS.warning,
        ),
      );
  if (report.recommendation) {
    summary
      .paragraph(
        `The v2 config patch (${codeSpan('PATCH /v2/merge-queues/{id}/config')}), printed, not sent:`,
      )
      .code(JSON.stringify(report.recommendation.patch, null, 2), 'json')
      .paragraph('The same as a v1 updateQueue body:')
      .code(JSON.stringify(report.recommendation.updateQueueBody, null, 2), 'json');
  }
  return summary.paragraph(LIMITS.map((limit) => `- ${escapeMarkdown(limit)}`).join('\n'));
}

// The history replay in the lint's log and summary: a line, a chart of target counts (mermaid, with the
// same numbers in a table for hosts that draw no mermaid), and what fired how often.
import { CHART_COLOURS, horizontalBarChart } from '../../../report/chart.js';
import { escapeCell, type Markdown } from '../../../report/markdown.js';
import { plural } from '../../../report/words.js';
import { TARGET_BUCKETS, type HistoryReport } from './lint-history.js';

export function historyLine(report: HistoryReport): string {
  const worst = report.allReasons[0];
  return `History: ${plural(report.commits, 'commit')} replayed; ${report.allCount} impacted all${worst ? ` (most often: ${worst[0]}, ${worst[1]})` : ''}.${beyondLine(report)}`;
}

/** The commits sent to ALL that the package manager would not have, in a sentence ('' when none). */
function beyondLine(report: HistoryReport): string {
  const beyond = report.beyondManager;
  if (!beyond?.count) return '';
  const top = beyond.reasons[0];
  return ` ${beyond.count} of them ${beyond.manager} would not have sent to ALL: it selects ${plural(beyond.packages, 'package')} there on average${top ? ` (most often: ${top[0]}, ${top[1]})` : ''}; docs/impacted-targets.md says the config to write for it.`;
}

export function addHistorySummary(summary: Markdown, report: HistoryReport): void {
  const percent = (n: number) => (report.commits ? `${Math.round((100 * n) / report.commits)}%` : '0%');
  summary.heading(`The last ${plural(report.commits, 'commit')}, replayed`, 3);
  summary.paragraph(
    `${report.allCount} of ${report.commits} (${percent(report.allCount)}) would have impacted ALL targets.`,
  );
  const bars = TARGET_BUCKETS.map((label, i) => ({ label, value: report.distribution[i] ?? 0 }));
  summary.mermaid(
    horizontalBarChart({
      title: 'Commits by how many targets they impacted',
      categories: bars.map((bar) => bar.label),
      series: [{ values: bars.map((bar) => bar.value), colour: CHART_COLOURS.neutral }],
      valueLabel: 'commits',
    }),
  );
  summary.table(
    ['Targets impacted', 'Commits', 'Share'],
    bars.map((bar) => [escapeCell(bar.label), String(bar.value), percent(bar.value)]),
  );
  if (report.allReasons.length) {
    summary.table(
      ['Why ALL', 'Commits'],
      report.allReasons.map(([reason, n]) => [escapeCell(reason), String(n)]),
    );
  }
  const beyond = report.beyondManager;
  if (beyond?.count) {
    summary.paragraph(
      `${beyond.count} of them ${beyond.manager} would not have sent to ALL: it selects ${plural(beyond.packages, 'package')} there on average. "The config to write, per package manager" in docs/impacted-targets.md says what to write instead.`,
    );
    summary.table(
      [`Sent to ALL, where ${beyond.manager} selects some packages`, 'Commits'],
      beyond.reasons.map(([reason, n]) => [escapeCell(reason), String(n)]),
    );
  }
  if (report.fired.length) {
    summary.details(
      `Rules and barriers, by the commits they fired in (${report.fired.length})`,
      ['| Rule or barrier | Commits | Share |', '| --- | --- | --- |']
        .concat(report.fired.map(([name, n]) => `| ${escapeCell(name)} | ${n} | ${percent(n)} |`))
        .join('\n'),
    );
  }
}

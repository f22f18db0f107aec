// The history replay in the lint's log and summary: a line, a chart of target counts (mermaid, with the
// same numbers in a table for hosts that draw no mermaid), and what fired how often.
import { barChart } from '../../../report/mermaid.js';
import { escapeCell, type Markdown } from '../../../report/markdown.js';
import { plural } from '../../../report/words.js';
import { TARGET_BUCKETS, type HistoryReport } from './lint-history.js';

export function historyLine(report: HistoryReport): string {
  const worst = report.allReasons[0];
  return `History: ${report.commits} commit(s) replayed; ${report.allCount} impacted all${worst ? ` (most often: ${worst[0]}, ${worst[1]})` : ''}.`;
}

export function addHistorySummary(summary: Markdown, report: HistoryReport): void {
  const percent = (n: number) => (report.commits ? `${Math.round((100 * n) / report.commits)}%` : '0%');
  summary.heading(`The last ${plural(report.commits, 'commit')}, replayed`, 3);
  summary.paragraph(
    `${report.allCount} of ${report.commits} (${percent(report.allCount)}) would have impacted ALL targets.`,
  );
  const bars = TARGET_BUCKETS.map((label, i) => ({ label, value: report.distribution[i] ?? 0 }));
  summary.mermaid(barChart('Commits by how many targets they impacted', 'commits', bars));
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
  if (report.fired.length) {
    summary.details(
      `Rules and barriers, by the commits they fired in (${report.fired.length})`,
      ['| Rule or barrier | Commits | Share |', '| --- | --- | --- |']
        .concat(report.fired.map(([name, n]) => `| ${escapeCell(name)} | ${n} | ${percent(n)} |`))
        .join('\n'),
    );
  }
}

// plan-queue-settings for a person: the verdict or recommendation in one line, the table of candidates,
// the patch (printed, never sent) and the limits the figures hold under.
import { changeOf, headline, type QueuePlanDetails, TABLE_HEADERS, tableRows } from '../../core/index.js';
import type { Page } from './page.js';

export function presentQueuePlan(page: Page, { report }: QueuePlanDetails): void {
  const recommendation = report.recommendation;
  if (recommendation) {
    const current = report.candidates[0]!.settings;
    page.outcome(`Recommended: ${changeOf(current, recommendation.settings)}`, 'good');
    for (const line of wrapped(headline(report), WRAP_AT)) page.note(line, 'plain');
  } else page.outcome(headline(report), report.fit ? 'plain' : 'bad');
  const columns = TABLE_HEADERS.map((title, i) => ({
    title,
    max: i === 0 ? 60 : 30,
    align: i === 0 || i === TABLE_HEADERS.length - 1 ? ('left' as const) : ('right' as const),
  }));
  page.table('Candidates (means over the seeds; band: lowest-highest)', columns, tableRows(report));
  if (report.recommendation) {
    page.blank().note('v2 config patch (printed, not sent):', 'strong');
    page.note(JSON.stringify(report.recommendation.patch), 'plain');
    page.note('v1 updateQueue body:', 'strong');
    page.note(JSON.stringify(report.recommendation.updateQueueBody), 'plain');
  }
  page.blank();
  for (const limit of report.limits) page.note(limit);
}

const WRAP_AT = 120;

/** Text cut into lines of at most `width` characters, at spaces. */
function wrapped(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

// lint-impacted-targets-config's words: one line for the log and the failure, and the job summary (which
// part of the config claims which files and what they impact, then what nothing claims and the globs
// that match nothing).
import { Markdown, codeSpan, escapeMarkdown } from '../../../report/markdown.js';
import { plural } from '../../../report/words.js';
import type { LintReport } from './lint-report.js';

const SHOWN = 100;

export function lintLine(report: LintReport): string {
  return `${report.config}: ${plural(report.trackedCount, 'tracked file')}; ${report.unclaimed.length} claimed by no rule; ${plural(report.unused.length, 'glob')} ${report.unused.length === 1 ? 'matches' : 'match'} no tracked file.`;
}

export function lintHeadline(report: LintReport): string {
  if (!report.unclaimed.length && !report.unused.length) {
    return `${report.config}: every file claimed, every glob used`;
  }
  return `${report.config}: ${plural(report.unclaimed.length, 'file')} claimed by no rule, ${plural(report.unused.length, 'glob')} matching no file`;
}

export function lintSummary(report: LintReport): Markdown {
  const clean = !report.unclaimed.length && !report.unused.length;
  const summary = new Markdown()
    .heading(`${clean ? '✅' : '⚠️'} ${escapeMarkdown(lintHeadline(report))}`)
    .facts([
      ['Config', report.config],
      ['Tracked files', report.trackedCount],
      ['Claimed by no rule', `${report.unclaimed.length}, each impacting ${report.unclaimedImpacts}`],
      ['Globs matching no tracked file', report.unused.length],
    ]);
  summary.table(
    ['Claimed by', 'Impacts', 'Files', 'For example'],
    report.claims.map((claim) => [
      escapeMarkdown(claim.by),
      escapeMarkdown(claim.impacts),
      String(claim.count),
      claim.examples.map(codeSpan).join(', '),
    ]),
  );
  if (report.unclaimed.length)
    summary.details(`Files claimed by no rule (${report.unclaimed.length})`, list(report.unclaimed));
  if (report.unused.length)
    summary.details(`Globs matching no tracked file (${report.unused.length})`, list(report.unused));
  return summary;
}

function list(items: string[]): string {
  const shown = items.slice(0, SHOWN).map((item) => `- ${escapeMarkdown(item)}`);
  if (items.length > SHOWN) shown.push(`- … and ${items.length - SHOWN} more`);
  return shown.join('\n');
}

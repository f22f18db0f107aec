// Where a secret can be read after a run. A summary escapes what it shows (`tok\_abc` for `tok_abc`), so
// it is searched as a reader sees it, not only as written.
import type { ActionRun } from './action-runner.js';

const ENTITIES: Record<string, string> = {
  '&lt;': '<',
  '&gt;': '>',
  '&#124;': '|',
  '&#96;': '`',
  '&amp;': '&',
};

/** Markdown as a reader sees it: backslash escapes, the entities and the empty comments of escapeMarkdown undone. */
export function asRead(markdown: string): string {
  return markdown
    .replace(/<!-- -->/g, '')
    .replace(/\\(.)/g, '$1')
    .replace(/&(lt|gt|#124|#96|amp);/g, (entity) => ENTITIES[entity]!);
}

/**
 * Every place the secret shows up in a run, except the runner's `::add-mask::` command, which must come
 * before anything else is printed. Empty when the secret is kept.
 */
export function secretLeaks(
  run: Pick<ActionRun, 'log' | 'outputs' | 'summary' | 'error'>,
  secret: string,
): string[] {
  const leaks: string[] = [];
  const lines = run.log.split('\n');
  const carrying = lines.filter((line) => line.includes(secret) && line !== `::add-mask::${secret}`);
  if (carrying.length) leaks.push(`the log (${carrying.length} line(s))`);
  const maskAt = lines.indexOf(`::add-mask::${secret}`);
  if (maskAt < 0) leaks.push('never masked: no ::add-mask:: command');
  else if (lines.slice(0, maskAt).some((line) => !line.startsWith('::add-mask::'))) {
    leaks.push('masked only after something else was printed');
  }
  for (const [name, value] of Object.entries(run.outputs)) {
    if (value.includes(secret) || asRead(value).includes(secret)) leaks.push(`output ${name}`);
  }
  if (asRead(run.summary).includes(secret) || run.summary.includes(secret)) leaks.push('the summary');
  if (run.error.includes(secret)) leaks.push('the error line');
  return leaks;
}

// Renders a job summary (markdown) as GitHub shows it - GFM, then mermaid in headless Chromium - to an HTML
// page and, with --png, a screenshot; prints what a reader would see wrong. Needs Debian's chromium.
//   npm run render-summary -- summary.md --html summary.html --png summary.png
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { renderSummary, summaryHtml } from '../__tests__/helpers/render-summary.js';
import { plural } from '../src/core/report/words.js';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { html: { type: 'string' }, png: { type: 'string' }, title: { type: 'string' } },
});
const file = positionals[0];
if (!file) {
  console.error(
    'Usage: npm run render-summary -- <summary.md> [--html out.html] [--png out.png] [--title text]',
  );
  process.exit(2);
}
const markdown = readFileSync(file, 'utf8');
if (values.html) writeFileSync(values.html, summaryHtml(markdown, values.title));
const rendered = await renderSummary(markdown, { pngPath: values.png, title: values.title });
const failed = rendered.charts.filter(Boolean);
for (const problem of [...rendered.problems, ...rendered.reading]) console.error(`problem: ${problem}`);
for (const error of failed) console.error(`chart failed: ${error}`);
console.log(
  `${plural(rendered.charts.length, 'chart')}, ${failed.length} failed; ${plural(rendered.problems.length + rendered.reading.length, 'problem')}${values.png ? `; screenshot ${values.png}` : ''}`,
);
process.exit(rendered.problems.length || rendered.reading.length || failed.length ? 1 : 0);

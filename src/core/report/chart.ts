// Mermaid bar charts for summaries (GitHub renders mermaid in job summaries, Buildkite in annotations).
// Bars of one category are drawn over each other, so a total with a part drawn on top reads as a
// stacked bar: give the series largest first. Labels come from users' data and are made safe for
// mermaid's quoted strings.

export interface BarSeries {
  values: number[];
}

const MAX_LABEL_CHARS = 24;
const MAX_TITLE_CHARS = 80;

/** A ```mermaid block with one bar per category and series; '' when there is nothing to draw. */
export function overlaidBarChart(options: {
  title: string;
  categories: string[];
  series: BarSeries[];
  yLabel: string;
}): string {
  const { title, categories, series, yLabel } = options;
  if (!categories.length || !series.length) return '';
  const top = Math.max(1, ...series.flatMap((s) => s.values));
  const lines = [
    'xychart-beta',
    `  title "${mermaidText(title, MAX_TITLE_CHARS)}"`,
    `  x-axis [${categories.map((category) => `"${mermaidText(category)}"`).join(', ')}]`,
    `  y-axis "${mermaidText(yLabel, MAX_TITLE_CHARS)}" 0 --> ${top}`,
    ...series.map(
      (s) => `  bar [${s.values.map((value) => String(Math.max(0, Math.round(value)))).join(', ')}]`,
    ),
  ];
  return ['```mermaid', ...lines, '```'].join('\n');
}

/** Text inside a mermaid quoted string: no quotes, brackets, backticks or line breaks; cut short. */
export function mermaidText(text: string, maxChars = MAX_LABEL_CHARS): string {
  const safe = text
    .replace(/["`\\[\]{}<>#;]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return safe.length > maxChars ? `${safe.slice(0, maxChars - 1)}…` : safe || '(none)';
}

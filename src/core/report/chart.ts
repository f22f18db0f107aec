// Mermaid bar charts for summaries (GitHub renders mermaid in job summaries, Buildkite in annotations).
// Bars lie down (xychart-beta horizontal): the labels sit one per line on the left, so long team names
// never run into each other, and the chart is as tall as its bars need. Bars of one category are drawn
// over each other, so a total with a part drawn on top reads as a stacked bar: give the series largest
// first, each with the colour that says what it counts. Labels come from users' data and are made safe
// for mermaid's quoted strings. Callers print the same numbers as a table too: a renderer without
// xychart still shows them.
// The value axis has no tick labels: mermaid pads the axis by half a label's width and starts every bar
// at the padded edge, so with labels a zero drew a sliver; and d3 puts ticks at halves below 10, which
// ran a chart of 2 items out to 10. Without them zero is no bar and the longest bar fills the width; each
// category's label says its count instead ("under 1m: 6", "@acme/web: 1 of 4").

/** Colours that carry the meaning of a bar, as GitHub's own interface uses them. */
export const CHART_COLOURS = {
  failure: '#cf222e',
  warning: '#d4a72c',
  success: '#1a7f37',
  neutral: '#0969da',
} as const;

export interface BarSeries {
  values: number[];
  colour: string;
}

const MAX_LABEL_CHARS = 24;
const MAX_TITLE_CHARS = 80;
const CHART_WIDTH = 720;
const HEIGHT_PER_BAR = 34;
/** The title and the value axis. */
const HEIGHT_AROUND_BARS = 110;

/** The body of a mermaid chart with one bar per category and series; '' when there is nothing to draw. */
export function horizontalBarChart(options: {
  title: string;
  categories: string[];
  series: BarSeries[];
  valueLabel: string;
  /** A category's count in words, after its label; by default the first series' value. */
  countWords?: (index: number) => string;
}): string {
  const { title, categories, series, valueLabel } = options;
  if (!categories.length || !series.length) return '';
  const counts = series.map((s) => s.values.map((value) => Math.max(0, Math.round(value) || 0)));
  const top = Math.max(1, ...counts.flat());
  const countWords = options.countWords ?? ((index: number) => String(counts[0]![index] ?? 0));
  const init = {
    themeVariables: { xyChart: { plotColorPalette: series.map((s) => s.colour).join(', ') } },
    xyChart: {
      width: CHART_WIDTH,
      height: HEIGHT_AROUND_BARS + HEIGHT_PER_BAR * categories.length,
      yAxis: { showLabel: false, showTick: false },
    },
  };
  const labels = categories.map((category, i) => `${mermaidText(category)}: ${mermaidText(countWords(i))}`);
  return [
    `%%{init: ${JSON.stringify(init)}}%%`,
    'xychart-beta horizontal',
    `  title "${mermaidText(title, MAX_TITLE_CHARS)}"`,
    `  x-axis [${labels.map((label) => `"${label}"`).join(', ')}]`,
    `  y-axis "${mermaidText(valueLabel, MAX_TITLE_CHARS)}" 0 --> ${top}`,
    ...counts.map((values) => `  bar [${values.join(', ')}]`),
  ].join('\n');
}

/**
 * Text inside a mermaid quoted string: no quotes, brackets, backticks or line breaks; cut short. An
 * arrow (`concurrency 1 -> 2`) keeps its meaning as →.
 */
export function mermaidText(text: string, maxChars = MAX_LABEL_CHARS): string {
  const safe = text
    .replace(/->/g, '→')
    .replace(/["`\\[\]{}<>#;%]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return safe.length > maxChars ? `${safe.slice(0, maxChars - 1)}…` : safe || '(none)';
}

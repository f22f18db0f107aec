// Mermaid bar charts for summaries (GitHub renders mermaid in job summaries, Buildkite in annotations).
// Bars lie down (xychart-beta horizontal): the labels sit one per line on the left, so long team names
// never run into each other, and the chart is as tall as its bars need. Bars of one category are drawn
// over each other, so a total with a part drawn on top reads as a stacked bar: give the series largest
// first, each with the colour that says what it counts. Labels come from users' data and are made safe
// for mermaid's quoted strings. Callers print the same numbers as a table too: a renderer without
// xychart still shows them.

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
/** Below this top, d3 (which draws mermaid's axes) would put ticks at halves: 0.5 of a test. */
const MIN_COUNT_AXIS_TOP = 10;
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
}): string {
  const { title, categories, series, valueLabel } = options;
  if (!categories.length || !series.length) return '';
  const counts = series.map((s) => s.values.map((value) => Math.max(0, Math.round(value) || 0)));
  const top = Math.max(MIN_COUNT_AXIS_TOP, ...counts.flat());
  const init = {
    themeVariables: { xyChart: { plotColorPalette: series.map((s) => s.colour).join(', ') } },
    xyChart: {
      width: CHART_WIDTH,
      height: HEIGHT_AROUND_BARS + HEIGHT_PER_BAR * categories.length,
    },
  };
  return [
    `%%{init: ${JSON.stringify(init)}}%%`,
    'xychart-beta horizontal',
    `  title "${mermaidText(title, MAX_TITLE_CHARS)}"`,
    `  x-axis [${categories.map((category) => `"${mermaidText(category)}"`).join(', ')}]`,
    `  y-axis "${mermaidText(valueLabel, MAX_TITLE_CHARS)}" 0 --> ${top}`,
    ...counts.map((values) => `  bar [${values.join(', ')}]`),
  ].join('\n');
}

/** Text inside a mermaid quoted string: no quotes, brackets, backticks or line breaks; cut short. */
export function mermaidText(text: string, maxChars = MAX_LABEL_CHARS): string {
  const safe = text
    .replace(/["`\\[\]{}<>#;%]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return safe.length > maxChars ? `${safe.slice(0, maxChars - 1)}…` : safe || '(none)';
}

// Mermaid charts for summaries (GitHub renders ```mermaid blocks). Every label passes through
// mermaidText(), which keeps only characters that cannot end a statement or start mermaid syntax, so
// that a PR title or branch name from the service can never break a chart or inject into it.

const UNSAFE = /[^\p{L}\p{N} ()./_,'+\-–→@]/gu;
const MAX_LABEL = 60;

export function mermaidText(text: unknown): string {
  const clean = String(text ?? '')
    .replace(UNSAFE, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return clean.length > MAX_LABEL ? `${clean.slice(0, MAX_LABEL - 1)}…` : clean || '-';
}

export type GanttStyle = 'done' | 'active' | 'crit' | 'milestone' | '';

export interface GanttBar {
  label: string;
  startMs: number;
  endMs: number;
  style?: GanttStyle;
}

/** A gantt chart over absolute times (UTC), one section. */
export function gantt(title: string, section: string, bars: GanttBar[]): string {
  const lines = [
    'gantt',
    `  title ${mermaidText(title)}`,
    '  dateFormat x',
    '  axisFormat %H:%M',
    `  section ${mermaidText(section)}`,
  ];
  bars.forEach((bar, index) => {
    const tags = bar.style ? `${bar.style}, ` : '';
    const end = bar.style === 'milestone' ? '0ms' : String(Math.max(bar.endMs, bar.startMs + 1000));
    lines.push(`  ${mermaidText(bar.label)} :${tags}b${index}, ${bar.startMs}, ${end}`);
  });
  return lines.join('\n');
}

/** A bar chart: one bar per label. */
export function barChart(title: string, yLabel: string, bars: { label: string; value: number }[]): string {
  const quote = (text: string) => `"${mermaidText(text).replace(/"/g, '')}"`;
  const top = Math.max(1, ...bars.map((bar) => bar.value));
  return [
    'xychart-beta',
    `  title ${quote(title)}`,
    `  x-axis [${bars.map((bar) => quote(bar.label)).join(', ')}]`,
    `  y-axis ${quote(yLabel)} 0 --> ${Math.ceil(top * 1.1)}`,
    `  bar [${bars.map((bar) => (Number.isFinite(bar.value) ? bar.value : 0)).join(', ')}]`,
  ].join('\n');
}

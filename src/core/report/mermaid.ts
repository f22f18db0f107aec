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

/** Mermaid's task tags; `crit-milestone` is both (a failure's end), `done-milestone` a success's. */
export type GanttStyle = 'done' | 'active' | 'crit' | 'milestone' | 'crit-milestone' | 'done-milestone' | '';

/**
 * Colours with meaning: red for what failed, green for what passed, blue for what runs, grey for a wait.
 * Every bar is a light fill with a strong border and dark text (GitHub's "subtle" colours), so that each
 * label reads on its bar: mermaid draws a plain or red bar's text in one colour and a blue or green one's
 * in another, and no single text colour reads on both a light grey and a saturated red.
 */
const GANTT_THEME = {
  themeVariables: {
    critBkgColor: '#ffebe9',
    critBorderColor: '#cf222e',
    doneTaskBkgColor: '#dafbe1',
    doneTaskBorderColor: '#1a7f37',
    activeTaskBkgColor: '#ddf4ff',
    activeTaskBorderColor: '#0969da',
    taskBkgColor: '#eaeef2',
    taskBorderColor: '#59636e',
    taskTextColor: '#1f2328',
    taskTextDarkColor: '#1f2328',
  },
};

export interface GanttBar {
  label: string;
  startMs: number;
  endMs: number;
  style?: GanttStyle;
}

/** A gantt chart over absolute times (UTC), one section. */
export function gantt(title: string, section: string, bars: GanttBar[]): string {
  const lines = [
    `%%{init: ${JSON.stringify(GANTT_THEME)}}%%`,
    'gantt',
    `  title ${mermaidText(title)}`,
    '  dateFormat x',
    '  axisFormat %H:%M',
    `  section ${mermaidText(section)}`,
  ];
  bars.forEach((bar, index) => {
    const tags = bar.style ? `${bar.style.split('-').join(', ')}, ` : '';
    const end = bar.style?.endsWith('milestone') ? '0ms' : String(Math.max(bar.endMs, bar.startMs + 1000));
    lines.push(`  ${mermaidText(bar.label)} :${tags}b${index}, ${bar.startMs}, ${end}`);
  });
  return lines.join('\n');
}

// A terminal's captured text (tmux capture-pane -e: text with SGR colour codes) as an HTML page that
// looks like the terminal: monospace, dark, the 16 colours, bold and dim. Only SGR codes are read; any
// other escape sequence is dropped.

const COLOURS = [
  '#1e1e1e', // black
  '#f14c4c', // red
  '#23d18b', // green
  '#f5f543', // yellow
  '#3b8eea', // blue
  '#d670d6', // magenta
  '#29b8db', // cyan
  '#e5e5e5', // white
];
const BRIGHT = ['#666666', '#ff6b6b', '#3ee6a0', '#ffff70', '#5ca8ff', '#ef8fef', '#5fd7f0', '#ffffff'];

interface Pen {
  fg?: string;
  bold: boolean;
  dim: boolean;
}

function applySgr(pen: Pen, params: number[]): Pen {
  let next = { ...pen };
  for (let i = 0; i < params.length; i++) {
    const code = params[i]!;
    if (code === 0) next = { bold: false, dim: false };
    else if (code === 1) next.bold = true;
    else if (code === 2) next.dim = true;
    else if (code === 22) next = { ...next, bold: false, dim: false };
    else if (code >= 30 && code <= 37) next.fg = COLOURS[code - 30];
    else if (code >= 90 && code <= 97) next.fg = BRIGHT[code - 90];
    else if (code === 39) next.fg = undefined;
    else if (code === 38 && params[i + 1] === 5) {
      const index = params[i + 2] ?? 7;
      next.fg = index < 8 ? COLOURS[index] : index < 16 ? BRIGHT[index - 8] : undefined;
      i += 2;
    }
  }
  return next;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function span(text: string, pen: Pen): string {
  if (!text) return '';
  const style = [
    pen.fg ? `color:${pen.fg}` : '',
    pen.bold ? 'font-weight:bold' : '',
    pen.dim ? 'opacity:0.6' : '',
  ].filter(Boolean);
  return style.length ? `<span style="${style.join(';')}">${escapeHtml(text)}</span>` : escapeHtml(text);
}

/** The captured text as HTML spans, line breaks kept. */
export function ansiBody(capture: string): string {
  let pen: Pen = { bold: false, dim: false };
  let html = '';
  // eslint-disable-next-line no-control-regex -- reading the terminal's escape codes is the point
  const pattern = /\u001b\[([0-9;]*)m|\u001b\[[0-9;?]*[A-Za-z]|\u001b[()][A-Z0-9]|\u001b./g;
  let last = 0;
  for (const match of capture.matchAll(pattern)) {
    html += span(capture.slice(last, match.index), pen);
    last = match.index + match[0].length;
    if (match[1] !== undefined) pen = applySgr(pen, match[1] === '' ? [0] : match[1].split(';').map(Number));
  }
  return html + span(capture.slice(last), pen);
}

export function ansiToHtml(capture: string, title: string): string {
  const body = ansiBody(capture.replace(/\s+$/, ''));
  return `<!doctype html><html><head><meta charset="utf-8"><style>
body { margin: 0; padding: 16px; background: #f6f8fa; font-family: -apple-system, 'Segoe UI', sans-serif; }
.terminal { display: inline-block; background: #1e1e1e; border-radius: 8px; padding: 12px 16px 16px; }
.bar { color: #8b8b8b; font-size: 12px; margin-bottom: 8px; }
pre { margin: 0; color: #d4d4d4; font: 13px/1.4 'DejaVu Sans Mono', 'Liberation Mono', monospace; width: 120ch; }
</style></head><body><div class="terminal"><div class="bar">● ● ● ${escapeHtml(title)}</div><pre>${body}</pre></div></body></html>`;
}

// A page of the CLI's output for a person: the outcome in one line, then facts, tables and notes. Every
// value passes through one door on its way in (secrets hidden, control characters shown as escapes, cut
// to a readable length), so no presenter can print a raw value; colour is laid on after that.
import stringWidth from 'string-width';
import { oneLine, type Redact } from '../../core/index.js';
import type { Paint, Tone } from './style.js';

/** A table cell: text, or text with the tone it is shown in. */
export type Cell = string | number | { text: string | number; tone: Tone };

export interface Column {
  title: string;
  /** The widest a value of this column is shown (longer ones are cut with …). */
  max?: number;
  align?: 'left' | 'right';
}

const DEFAULT_MAX = 40;
const FACT_MAX = 100;
/** The most lines a fact's value takes before it is cut. */
const FACT_LINES = 4;
const LINE_MAX = 160;
const INDENT = '  ';

export class Page {
  private readonly lines: string[] = [];

  constructor(
    private readonly paint: Paint,
    private readonly redact: Redact,
  ) {}

  /** The first line: what happened, in the tone of how it went. */
  outcome(text: string, tone: Tone): this {
    this.lines.push(this.paint(this.clean(text, LINE_MAX), tone, true));
    return this;
  }

  /** Label/value rows, the values aligned. */
  facts(rows: [label: string, value: Cell | undefined][]): this {
    const shown = rows.filter(([, value]) => value !== undefined && textOf(value) !== '');
    if (!shown.length) return this;
    const width = Math.max(...shown.map(([label]) => stringWidth(label)));
    for (const [label, value] of shown) {
      // A long value (a reason in words, a URL) is wrapped under itself, never cut mid-sentence.
      const text = oneLine(this.redact(String(textOf(value!))).slice(0, FACT_MAX * FACT_LINES));
      wrap(text, FACT_MAX, FACT_LINES).forEach((part, i) => {
        const shownLabel = i === 0 ? this.paint(pad(label, width), 'muted') : ' '.repeat(width);
        this.lines.push(`${INDENT}${shownLabel}  ${this.paint(part, toneOf(value!))}`);
      });
    }
    return this;
  }

  /** A table with a title line, aligned columns and a count of the rows left out. */
  table(title: string, columns: Column[], rows: Cell[][], total = rows.length): this {
    this.blank();
    this.lines.push(this.paint(this.clean(title, LINE_MAX), 'strong'));
    if (!rows.length) return this;
    const texts = rows.map((row) =>
      columns.map((column, i) => this.clean(row[i] ?? '', column.max ?? DEFAULT_MAX)),
    );
    const widths = columns.map((column, i) =>
      Math.max(stringWidth(column.title), ...texts.map((row) => stringWidth(row[i]!))),
    );
    const layout = (cells: string[], paintCell: (text: string, i: number) => string) =>
      (
        INDENT +
        cells
          .map((text, i) => {
            const padded = columns[i]!.align === 'right' ? padStart(text, widths[i]!) : pad(text, widths[i]!);
            return paintCell(i === cells.length - 1 ? padded.trimEnd() : padded, i);
          })
          .join('  ')
      ).trimEnd();
    this.lines.push(
      layout(
        columns.map((c) => c.title.toUpperCase()),
        (text) => this.paint(text, 'muted'),
      ),
    );
    texts.forEach((cells, r) => {
      this.lines.push(layout(cells, (text, i) => this.paint(text, toneOf(rows[r]![i] ?? ''))));
    });
    if (total > rows.length) this.note(`… and ${total - rows.length} more`);
    return this;
  }

  /** An indented line, dim unless given a tone. */
  note(text: string, tone: Tone = 'muted'): this {
    this.lines.push(`${INDENT}${this.paint(this.clean(text, LINE_MAX), tone)}`);
    return this;
  }

  blank(): this {
    if (this.lines.length && this.lines.at(-1) !== '') this.lines.push('');
    return this;
  }

  toString(): string {
    while (this.lines.at(-1) === '') this.lines.pop();
    return this.lines.length ? `${this.lines.join('\n')}\n` : '';
  }

  /** A value as one safe line of at most `max` columns (a long one is shortened before it is measured). */
  private clean(value: Cell, max: number): string {
    return cut(oneLine(this.redact(String(textOf(value))).slice(0, max * 4)), max);
  }
}

function textOf(cell: Cell): string | number {
  return typeof cell === 'object' ? cell.text : cell;
}

function toneOf(cell: Cell): Tone {
  return typeof cell === 'object' ? cell.tone : 'plain';
}

/** Text cut to `max` columns, the cut marked with an ellipsis. */
export function cut(text: string, max: number): string {
  if (stringWidth(text) <= max) return text;
  let out = '';
  let width = 0;
  for (const { segment } of GRAPHEMES.segment(text)) {
    const next = stringWidth(segment);
    if (width + next > max - 1) break;
    out += segment;
    width += next;
  }
  return `${out}…`;
}

/**
 * Text as lines of at most `width` columns, broken between words (a word wider than a line, a URL, has a
 * line of its own, whole); past `lines` lines the rest is cut with an ellipsis.
 */
export function wrap(text: string, width: number, lines: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const joined = line ? `${line} ${word}` : word;
    if (!line || stringWidth(joined) <= width) line = joined;
    else {
      out.push(line);
      line = word;
    }
  }
  out.push(line);
  if (out.length <= lines) return out;
  const kept = out.slice(0, lines);
  kept[lines - 1] = cut(`${kept[lines - 1]!} ${out[lines]!}`, width);
  return kept;
}

const GRAPHEMES = new Intl.Segmenter('en', { granularity: 'grapheme' });

function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - stringWidth(text)));
}

function padStart(text: string, width: number): string {
  return ' '.repeat(Math.max(0, width - stringWidth(text))) + text;
}

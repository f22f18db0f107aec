// A small builder for job summaries. Every string that came from the API or from users' code goes
// through escape() so that test names like `<script>` or `a|b` render as text, never as markup.
import { CELL_CHARS, HEADING_CHARS, clip, clipEscaped } from './clip.js';
import { INVISIBLE, codePointOf } from './control-syntax.js';

/** GitHub's limit on one step's summary is 1 MiB; stay well below it. */
export const SUMMARY_BYTE_BUDGET = 900 * 1024;

const INVISIBLE_ONE = new RegExp(`^${INVISIBLE.source}$`);

/**
 * An empty HTML comment after `@` or `#`: GitHub links mentions and issue numbers within one run of text,
 * and the comment splits it, while the page shows and copies the text unchanged (a zero-width character
 * would be copied along with it).
 */
const SPLIT = '<!-- -->';

/** Every character escapeMarkdown changes or looks at: text with none of them is already escaped. */
const ESCAPED_CHARACTERS = new RegExp(`[\\\\*_[\\]#~@&<>|\`\\r\\n]|${INVISIBLE.source}`);

/**
 * Everything escapeMarkdown changes, found in one pass: `@` and `#` before a letter, digit or `-` (where
 * they would notify or link), markdown punctuation, HTML's and tables' characters, line endings, and
 * invisible characters. (`_` is not among the characters that keep `@` or `#` from linking: it is
 * escaped, so a backslash follows them.)
 */
const ESCAPABLE = new RegExp(
  `([@#])(?=[\\p{L}\\p{N}-])|[\\\\*_[\\]#~]|[&<>|\`]|\\r\\n?|\\n|${INVISIBLE.source}`,
  'gu',
);

const REPLACEMENTS: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '|': '&#124;',
  '`': '&#96;',
  // Any line ending (CommonMark counts a lone \r too) would end a table row.
  '\r\n': ' ',
  '\r': ' ',
  '\n': ' ',
};

/**
 * Text from the service or users' code as markdown that shows exactly that text: markup escaped,
 * invisible characters shown as `⟨U+202E⟩`, and `@name` and `#123` kept from notifying anyone or linking
 * an issue when the summary is reposted as a comment (an empty HTML comment after `@` and `#`).
 */
export function escapeMarkdown(text: unknown): string {
  const plain = String(text ?? '');
  // Most cells (a status, a count, a reason in words) have nothing to escape: one search instead of a pass.
  if (!ESCAPED_CHARACTERS.test(plain)) return plain;
  return plain.replace(ESCAPABLE, escapeOne);
}

/**
 * The same text for raw HTML, where markdown's backslash escapes are not read and would show (a
 * `<summary>` line of a `<details>` block): HTML's characters escaped, mentions split, invisibles shown.
 */
export function escapeHtmlText(text: unknown): string {
  const plain = String(text ?? '');
  if (!ESCAPED_CHARACTERS.test(plain)) return plain;
  return plain.replace(ESCAPABLE, (match: string, mention: string | undefined) =>
    /^[\\*_[\]#~]$/.test(match) ? match : escapeOne(match, mention),
  );
}

function escapeOne(match: string, mention: string | undefined): string {
  if (mention) return `${mention}${SPLIT}`;
  const replacement = REPLACEMENTS[match];
  if (replacement !== undefined) return replacement;
  if (INVISIBLE_ONE.test(match)) return codePointOf(match);
  return `\\${match}`;
}

/** A link only when the URL is http(s); anything else is shown as plain text. */
/** Text from outside as code: escaped inside <code>, so that no character of it can end the span. */
export function codeSpan(text: string): string {
  return `<code>${escapeMarkdown(text)}</code>`;
}

export function link(text: unknown, url: unknown): string {
  const label = escapeMarkdown(text);
  if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) return label;
  return `[${label}](${encodeUrlForMarkdown(url)})`;
}

/**
 * Percent-encodes what may not appear raw in a markdown link target (spaces, parentheses, angle brackets,
 * non-ASCII), leaving the URL's own escapes (`%2F`) as they are.
 */
function encodeUrlForMarkdown(url: string): string {
  return url.replace(/[^A-Za-z0-9\-._~:/?#[\]@!$&'*+,;=%]/gu, (c) =>
    [...Buffer.from(c, 'utf8')]
      .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
      .join(''),
  );
}

/**
 * The most of one heading or table cell of already-escaped markdown (links, code): a net under the
 * callers, who cut each value from outside to `HEADING_CHARS` or `CELL_CHARS` before escaping it.
 */
const MARKDOWN_LIMIT = 1000;

export class Markdown {
  private readonly parts: string[] = [];
  private bytes = 0;

  heading(text: string, level = 2): this {
    return this.add(`${'#'.repeat(level)} ${escapeMarkdown(clip(text, HEADING_CHARS))}`);
  }

  /** A heading of already-escaped markdown (a link, code); its values are cut by the caller. */
  headingMarkdown(markdown: string, level = 2): this {
    const oneLine = markdown.replace(/\r\n?|\n/g, ' ');
    return this.add(`${'#'.repeat(level)} ${clipEscaped(oneLine, MARKDOWN_LIMIT)}`);
  }

  /** A paragraph of already-escaped markdown. */
  paragraph(markdown: string): this {
    return this.add(markdown);
  }

  /**
   * Key/value rows; values are escaped unless given as `{ markdown }`. GFM tables need a header row: the
   * first fact is it, so that no empty header row shows above the facts.
   */
  facts(rows: [string, unknown | { markdown: string }][]): this {
    const cells = rows.map(([key, value]) => [escapeMarkdown(key), cellOf(value)]);
    if (!cells.length) return this;
    return this.table(cells[0]!, cells.slice(1));
  }

  /** Facts side by side: one header row of names, one row of values. */
  factsAcross(rows: [string, unknown | { markdown: string }][]): this {
    if (!rows.length) return this;
    return this.table(
      rows.map(([key]) => escapeMarkdown(key)),
      [rows.map(([, value]) => cellOf(value))],
    );
  }

  /** A GitHub alert (NOTE, TIP, IMPORTANT, WARNING, CAUTION) around already-escaped markdown. */
  alert(kind: 'NOTE' | 'TIP' | 'IMPORTANT' | 'WARNING' | 'CAUTION', markdown: string): this {
    const body = markdown
      .split(/\r\n?|\n/)
      .map((line) => `> ${line}`)
      .join('\n');
    return this.add(`> [!${kind}]\n${body}`);
  }

  /** A mermaid chart (its labels made safe by report/mermaid.ts). */
  mermaid(chart: string): this {
    return this.code(chart, 'mermaid');
  }

  /**
   * A table of already-escaped cells. Rows past the byte budget are dropped and counted in a last line,
   * with `moreNote` telling where the rest is. A caller that renders only the first rows of a long list
   * (a table a person can read) passes the list's length as `totalRows`, so that the rest are counted too.
   */
  table(headers: string[], rows: string[][], moreNote = '', totalRows = rows.length): this {
    const head = `| ${headers.join(' | ')} |\n| ${headers.map(() => '---').join(' | ')} |`;
    const lines = [head];
    let size = this.bytes + Buffer.byteLength(head) + 200;
    let shown = 0;
    for (const row of rows) {
      const line = `| ${row.map((cell) => clipEscaped(cell, MARKDOWN_LIMIT)).join(' | ')} |`;
      size += Buffer.byteLength(line) + 1;
      if (size > SUMMARY_BYTE_BUDGET) break;
      lines.push(line);
      shown++;
    }
    this.add(lines.join('\n'));
    if (shown < totalRows) {
      this.add(`_${totalRows - shown} more${moreNote ? ` ${moreNote}` : ''}_`);
    }
    return this;
  }

  /** A collapsed block around already-escaped markdown. */
  details(summary: string, markdown: string): this {
    return this.add(`<details><summary>${escapeHtmlText(summary)}</summary>\n\n${markdown}\n\n</details>`);
  }

  /** A fenced code block; the fence is longer than any run of backticks inside. */
  code(text: string, language = ''): this {
    const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
    const fence = '`'.repeat(longest + 1);
    return this.add(`${fence}${language}\n${text}\n${fence}`);
  }

  /** The bytes written so far, for a caller that sizes what it adds next. */
  byteLength(): number {
    return this.bytes;
  }

  toString(): string {
    return this.parts.join('\n\n') + '\n';
  }

  private add(block: string): this {
    const size = Buffer.byteLength(block) + 2;
    if (this.bytes + size > SUMMARY_BYTE_BUDGET) return this;
    this.parts.push(block);
    this.bytes += size;
    return this;
  }
}

function cellOf(value: unknown): string {
  return isMarkdown(value) ? value.markdown : escapeCell(value);
}

/** A value from outside as a table cell: cut to `CELL_CHARS`, then escaped. */
export function escapeCell(value: unknown): string {
  return escapeMarkdown(clip(String(value ?? ''), CELL_CHARS));
}

function isMarkdown(value: unknown): value is { markdown: string } {
  return typeof value === 'object' && value !== null && 'markdown' in value;
}

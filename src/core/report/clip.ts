// Values from outside (a PR title, a check name, an error body) cut to a length a person reads before
// they reach a heading, a table cell or a log line: a 512 KiB title would otherwise be the whole summary.

/** A heading's value: a PR title, a queue's name. */
export const HEADING_CHARS = 200;
/** A table cell's value. */
export const CELL_CHARS = 300;
/** One log line, the values it quotes included. */
export const LOG_LINE_CHARS = 2000;

const ELLIPSIS = '…';

/**
 * `text` at most `max` characters long, ending in `…` when cut. The cut counts code points and never
 * splits a surrogate pair, so an emoji is kept whole or left out.
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - ELLIPSIS.length);
  if (isHighSurrogate(text.charCodeAt(end - 1))) end--;
  return `${text.slice(0, end)}${ELLIPSIS}`;
}

/**
 * Already-escaped text (markdown, or Slack's mrkdwn) cut as `clip` does, backing off so that the cut
 * leaves no half of an entity (`&am`), a backslash escape, a tag or link (`<a`, `[label](url`) behind.
 */
export function clipEscaped(text: string, max: number): string {
  if (text.length <= max) return text;
  const kept = clip(text, max)
    .slice(0, -ELLIPSIS.length)
    .replace(UNCLOSED_LINK, '')
    .replace(/<[^>]*$/, '')
    .replace(/&[#\w]*$/, '')
    .replace(/(?<!\\)\\$/, '');
  return `${kept}${ELLIPSIS}`;
}

/** A link cut in its label or its target (raw `[` is only ever ours: escaped text has `\\[`). */
const UNCLOSED_LINK = /(?<!\\)\[(?:\\.|[^\]\\])*(?:\]\([^)]*)?$/;

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

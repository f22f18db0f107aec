// Text the server does not write itself (a PR title, a check or test name, a failure message, a reason
// the service gives) reaches an agent only as the value of its own field: secrets hidden, one line, no
// control or invisible character, cut to a length. Our own sentences (reasons, next steps) never quote it.
import { clip, INVISIBLE } from '../core/index.js';

export type Redact = (text: string) => string;

/** How long a field from outside may be. */
export const NAME_CHARS = 200;
/** An enum value from the service (a state, a mode, a status): a word, never longer than this. */
export const STATE_CHARS = 40;
export const MESSAGE_CHARS = 500;
export const URL_CHARS = 2000;

// eslint-disable-next-line no-control-regex -- removing control characters is the point
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const INVISIBLES = new RegExp(INVISIBLE.source, 'g');

/** A value from outside as a data field: secrets hidden, controls gone (a line break is a blank), capped. */
export function dataText(redact: Redact, value: unknown, max = NAME_CHARS): string {
  const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
  const flat = text
    .replace(/\r\n|[\r\n\t]/g, ' ')
    .replace(CONTROLS, '')
    .replace(INVISIBLES, '');
  return clip(redact(flat), max);
}

/** An enum value from the service as a data field, upper case as the outputs spell it: see dataText. */
export function dataState(redact: Redact, value: unknown): string {
  return dataText(redact, typeof value === 'string' ? value.toUpperCase() : '', STATE_CHARS);
}

/** A link from outside: an http(s) URL without blanks or controls, else null. */
export function dataUrl(redact: Redact, value: unknown): string | null {
  if (typeof value !== 'string' || value.length > URL_CHARS) return null;
  // eslint-disable-next-line no-control-regex -- a URL with a control character in it is refused
  if (!/^https?:\/\/[^\s\u0000-\u001f\u007f]+$/i.test(value) || INVISIBLE.test(value)) return null;
  const hidden = redact(value);
  return hidden === value ? value : null;
}

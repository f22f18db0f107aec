// Reading inputs: the declaration of an input (for action.yml, --help and the README), the typed readers
// every operation's settings are read with, and the inputs every operation shares. A bad input fails with
// one line: the input, what is wrong, what to do.
import { ID_FORMS, type IdKind } from '../wire/v2/id-forms.js';
import { InputError } from './errors.js';
import { closestMatches } from './suggest.js';
import { cutSafely, redactCredentials } from './report/redact.js';

/** How an input is declared: once, in the registry, and from there in action.yml, --help and the README. */
export interface InputSpec {
  name: string;
  description: string;
  /** The default as documented; the reader applies it. */
  default?: string;
  /** Masked the moment it is read, never shown. */
  secret?: boolean;
  /** The operation cannot run without it. */
  required?: boolean;
  /** True or false: on the command line a flag, `--name` or `--no-name`. */
  boolean?: true;
  /** The values it takes, when it takes one of a few: the same list its reader checks (listed in --help). */
  values?: readonly string[];
}

export type InputReader = (name: string) => string;

export const DEFAULT_API_URL = 'https://api.trunk.io/v1';

const SHOWN_VALUE_CHARS = 80;

/** What keeps a value from being one line (a line break, a control character), or undefined. */
function notOneLine(value: string): string | undefined {
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  const bad = /[\r\n\u2028\u2029\u0085]|[\u0000-\u001f\u007f-\u009f]/u.exec(value);
  if (!bad) return undefined;
  return /[\r\n\u2028\u2029\u0085]/u.test(bad[0]) ? 'a line break' : 'a control character';
}

/**
 * A given value as an error message shows it: credentials hidden, quoted, control characters escaped,
 * long ones cut (after the redaction, and never inside a word, so that no part of a secret shows).
 */
export function quoted(value: string): string {
  const shown = redactCredentials(value);
  if (shown.length <= SHOWN_VALUE_CHARS) return JSON.stringify(shown);
  const start = cutSafely(shown, SHOWN_VALUE_CHARS);
  // One long word (a secret, maybe) shows nothing of itself: only its length.
  if (!start.trim()) return `a ${value.length}-character value`;
  return `${JSON.stringify(start)}... (${value.length} characters)`;
}

/**
 * Typed readers over the raw inputs of one operation. An input the operation does not use reads as empty,
 * so that it is never validated; the caller warns about it instead.
 */
export class Inputs {
  constructor(
    private readonly read: InputReader,
    private readonly used: ReadonlySet<string>,
    private readonly mask: (secret: string) => void,
  ) {}

  raw(name: string): string {
    return this.used.has(name) ? this.read(name) : '';
  }

  text(name: string): string {
    return this.raw(name).trim();
  }

  /** A value that must be one line (a branch, a slug, a repository): line breaks and controls refused. */
  line(name: string): string {
    const value = this.text(name);
    const what = notOneLine(value);
    if (what) {
      throw new InputError(
        name,
        `${quoted(value)} contains ${what}, and must be one line`,
        'Give the value alone on one line (check the expression or the YAML block that produces it).',
      );
    }
    return value;
  }

  /**
   * A token: masked the moment it is read, and refused at once (without showing it) when it holds a
   * character an HTTP header cannot carry, which would otherwise fail every request as a network error.
   */
  secret(name: string): string | undefined {
    const value = this.text(name);
    if (!value) return undefined;
    this.mask(value);
    const bad = /[^\x21-\x7e]/.exec(value);
    if (bad) {
      const code = bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
      throw new InputError(
        name,
        `contains a character an HTTP header cannot carry (U+${code}, at character ${bad.index + 1} of ${value.length})`,
        'Copy the token again without spaces, line breaks or invisible characters, and save it in the secret as it is.',
      );
    }
    return value;
  }

  boolean(name: string): boolean | undefined {
    const value = this.text(name);
    if (!value) return undefined;
    if (/^(true|yes|on|1)$/i.test(value)) return true;
    if (/^(false|no|off|0)$/i.test(value)) return false;
    throw new InputError(name, `${quoted(value)} is not a boolean`, 'Use true or false.');
  }

  number(name: string, range: { min: number; max: number; fallback: number }): number {
    const value = this.text(name);
    if (!value) return range.fallback;
    const parsed = Number(value);
    if (!Number.isFinite(parsed) || parsed < range.min || parsed > range.max) {
      throw new InputError(
        name,
        `${quoted(value)} is not a number from ${range.min} to ${range.max}`,
        `Use a number in that range, or leave it empty for ${range.fallback}.`,
      );
    }
    return parsed;
  }

  integer(name: string, range: { min: number; max: number; fallback: number }): number {
    return this.optionalInteger(name, range) ?? range.fallback;
  }

  optionalInteger(name: string, range: { min: number; max: number; fallback?: number }): number | undefined {
    const value = this.text(name);
    if (!value) return undefined;
    if (!/^-?[0-9]+$/.test(value) || Number(value) < range.min || Number(value) > range.max) {
      const leave =
        range.fallback === undefined
          ? 'leave it empty to keep the current value'
          : `leave it empty for ${range.fallback}`;
      throw new InputError(
        name,
        `${quoted(value)} is not a whole number from ${range.min} to ${range.max}`,
        `Use a whole number in that range, or ${leave}.`,
      );
    }
    return Number(value);
  }

  /** One of `values`, compared without regard to case or `-`/`_`; undefined when empty. */
  choice<const T extends readonly string[]>(
    name: string,
    values: T,
    options: { extraAdvice?: Record<string, string> } = {},
  ): T[number] | undefined {
    const value = this.text(name);
    if (!value) return undefined;
    const normalized = value.toLowerCase().replace(/-/g, '_');
    const match = values.find((v) => v.toLowerCase().replace(/-/g, '_') === normalized);
    if (match) return match;
    const extra = options.extraAdvice?.[normalized];
    const [closest] = closestMatches(value.toLowerCase(), values, 1);
    throw new InputError(
      name,
      `${quoted(value)} is not one of ${values.join(', ')}`,
      extra ?? (closest ? `Did you mean ${closest}?` : 'Use one of those values.'),
    );
  }

  /** A comma- or newline-separated list, blanks dropped. */
  /** Items separated by commas or line breaks; an item holding a control character is refused. */
  list(name: string): string[] {
    const items = this.raw(name)
      .split(/[\n,]/)
      .map((s) => s.trim())
      .filter(Boolean);
    const bad = items.find((item) => notOneLine(item));
    if (bad !== undefined) {
      throw new InputError(
        name,
        `item ${quoted(bad)} contains ${notOneLine(bad)}`,
        'Give each item as plain text, separated by commas or line breaks.',
      );
    }
    return items;
  }

  /**
   * An id the service gave (a test, a test run): checked against its documented form here, so that an id
   * no request could carry is a bad input, not a refusal of the request it would have made.
   */
  id(name: string, kind: IdKind): string | undefined {
    const value = this.line(name);
    if (!value) return undefined;
    const form = ID_FORMS[kind];
    if (!form.pattern.test(value)) {
      throw new InputError(
        name,
        `${quoted(value)} is not ${form.what}`,
        'Set it to the id exactly as the service gives it (in its answers, or on its web app).',
      );
    }
    return value;
  }

  dateTime(name: string): string | undefined {
    const value = this.text(name);
    if (!value) return undefined;
    const ms = Date.parse(value);
    if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(ms)) {
      throw new InputError(
        name,
        `${quoted(value)} is not a date-time`,
        'Use ISO 8601, e.g. 2026-01-31T00:00:00Z.',
      );
    }
    return new Date(ms).toISOString();
  }

  jsonObject(name: string): Record<string, unknown> {
    const value = this.text(name);
    if (!value) return {};
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch (error) {
      throw new InputError(
        name,
        `is not valid JSON (${(error as Error).message})`,
        'Give a JSON object, e.g. {"concurrency": 3}.',
      );
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new InputError(name, 'is not a JSON object', 'Give a JSON object, e.g. {"concurrency": 3}.');
    }
    return parsed as Record<string, unknown>;
  }
}

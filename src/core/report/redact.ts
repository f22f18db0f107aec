// Hiding secrets from everything that leaves the run: log lines, outputs, summaries, report files.
import { escapeMarkdown } from './markdown.js';
import { escapeRegExp } from '../regexp.js';

export type Redact = (text: string) => string;

/**
 * Replaces every occurrence of the given secrets with `***`: as given, and in every spelling that text
 * leaving the run may give them (see `spellingsOf`), where the plain form no longer matches. A part of a
 * secret is hidden too, from `FRAGMENT` characters up: an answer that echoes the first half of a token
 * shows none of it. A secret that is a URL (an incoming webhook's) is hidden whole and by its path, and
 * its parts are the path's and query's own segments: `https://` or `/services/` alone is no secret.
 */
export function redactor(secrets: (string | undefined)[]): Redact {
  const present = secrets.filter((s): s is string => !!s && s.length >= 4);
  const known = present.map(secretPartsOf);
  const parts = known.flatMap(({ pieces }) => pieces);
  const spellings = [
    ...new Set(
      known
        .flatMap(({ whole }) => whole)
        .concat(parts)
        .flatMap(spellingsOf),
    ),
  ].sort((a, b) => b.length - a.length);
  const hideFragments = fragmentRedactor([...new Set(parts.flatMap(spellingsOf))]);
  return (text) =>
    redactCredentials(
      hideFragments(
        spellings.reduce(
          (out, spelling) => (out.includes(spelling) ? out.split(spelling).join('***') : out),
          // First, so that hiding the prefix a run's own key shares with another's leaves none in sight.
          hideApiKeys(text),
        ),
      ),
    );
}

/**
 * The secrets a run holds, growing as inputs are read (a webhook URL is read with its operation's
 * settings): `redact` always hides every one added so far.
 */
export class SecretSet {
  private readonly secrets: string[] = [];
  private current: Redact = redactor([]);

  add(secret: string): void {
    if (!secret || this.secrets.includes(secret)) return;
    this.secrets.push(secret);
    this.current = redactor(this.secrets);
  }

  readonly redact: Redact = (text) => this.current(text);
}

/**
 * What of a secret is hidden whole, and what in part too. A token: all of it, both ways. A URL: whole, and
 * its path with the query; in part, each path segment and query value of `FRAGMENT` characters or more
 * that is not a word (a Slack webhook's `T0…/B0…/<secret>`), or of letters alone but too long for one.
 */
function secretPartsOf(secret: string): { whole: string[]; pieces: string[] } {
  const origin = /^https?:\/\/[^/?#]*/i.exec(secret)?.[0];
  if (!origin) return { whole: [secret], pieces: [secret] };
  const tail = secret.slice(origin.length);
  const pieces = tail
    .split(/[/?&=#;@]/)
    .filter((piece) => piece.length >= (WORD.test(piece) ? RANDOM_WORD : FRAGMENT));
  return { whole: tail.length >= FRAGMENT ? [secret, tail] : [secret], pieces };
}

/** Letters alone this long are no word of a path (`IncomingWebhook` is 15) but a key. */
const RANDOM_WORD = 20;

/**
 * Every way text leaving the run may spell a secret: as given; escaped for markdown, JSON, HTML (and so
 * Slack's mrkdwn); percent-encoded as `encodeURIComponent`, `encodeURI` and a form would, in upper- and
 * lower-case hex; and each of those escaped once more for markdown, JSON (with or without `\\/`) or
 * HTML (a JSON answer quoted in a summary).
 */
function spellingsOf(secret: string): string[] {
  const encodings = [
    secret,
    encodeURIComponent(secret),
    encodeURI(secret),
    new URLSearchParams([['', secret]]).toString().slice(1),
  ];
  const withCases = encodings.flatMap((spelling) => [spelling, lowerHex(spelling)]);
  const escapes = [(s: string) => s, escapeMarkdown, escapeJson, escapeJsonSlashes, escapeHtml];
  return [
    ...new Set(
      withCases.flatMap((spelling) =>
        escapes.flatMap((escape) => escapes.map((again) => again(escape(spelling)))),
      ),
    ),
  ];
}

function lowerHex(text: string): string {
  return text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
}

function escapeJson(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/** JSON as PHP and some other writers spell it, `/` as `\\/`. */
function escapeJsonSlashes(text: string): string {
  return escapeJson(text).replace(/\//g, '\\/');
}

const HTML_ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ENTITIES[char]!);
}

/** The shortest part of a secret that is hidden on its own; shorter ones are as likely to be prose. */
export const FRAGMENT = 8;

/** A part made of letters alone reads as a word (`security` in `tok_security_x9`), which text may hold. */
const WORD = /^[A-Za-z]+$/;

/**
 * Hides every run of text that is a part, `FRAGMENT` characters or longer and not a word, of one of the
 * spellings. Most text holds none: one search for the spellings' aligned halves (every such run holds
 * one) decides that before the search for every part runs.
 */
function fragmentRedactor(spellings: string[]): Redact {
  const parts = spellings.flatMap((spelling) => slices(spelling, FRAGMENT, 1)).filter((p) => !WORD.test(p));
  if (parts.length === 0) return (text) => text;
  const half = FRAGMENT / 2;
  const anyOf = (texts: string[]) => [...new Set(texts)].map(escapeRegExp).join('|');
  const guard = new RegExp(anyOf(spellings.flatMap((spelling) => slices(spelling, half, half))));
  const part = new RegExp(`(?=(?:${anyOf(parts)}))`, 'g');
  return (text) => {
    if (!guard.test(text)) return text;
    const hidden: [number, number][] = [];
    for (const match of text.matchAll(part)) {
      const end = match.index + FRAGMENT;
      const last = hidden.at(-1);
      if (last && match.index <= last[1]) last[1] = end;
      else hidden.push([match.index, end]);
    }
    let out = '';
    let from = 0;
    for (const [start, end] of hidden) {
      out += `${text.slice(from, start)}***`;
      from = end;
    }
    return hidden.length === 0 ? text : out + text.slice(from);
  };
}

/** Every `length`-character slice of `text` that starts at a multiple of `step`. */
function slices(text: string, length: number, step: number): string[] {
  const out: string[] = [];
  for (let start = 0; start + length <= text.length; start += step)
    out.push(text.slice(start, start + length));
  return out;
}

/**
 * Credentials recognisable by their shape wherever they turn up (pasted into the wrong input, echoed in an
 * answer): GitHub, GitLab and Slack tokens, JWTs, bearer and x-api-token header values, URL user info, and
 * secret-named query parameters. Each pattern runs only where its guard, a cheap search for a word the
 * pattern needs, finds one: the lookbehinds cost much on a report of megabytes that holds none.
 */
const CREDENTIAL_PATTERNS: { guard: RegExp; pattern: RegExp }[] = [
  {
    guard: /gh[pousr]_|github_pat_|glpat-|xox[abprs]-/,
    pattern:
      /\b(?:gh[pousr]_[A-Za-z0-9]{16,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{16,}|xox[abprs]-[A-Za-z0-9-]{10,})/g,
  },
  { guard: /eyJ/, pattern: /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  {
    guard: /authorization|x-api-token|x-forked-workflow-run-id/i,
    pattern:
      /(?<=\b(?:authorization|x-api-token|x-forked-workflow-run-id)["']?\s*[:=]\s*["']?)(?!(?:bearer|token|basic)\s)(?=[^\s"',;]{4})[^\s"',;]*[^\s"',;.)]/gi,
  },
  {
    guard: /(?:bearer|token|basic)\s/i,
    // After `token`, only a word with a digit in it: `token expired` is prose, `token abc123def4` is not.
    pattern: /(?<=\b(?:bearer|token|basic)\s+)(?=[A-Za-z._~+/=-]*\d)[A-Za-z0-9._~+/=-]{8,}/gi,
  },
  { guard: /:\/\/[^\s/@"']+@/, pattern: /(?<=\b[a-z][a-z0-9+.-]*:\/\/)[^\s/@"']+(?=@)/gi },
  {
    guard: /[?&][a-z_-]*(?:token|secret|password|passwd|key|auth|signature|sig)=/i,
    pattern: /(?<=[?&](?:[a-z_-]*(?:token|secret|password|passwd|key|auth|signature|sig))=)[^&\s#"']+/gi,
  },
];

/** The service's v2 API keys, wherever they show (the run's own or another organization's). */
function hideApiKeys(text: string): string {
  return text.includes('trunk_v2_') ? text.replace(/trunk_v2_[A-Za-z0-9_-]{4,}/g, '***') : text;
}

/**
 * Every guard in one search, ignoring case (so it finds all that each guard finds): most text, such as
 * each test of a report, holds none, and one search costs less than six.
 */
const ANY_GUARD = new RegExp(CREDENTIAL_PATTERNS.map(({ guard }) => `(?:${guard.source})`).join('|'), 'i');

export function redactCredentials(text: string): string {
  const keysHidden = hideApiKeys(text);
  if (!ANY_GUARD.test(keysHidden)) return keysHidden;
  return CREDENTIAL_PATTERNS.reduce(
    (out, { guard, pattern }) => (guard.test(out) ? out.replace(pattern, '***') : out),
    keysHidden,
  );
}

/** Characters a secret is made of: a cut never falls inside a run of them, so no part of one is shown. */
const SECRET_CHARACTER = /[A-Za-z0-9_.+~=\-/]/;

/**
 * `text` cut to at most `max` characters, for a line that shows only the start of a value. Redact first:
 * the cut then backs off to the start of the word it would split, so that a secret the redactor did not
 * know is shown whole (where a later redaction still finds it) or not at all, never in part.
 */
export function cutSafely(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  while (end > 0 && SECRET_CHARACTER.test(text[end]!) && SECRET_CHARACTER.test(text[end - 1]!)) end--;
  return text.slice(0, end);
}

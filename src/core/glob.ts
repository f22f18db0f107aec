// Globs matched in time proportional to the pattern's length times the path's, whatever either holds. A
// pull request's author writes the targets config, the workspace's globs and every file name, so a glob
// must not be a backtracking regular expression (`*a*a*a*a*b` against a long name never ends). Braces
// are expanded first (a bounded number of alternatives); each alternative is a list of path segments,
// matched left to right as a set of positions (a `**` stays or moves on); each segment's wildcards are
// matched the same way, one character at a time. Semantics are picomatch's with `dot: true` on ordinary
// globs (a property test compares them); see docs/impacted-targets.md, "Globs". CODEOWNERS patterns are turned into such globs too.

/** Why a glob cannot be used, said so that whoever wrote it can fix it. */
export class GlobError extends Error {}

/** More alternatives than this (`{a,b}{c,d}...` multiplies) is refused: the glob would be slow by design. */
const MAX_ALTERNATIVES = 256;
/** `{name}`: a capture, told apart from a brace list (`{a,b}`) or a range (`{1..3}`) by its spelling. */
const CAPTURE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SPECIAL = /[*?[\]{}()!+@\\]/;
const EXTGLOB = /(^|[^\\])[@*+?!]\(/;

type Token =
  | { kind: 'char'; code: number }
  | { kind: 'any' }
  | { kind: 'star' }
  | { kind: 'class'; test: (code: number) => boolean }
  | { kind: 'capture'; name: string };

type Segment =
  | { kind: 'globstar' }
  | { kind: 'literal'; text: string }
  | { kind: 'wild'; tokens: Token[]; nfa: Token[]; captures: string[]; starsOnly: boolean };

export interface Glob {
  readonly source: string;
  /** The capture names, in order of the first alternative. */
  readonly captures: readonly string[];
  /** The directory every match lies in ('' when the glob starts with a wildcard or a brace list). */
  readonly base: string;
  /** Set when a path's answer depends on its first this-many segments and what lies below them only. */
  readonly directoryDecided?: number;
  /** Set when every match ends in this plain name (`**\/dist`: `dist`), so that others need no match. */
  readonly lastName?: string;
  /** The captured values when the path matches (`{}` without captures), else undefined. */
  match(path: string): Record<string, string> | undefined;
}

export function compileGlob(source: string): Glob {
  if (EXTGLOB.test(source)) {
    throw new GlobError(
      `"${source}" uses an extglob (@(...), *(...), +(...), ?(...), !(...)), which is not supported; use a brace list {a,b} instead`,
    );
  }
  const alternatives = expandBraces(source).map(segmentsOf);
  const captures =
    alternatives[0]?.flatMap((segment) => (segment.kind === 'wild' ? segment.captures : [])) ?? [];
  const decided = alternatives.map(directoryDecidedOf);
  // Every match starts with one of the alternatives' plain leading segments: a path that starts with none
  // of them is answered without splitting it.
  const prefixes = alternatives.map(plainPrefixOf);
  return {
    source,
    captures,
    base: baseOf(source),
    directoryDecided: decided.every((d) => d !== undefined) ? Math.max(...(decided as number[])) : undefined,
    lastName: lastNameOf(alternatives),
    match(path) {
      if (prefixes.every((prefix) => !path.startsWith(prefix))) return undefined;
      const parts = path.split('/');
      for (const segments of alternatives) {
        if (matchSegments(segments, parts)) return capturesOf(segments, parts);
      }
      return undefined;
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// Compiling

/** `{a,b}` and `{1..3}` expanded, outermost first; `{name}` and anything else in braces kept as written. */
export function expandBraces(source: string): string[] {
  const open = findBraceList(source);
  if (!open) return [source];
  const { start, end, items } = open;
  const results: string[] = [];
  for (const item of items) {
    for (const expanded of expandBraces(source.slice(0, start) + item + source.slice(end + 1))) {
      results.push(expanded);
      if (results.length > MAX_ALTERNATIVES) {
        throw new GlobError(
          `"${source}" expands to more than ${MAX_ALTERNATIVES} globs; write fewer brace lists`,
        );
      }
    }
  }
  return results;
}

/** The first brace list or range (not a capture, not inside a class), with its items. */
function findBraceList(source: string): { start: number; end: number; items: string[] } | undefined {
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (c === '[') i = classEnd(source, i) ?? i;
    else if (c === '{') {
      const end = matchingBrace(source, i);
      if (end === undefined) return undefined;
      const inner = source.slice(i + 1, end);
      const items = splitTopLevel(inner);
      if (items.length > 1) return { start: i, end, items };
      const range = rangeItems(inner);
      if (range) return { start: i, end, items: range };
    }
  }
  return undefined;
}

function matchingBrace(source: string, open: number): number | undefined {
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return undefined;
}

function splitTopLevel(inner: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === '}') depth--;
    else if (c === ',' && depth === 0) {
      items.push(inner.slice(from, i));
      from = i + 1;
    }
  }
  items.push(inner.slice(from));
  return items;
}

/** `1..3`, `a..e` (and a step, `1..9..2`); undefined for anything else. */
function rangeItems(inner: string): string[] | undefined {
  const numeric = /^(-?\d+)\.\.(-?\d+)(?:\.\.(\d+))?$/.exec(inner);
  const alpha = /^([A-Za-z])\.\.([A-Za-z])(?:\.\.(\d+))?$/.exec(inner);
  const found = numeric ?? alpha;
  if (!found) return undefined;
  const from = numeric ? Number(found[1]) : (found[1] as string).charCodeAt(0);
  const to = numeric ? Number(found[2]) : (found[2] as string).charCodeAt(0);
  const step = Math.max(1, Number(found[3] ?? 1));
  if (Math.abs(to - from) / step >= MAX_ALTERNATIVES) {
    throw new GlobError(`the range {${inner}} holds more than ${MAX_ALTERNATIVES} values`);
  }
  const items: string[] = [];
  for (let n = from; from <= to ? n <= to : n >= to; n += from <= to ? step : -step) {
    items.push(numeric ? String(n) : String.fromCharCode(n));
  }
  return items;
}

function segmentsOf(alternative: string): Segment[] {
  // `**/**` is one `**`.
  const texts = alternative.split('/').filter((text, i, all) => !(text === '**' && all[i - 1] === '**'));
  return texts.map((text): Segment => {
    if (text === '**') return { kind: 'globstar' };
    if (!SPECIAL.test(text)) return { kind: 'literal', text };
    const tokens = tokensOf(text);
    if (tokens.every((token) => token.kind === 'char')) {
      return {
        kind: 'literal',
        text: String.fromCharCode(...tokens.map((t) => (t as { code: number }).code)),
      };
    }
    // A capture takes one character or more: to the matcher, any character then any run.
    const nfa = tokens.flatMap((token): Token[] =>
      token.kind === 'capture' ? [{ kind: 'any' }, { kind: 'star' }] : [token],
    );
    const captures = tokens.flatMap((token) => (token.kind === 'capture' ? [token.name] : []));
    const starsOnly = nfa.every((token) => token.kind === 'char' || token.kind === 'star');
    return { kind: 'wild', tokens, nfa, captures, starsOnly };
  });
}

function tokensOf(text: string): Token[] {
  const tokens: Token[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '\\' && i + 1 < text.length) tokens.push({ kind: 'char', code: text.charCodeAt(++i) });
    else if (c === '*') {
      while (text[i + 1] === '*') i++;
      tokens.push({ kind: 'star' });
    } else if (c === '?') tokens.push({ kind: 'any' });
    else if (c === '[' && classEnd(text, i) !== undefined) {
      const end = classEnd(text, i) as number;
      tokens.push({ kind: 'class', test: classTest(text.slice(i + 1, end)) });
      i = end;
    } else if (
      c === '{' &&
      text.indexOf('}', i) > i &&
      CAPTURE_NAME.test(text.slice(i + 1, text.indexOf('}', i)))
    ) {
      const end = text.indexOf('}', i);
      tokens.push({ kind: 'capture', name: text.slice(i + 1, end) });
      i = end;
    } else tokens.push({ kind: 'char', code: text.charCodeAt(i) });
  }
  return tokens;
}

/** Where the class opened at `open` ends (its `]`), or undefined when it is not closed. */
function classEnd(text: string, open: number): number | undefined {
  let i = open + 1;
  if (text[i] === '!' || text[i] === '^') i++;
  if (text[i] === ']') i++;
  for (; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '[' && text[i + 1] === ':') {
      const close = text.indexOf(':]', i + 2);
      if (close > 0) i = close + 1;
    } else if (text[i] === ']') return i;
    else if (text[i] === '/') return undefined;
  }
  return undefined;
}

const POSIX_CLASSES: Record<string, RegExp> = {
  alnum: /[A-Za-z0-9]/,
  alpha: /[A-Za-z]/,
  blank: /[ \t]/,
  digit: /[0-9]/,
  graph: /[\x21-\x7e]/,
  lower: /[a-z]/,
  print: /[\x20-\x7e]/,
  punct: /[!-/:-@[-`{-~]/,
  space: /\s/,
  upper: /[A-Z]/,
  word: /\w/,
  xdigit: /[A-Fa-f0-9]/,
};

/** The inside of `[...]` as a test of one character: ranges, POSIX classes, `!` or `^` to negate. */
function classTest(inner: string): (code: number) => boolean {
  const negated = inner[0] === '!' || inner[0] === '^';
  const tests: ((code: number) => boolean)[] = [];
  let i = negated ? 1 : 0;
  const next = () => (inner[i] === '\\' ? inner.charCodeAt(++i) : inner.charCodeAt(i));
  for (; i < inner.length; i++) {
    const posix = inner[i] === '[' && inner[i + 1] === ':' ? /^\[:([a-z]+):\]/.exec(inner.slice(i)) : null;
    if (posix && POSIX_CLASSES[posix[1] as string]) {
      const regex = POSIX_CLASSES[posix[1] as string] as RegExp;
      tests.push((code) => regex.test(String.fromCharCode(code)));
      i += posix[0].length - 1;
      continue;
    }
    const low = next();
    if (inner[i + 1] === '-' && i + 2 < inner.length) {
      i += 2;
      const high = next();
      tests.push((code) => code >= low && code <= high);
    } else tests.push((code) => code === low);
  }
  // A class never takes the separator, as no wildcard does.
  return (code) => code !== 47 && tests.some((test) => test(code)) !== negated;
}

/** The leading segments without a wildcard, brace or escape: every match lies under them. */
function baseOf(source: string): string {
  if (!SPECIAL.test(source)) return source;
  const segments = source.split('/');
  const plain: string[] = [];
  for (const segment of segments.slice(0, -1)) {
    if (SPECIAL.test(segment)) break;
    plain.push(segment);
  }
  return plain.join('/');
}

/** The alternative's plain leading segments, joined (a path `a` matches `a/**`: no end slash). */
function plainPrefixOf(segments: Segment[]): string {
  const plain: string[] = [];
  for (const segment of segments) {
    if (segment.kind !== 'literal') break;
    plain.push(segment.text);
  }
  return plain.join('/');
}

/** The plain last segment every alternative ends in, if they all end in the same one. */
function lastNameOf(alternatives: Segment[][]): string | undefined {
  const names = new Set(
    alternatives.map((segments) => {
      const last = segments.at(-1);
      return last?.kind === 'literal' ? last.text : undefined;
    }),
  );
  const [name] = names;
  return names.size === 1 && name ? name : undefined;
}

/** `a/{name}/**`: the segments before a last `**` decide, when no other `**` comes before it. */
function directoryDecidedOf(segments: Segment[]): number | undefined {
  const last = segments.length - 1;
  if (segments[last]?.kind !== 'globstar') return undefined;
  return segments.slice(0, last).some((s) => s.kind === 'globstar') ? undefined : last;
}

// ---------------------------------------------------------------------------------------------------
// Matching

/** `.` and `..` segments are taken by no `**`. */
function isNotDots(segment: string): boolean {
  return segment !== '.' && segment !== '..';
}

/** Empty, `.` and `..` segments are taken by no wildcard: only by the same text in the glob. */
function isWildcardable(segment: string): boolean {
  return segment !== '' && segment !== '.' && segment !== '..';
}

/**
 * The path's segments against the glob's, as the set of glob positions reached so far. A `**` takes zero
 * or more segments; a last `**` takes zero (the directory itself) only after plain text, as picomatch's.
 */
function matchSegments(segments: Segment[], allParts: string[]): boolean {
  const m = segments.length;
  // One end slash (a directory's spelling) is taken by a glob that ends in a wildcard, as picomatch's.
  const endSlash = allParts.length > 1 && allParts[allParts.length - 1] === '';
  const parts = endSlash && segments[m - 1]?.kind === 'wild' ? allParts.slice(0, -1) : allParts;
  const lastIsGlobstar = segments[m - 1]?.kind === 'globstar';
  // Two sets of positions, swapped at each segment: nothing is allocated per segment.
  let states = new Uint8Array(m + 1);
  let next = new Uint8Array(m + 1);
  states[0] = 1;
  skipGlobstars(segments, states);
  for (const part of parts) {
    next.fill(0);
    let any = false;
    for (let p = 0; p <= m; p++) {
      if (!states[p]) continue;
      const segment = p < m ? segments[p] : undefined;
      if (p === m) {
        // Past the end only a last `**` that has taken a segment goes on taking them.
        if (lastIsGlobstar && isNotDots(part)) any = mark(next, m);
      } else if ((segment as Segment).kind === 'globstar') {
        if (isNotDots(part)) any = mark(next, p === m - 1 ? m : p);
      } else if (segmentMatches(segment as Segment, part)) any = mark(next, p + 1);
    }
    if (!any) return false;
    skipGlobstars(segments, next);
    [states, next] = [next, states];
  }
  if (states[m]) return true;
  // The path ended where a last `**` begins: it may take nothing unless a run (`*`, a capture) ends the
  // segment before it, as picomatch's.
  return lastIsGlobstar && states[m - 1] === 1 && (m === 1 || endsInPlainText(segments[m - 2] as Segment));
}

/** Whether a segment ends in something other than a run of any length (`*` or a capture). */
function endsInPlainText(segment: Segment): boolean {
  if (segment.kind !== 'wild') return true;
  const last = segment.tokens[segment.tokens.length - 1]?.kind;
  return last !== 'star' && last !== 'capture';
}

/** A `**` before the last segment may take no segment at all. */
function skipGlobstars(segments: Segment[], states: Uint8Array): void {
  for (let p = 0; p < segments.length - 1; p++) {
    if (states[p] && segments[p]?.kind === 'globstar') states[p + 1] = 1;
  }
}

function segmentMatches(segment: Segment, part: string): boolean {
  if (segment.kind === 'literal') return segment.text === part;
  if (segment.kind !== 'wild' || !isWildcardable(part)) return false;
  return segment.starsOnly ? starsMatch(segment.nfa, part) : tokensMatch(segment.nfa, part);
}

/**
 * Plain characters and `*` only (`*.ts`, `lib-*`): each `*` takes as little as it can, and a mismatch
 * resumes one character further after the last `*` seen. Each resume moves the start on, so the work is
 * at most the tokens times the characters, without a set of positions to keep.
 */
function starsMatch(tokens: Token[], text: string): boolean {
  let t = 0;
  let i = 0;
  let star = -1;
  let resume = 0;
  while (i < text.length) {
    const token = tokens[t];
    if (token?.kind === 'char' && token.code === text.charCodeAt(i)) {
      t++;
      i++;
    } else if (token?.kind === 'star') {
      star = t++;
      resume = i;
    } else if (star >= 0) {
      t = star + 1;
      i = ++resume;
    } else return false;
  }
  while (tokens[t]?.kind === 'star') t++;
  return t === tokens.length;
}

/** One segment against its tokens, as the set of token positions reached (a `*` stays or moves on). */
function tokensMatch(tokens: Token[], text: string): boolean {
  const k = tokens.length;
  // Two sets of positions, swapped at each character: nothing is allocated per character.
  let states = new Uint8Array(k + 1);
  let next = new Uint8Array(k + 1);
  states[0] = 1;
  skipStars(tokens, states);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    next.fill(0);
    let any = false;
    for (let p = 0; p < k; p++) {
      if (!states[p]) continue;
      const token = tokens[p] as Token;
      if (token.kind === 'star') any = mark(next, p);
      else if (
        token.kind === 'any' ||
        (token.kind === 'char' ? token.code === code : token.kind === 'class' && token.test(code))
      ) {
        any = mark(next, p + 1);
      }
    }
    if (!any) return false;
    skipStars(tokens, next);
    [states, next] = [next, states];
  }
  return states[k] === 1;
}

/** Sets a state reached; true, for the step's "anything reached" flag. */
function mark(states: Uint8Array, state: number): true {
  states[state] = 1;
  return true;
}

function skipStars(tokens: Token[], states: Uint8Array): void {
  for (let p = 0; p < tokens.length; p++) if (states[p] && tokens[p]?.kind === 'star') states[p + 1] = 1;
}

/**
 * The values of a matching path's captures. Captures lie before any `**`, so each one's segment is the
 * path's segment at the same place; within it each capture is as short as it can be with the rest still
 * matching (as a lazy `(.+?)` would take it), found from a table of which ends can still match.
 */
function capturesOf(segments: Segment[], parts: string[]): Record<string, string> {
  const values: Record<string, string> = {};
  segments.forEach((segment, index) => {
    if (segment.kind !== 'wild' || segment.captures.length === 0) return;
    const text = parts[index] as string;
    if (segment.captures.length === 1) {
      // One capture between plain text (`{name}`, `lib-{name}`): it takes all that lies between.
      const at = segment.tokens.findIndex((token) => token.kind === 'capture');
      values[segment.captures[0] as string] = text.slice(at, text.length - (segment.tokens.length - at - 1));
      return;
    }
    const canEnd = endsTable(segment.tokens, text);
    let at = 0;
    segment.tokens.forEach((token, p) => {
      if (token.kind !== 'capture') {
        at++;
        return;
      }
      let end = at + 1;
      while (!canEnd[p + 1]?.[end]) end++;
      values[token.name] = text.slice(at, end);
      at = end;
    });
  });
  return values;
}

/** canEnd[p][i]: tokens from p on match the text from i on (captures and plain characters only). */
function endsTable(tokens: Token[], text: string): Uint8Array[] {
  const length = text.length;
  const table = tokens.map(() => new Uint8Array(length + 1));
  table.push(new Uint8Array(length + 1));
  (table[tokens.length] as Uint8Array)[length] = 1;
  for (let p = tokens.length - 1; p >= 0; p--) {
    const token = tokens[p] as Token;
    const row = table[p] as Uint8Array;
    const after = table[p + 1] as Uint8Array;
    let laterEnd = 0;
    for (let i = length; i >= 0; i--) {
      if (token.kind === 'capture') row[i] = laterEnd;
      else
        row[i] =
          i < length && token.kind === 'char' && text.charCodeAt(i) === token.code
            ? (after[i + 1] as number)
            : 0;
      // Whether the rest can match from some position after i (a capture takes one character or more).
      laterEnd = laterEnd || (after[i] as number);
    }
  }
  return table;
}

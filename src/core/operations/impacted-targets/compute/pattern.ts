// One path glob of a targets config, compiled once. Globs are picomatch's (`*` stays inside one path
// segment, `**` crosses them, braces expand, case-sensitive, dotfiles match like any file), plus named
// captures: `{name}` in a segment matches one or more characters of that segment and gives them to the
// rule's targets (`services/{name}/**` -> `svc:{name}`). picomatch sees a capture as `*`; the captured
// text is then cut out of the path's segment with a small anchored regex of our own.
import picomatch from 'picomatch';

/** `{name}`: a capture, told apart from a brace list (`{a,b}`) or a range (`{1..3}`) by its spelling. */
const CAPTURE = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
const GLOB_CHARS = /[*?[\]{}()!+@]/;

const PICOMATCH_OPTIONS: picomatch.PicomatchOptions = { dot: true, windows: false };

export interface PathPattern {
  /** As written in the config. */
  readonly source: string;
  /** The capture names, in order. */
  readonly captures: readonly string[];
  /** The directory every match lies in ('' when the glob starts with a wildcard or a brace list). */
  readonly base: string;
  /** The captured values when the path matches, else undefined; `{}` for a pattern without captures. */
  match(path: string): Record<string, string> | undefined;
}

/** Why a pattern cannot be used, said so that the config's author can fix it. */
export class PatternError extends Error {}

export function compilePattern(source: string): PathPattern {
  if (source.startsWith('/') || source.startsWith('./')) {
    throw new PatternError(
      `"${source}" starts with "${source.startsWith('/') ? '/' : './'}"; paths are relative to the repository root, write it without`,
    );
  }
  if (source.startsWith('!')) {
    throw new PatternError(`"${source}" is a negated glob; list what to leave out under exclude instead`);
  }
  const glob = source.replace(CAPTURE, '*');
  const segments = source.split('/');
  const captures: string[] = [];
  const extractors: { segment: number; regex: RegExp; names: string[] }[] = [];
  segments.forEach((segment, index) => {
    const names = [...segment.matchAll(CAPTURE)].map((m) => m[1] as string);
    if (names.length === 0) return;
    if (segments.slice(0, index).some((s) => s.includes('**'))) {
      throw new PatternError(
        `"${source}": a capture must come before any "**", so that it always names the same path segment`,
      );
    }
    const rest = segment.replace(CAPTURE, '');
    if (GLOB_CHARS.test(rest)) {
      throw new PatternError(
        `"${source}": the segment "${segment}" mixes a capture with other wildcards; a capture's segment may hold only plain text besides its captures`,
      );
    }
    for (const name of names) {
      if (captures.includes(name)) throw new PatternError(`"${source}" captures {${name}} twice`);
      captures.push(name);
    }
    const regex = new RegExp(
      `^${segment
        .split(CAPTURE)
        .map((part, i) => (i % 2 === 1 ? '(.+?)' : escapeRegExp(part)))
        .join('')}$`,
    );
    extractors.push({ segment: index, regex, names });
  });

  const scanned = picomatch.scan(glob);
  const base = scanned.isGlob ? scanned.base : glob;
  const captured = extractors.length > 0 ? capturedTree(segments, extractors) : undefined;
  if (captured) return { source, captures, base, match: captured };
  const test = (extractors.length === 0 && plainTest(glob)) || regexTest(source, glob);

  return {
    source,
    captures,
    base,
    match(path) {
      if (!test(path)) return undefined;
      if (extractors.length === 0) return {};
      const parts = path.split('/');
      const values: Record<string, string> = {};
      for (const { segment, regex, names } of extractors) {
        const found = regex.exec(parts[segment] ?? '');
        if (!found) return undefined;
        names.forEach((name, i) => (values[name] = found[i + 1] as string));
      }
      return values;
    },
  };
}

/**
 * The bare regex: picomatch's matcher function adds per-call work (options, a result object) that a
 * hot loop over thousands of files does not need.
 */
function regexTest(source: string, glob: string): (path: string) => boolean {
  let regex: RegExp;
  try {
    regex = picomatch.makeRe(glob, PICOMATCH_OPTIONS);
  } catch (error) {
    throw new PatternError(`"${source}" is not a valid glob (${(error as Error).message})`);
  }
  return (path) => regex.test(path);
}

/** Path text that means itself in a glob: no wildcard, escape, empty or `.`/`..` segment, no end slash. */
const PLAIN_PATH = /^[\w.-]+(?:\/[\w.-]+)*$/;
// `.md`, `.d.ts`: picomatch writes a glob `**/*.ext` (only with the dot) as a name ending so, one end
// slash allowed, in any directory.
const PLAIN_EXTENSION = /^\.[\w.-]+$/;
/** A `.` or `..` segment: no wildcard of picomatch's matches one, even with `dot`. */
const DOT_SEGMENT = /(?:^|\/)\.\.?(?:\/|$)/;

// The commonest globs tested with string operations instead of picomatch's regex, which checks every
// character against `.` and `..` segments (and must be compiled first: hundreds of rules such as
// `services/api/**` cost more to compile than to run). Each one answers exactly as the regex does
// (a test checks them against picomatch); anything else gets the regex.
function plainTest(glob: string): ((path: string) => boolean) | undefined {
  if (PLAIN_PATH.test(glob) && !DOT_SEGMENT.test(glob)) return (path) => path === glob;
  if (glob === '**') return (path) => !DOT_SEGMENT.test(path);
  if (glob.endsWith('/**')) {
    const dir = glob.slice(0, -3);
    if (!PLAIN_PATH.test(dir) || DOT_SEGMENT.test(dir)) return undefined;
    const prefix = `${dir}/`;
    return (path) => (path === dir || path.startsWith(prefix)) && !DOT_SEGMENT.test(path.slice(dir.length));
  }
  if (glob.startsWith('**/*')) {
    const ending = glob.slice(4);
    if (!PLAIN_EXTENSION.test(ending)) return undefined;
    return (path) => {
      if (DOT_SEGMENT.test(path)) return false;
      const end = path.endsWith('/') ? path.length - 1 : path.length;
      const start = path.lastIndexOf('/', end - 1) + 1;
      return end - start >= ending.length && path.startsWith(ending, end - ending.length);
    };
  }
  return undefined;
}

/** A capture segment's text around its captures that can never make it a `.` or `..` segment. */
const CAPTURE_TEXT = /^[\w-]*$/;

/**
 * The commonest capture glob, `services/{name}/**` (plain segments and capture segments, then `/**`),
 * matched segment by segment with string operations and the capture's own small regex, as picomatch's
 * regex plus the capture would answer (a test checks them against picomatch). Undefined for any other
 * shape, which then takes picomatch's regex.
 */
function capturedTree(
  segments: string[],
  extractors: { segment: number; regex: RegExp; names: string[] }[],
): ((path: string) => Record<string, string> | undefined) | undefined {
  if (segments.length < 2 || segments[segments.length - 1] !== '**') return undefined;
  const fixed = segments.slice(0, -1);
  const extractorAt = new Map(extractors.map((extractor) => [extractor.segment, extractor]));
  const eligible = fixed.every((segment, index) =>
    extractorAt.has(index)
      ? segment.split(CAPTURE).every((part, i) => i % 2 === 1 || CAPTURE_TEXT.test(part))
      : PLAIN_PATH.test(segment) && !DOT_SEGMENT.test(segment),
  );
  if (!eligible) return undefined;
  const steps = fixed.map((segment, index) => ({
    literal: extractorAt.has(index) ? undefined : segment,
    extractor: extractorAt.get(index),
    // A capture alone in its segment must not take a `.` or `..` segment, as picomatch's `*` does not.
    bare: /^\{[A-Za-z_][A-Za-z0-9_]*\}$/.test(segment),
  }));
  // picomatch's `x/**` takes the directory x itself only when x's last character is not a wildcard's.
  const endsPlain = !(fixed[fixed.length - 1] as string).endsWith('}');
  return (path) => {
    const values: Record<string, string> = {};
    let start = 0;
    for (const [index, step] of steps.entries()) {
      const slash = path.indexOf('/', start);
      const end = slash < 0 ? path.length : slash;
      if (slash < 0 && index < steps.length - 1) return undefined;
      if (step.literal !== undefined) {
        if (end - start !== step.literal.length || !path.startsWith(step.literal, start)) return undefined;
      } else {
        const segment = path.slice(start, end);
        if (step.bare && (segment === '.' || segment === '..')) return undefined;
        const found = step.extractor?.regex.exec(segment);
        if (!found) return undefined;
        step.extractor?.names.forEach((name, i) => (values[name] = found[i + 1] as string));
      }
      start = end + 1;
    }
    // `**` takes anything below without a `.` or `..` segment, and the directory itself when it ends in
    // plain text.
    if (start > path.length) return endsPlain ? values : undefined;
    return DOT_SEGMENT.test(path.slice(start - 1)) ? undefined : values;
  };
}

/**
 * A target template made once into a function of the captured values (`svc:{name}` -> `svc:` + name), as
 * it is filled for every changed file; names are checked against the match when the config loads.
 */
export function compileTemplate(template: string): (values: Record<string, string>) => string {
  const parts = template.split(CAPTURE);
  if (parts.length === 1) return () => template;
  return (values) => {
    let text = parts[0] as string;
    for (let i = 1; i < parts.length; i += 2) {
      const name = parts[i] as string;
      text += (values[name] ?? `{${name}}`) + (parts[i + 1] as string);
    }
    return text;
  };
}

/** The capture names a target template uses. */
export function templateNames(template: string): string[] {
  return [...template.matchAll(CAPTURE)].map((m) => m[1] as string);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Patterns indexed by the directory they lie in, so that a path is tested only against patterns whose
 * base is one of its ancestors (or the path itself): with hundreds of rules, a file meets a handful.
 * Candidates come back in the order the patterns were added.
 */
export class PatternIndex<T> {
  private readonly byBase = new Map<string, IndexEntry<T>[]>();
  private count = 0;
  /** The most segments a base has: no deeper directory of a path can be one. */
  private deepestBase = 0;

  add(pattern: PathPattern, value: T): void {
    const list = this.byBase.get(pattern.base) ?? [];
    list.push({ order: this.count++, pattern, value });
    this.byBase.set(pattern.base, list);
    if (pattern.base) this.deepestBase = Math.max(this.deepestBase, pattern.base.split('/').length);
  }

  get size(): number {
    return this.count;
  }

  /** Every pattern, in the order added. */
  patterns(): PathPattern[] {
    return [...this.byBase.values()]
      .flat()
      .sort((a, b) => a.order - b.order)
      .map((entry) => entry.pattern);
  }

  /**
   * The first pattern (in the order added) that matches and that `accept` takes (a rule whose exclude
   * holds the path does not), with its captures.
   */
  first(path: string, accept?: (value: T, path: string) => boolean): PatternMatch<T> | undefined {
    let best: IndexEntry<T> | undefined;
    let bestCaptures: Record<string, string> | undefined;
    for (const candidates of this.candidateLists(path)) {
      // Within a list the order only grows: its first accepted match is the best it has.
      for (const candidate of candidates) {
        if (best && candidate.order > best.order) break;
        const captures = candidate.pattern.match(path);
        if (captures && (!accept || accept(candidate.value, path))) {
          best = candidate;
          bestCaptures = captures;
          break;
        }
      }
    }
    return (
      best && { value: best.value, pattern: best.pattern, captures: bestCaptures as Record<string, string> }
    );
  }

  /** Every pattern that matches, in the order added. */
  all(path: string): PatternMatch<T>[] {
    const found: (PatternMatch<T> & { order: number })[] = [];
    for (const candidates of this.candidateLists(path)) {
      for (const candidate of candidates) {
        const captures = candidate.pattern.match(path);
        if (captures) found.push({ ...candidate, captures });
      }
    }
    return found
      .sort((a, b) => a.order - b.order)
      .map(({ value, pattern, captures }) => ({ value, pattern, captures }));
  }

  /** The lists whose base is the root, one of the path's directories, or the path itself. */
  private candidateLists(path: string): IndexEntry<T>[][] {
    const lists: IndexEntry<T>[][] = [];
    const root = this.byBase.get('');
    if (root) lists.push(root);
    let depth = 0;
    let slash = path.indexOf('/');
    for (; slash >= 0 && depth < this.deepestBase; slash = path.indexOf('/', slash + 1)) {
      depth++;
      const list = this.byBase.get(path.slice(0, slash));
      if (list) lists.push(list);
    }
    if (slash < 0 && depth < this.deepestBase) {
      const exact = this.byBase.get(path);
      if (exact) lists.push(exact);
    }
    return lists;
  }
}

interface IndexEntry<T> {
  order: number;
  pattern: PathPattern;
  value: T;
}

export interface PatternMatch<T> {
  value: T;
  pattern: PathPattern;
  captures: Record<string, string>;
}

// One path glob of a targets config, compiled once. Globs are picomatch's (`*` stays inside one path
// segment, `**` crosses them, braces expand, case-sensitive, dotfiles match like any file), plus named
// captures: `{name}` in a segment matches one or more characters of that segment and gives them to the
// rule's targets (`services/{name}/**` -> `svc:{name}`). picomatch sees a capture as `*`; the captured
// text is then cut out of the path's segment with a small anchored regex of our own.
import picomatch from 'picomatch';
import { escapeRegExp } from '../../../regexp.js';

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
  /**
   * Set when the answer for a path depends only on its directory, for a directory of at least this many
   * segments and a last segment that is neither `.` nor `..` (`services/{name}/**`: 2).
   */
  readonly directoryDecided?: number;
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

  if (extractors.length > 0) {
    const captured = capturedTree(segments, extractors);
    if (captured) {
      const base = segments.slice(0, (extractors[0] as { segment: number }).segment).join('/');
      return { source, captures, base, directoryDecided: segments.length - 1, match: captured };
    }
  } else {
    const plain = plainTest(glob);
    if (plain) {
      const { test, base, directoryDecided } = plain;
      return {
        source,
        captures,
        base,
        directoryDecided,
        match: (path) => (test(path) ? NO_CAPTURES : undefined),
      };
    }
  }

  const scanned = picomatch.scan(glob);
  const base = scanned.isGlob ? scanned.base : glob;
  const test = regexTest(source, glob);
  return {
    source,
    captures,
    base,
    match(path) {
      if (!test(path)) return undefined;
      if (extractors.length === 0) return NO_CAPTURES;
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

/** What a pattern without captures gives on a match: shared, as nothing writes to it. */
const NO_CAPTURES: Record<string, string> = Object.freeze({});

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
// (a test checks them against picomatch); anything else gets the regex. Their base is plain to see, so
// picomatch's scan is not needed either.
function plainTest(
  glob: string,
): { test: (path: string) => boolean; base: string; directoryDecided?: number } | undefined {
  if (PLAIN_PATH.test(glob) && !DOT_SEGMENT.test(glob)) return { test: (path) => path === glob, base: glob };
  if (glob === '**') return { test: (path) => !hasDotSegment(path, 0), base: '', directoryDecided: 0 };
  if (glob.endsWith('/**')) {
    const dir = glob.slice(0, -3);
    if (!PLAIN_PATH.test(dir) || DOT_SEGMENT.test(dir)) return undefined;
    const prefix = `${dir}/`;
    return {
      test: (path) => (path === dir || path.startsWith(prefix)) && !hasDotSegment(path, dir.length),
      base: dir,
      directoryDecided: dir.split('/').length,
    };
  }
  if (glob.startsWith('**/*')) {
    const ending = glob.slice(4);
    if (!PLAIN_EXTENSION.test(ending)) return undefined;
    return {
      test: (path) => {
        if (hasDotSegment(path, 0)) return false;
        const end = path.endsWith('/') ? path.length - 1 : path.length;
        const start = path.lastIndexOf('/', end - 1) + 1;
        return end - start >= ending.length && path.startsWith(ending, end - ending.length);
      },
      base: '',
    };
  }
  return undefined;
}

/**
 * Whether `path` from `from` (0, or the index of a `/`) has a `.` or `..` segment. Most paths have no
 * `/.` at all, which says no without the regex.
 */
function hasDotSegment(path: string, from: number): boolean {
  if ((from > 0 || path.charCodeAt(0) !== 46) && path.indexOf('/.', from) < 0) return false;
  return DOT_SEGMENT.test(from > 0 ? path.slice(from) : path);
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
    for (let index = 0; index < steps.length; index++) {
      const step = steps[index] as (typeof steps)[number];
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
        const names = step.extractor?.names ?? [];
        for (let i = 0; i < names.length; i++) values[names[i] as string] = found[i + 1] as string;
      }
      start = end + 1;
    }
    // `**` takes anything below without a `.` or `..` segment, and the directory itself when it ends in
    // plain text.
    if (start > path.length) return endsPlain ? values : undefined;
    return hasDotSegment(path, start - 1) ? undefined : values;
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

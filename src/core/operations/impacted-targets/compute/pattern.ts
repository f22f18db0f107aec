// One path glob of a targets config, compiled once. Globs are picomatch's (`*` stays inside one path
// segment, `**` crosses them, braces expand, case-sensitive, dotfiles match like any file), plus named
// captures: `{name}` in a segment matches one or more characters of that segment (any character a file
// name may hold, a newline too) and gives them to the rule's targets (`services/{name}/**` ->
// `svc:{name}`). The commonest globs are answered with string operations; every other one by glob.ts,
// which matches in linear time whatever the glob and the path (no backtracking regular expression).
import { GlobError, compileGlob, type Glob } from '../../../glob.js';

/** `{name}`: a capture, told apart from a brace list (`{a,b}`) or a range (`{1..3}`) by its spelling. */
const CAPTURE = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
const GLOB_CHARS = /[*?[\]{}()!+@]/;

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
  const segments = source.split('/');
  const captures: string[] = [];
  segments.forEach((segment, index) => {
    const names = [...segment.matchAll(CAPTURE)].map((m) => m[1] as string);
    if (names.length === 0) return;
    if (segments.slice(0, index).some((s) => s.includes('**'))) {
      throw new PatternError(
        `"${source}": a capture must come before any "**", so that it always names the same path segment`,
      );
    }
    if (GLOB_CHARS.test(segment.replace(CAPTURE, ''))) {
      throw new PatternError(
        `"${source}": the segment "${segment}" mixes a capture with other wildcards; a capture's segment may hold only plain text besides its captures`,
      );
    }
    for (const name of names) {
      if (captures.includes(name)) throw new PatternError(`"${source}" captures {${name}} twice`);
      captures.push(name);
    }
  });

  const plain = captures.length === 0 ? plainTest(source) : undefined;
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
  let glob: Glob;
  try {
    glob = compileGlob(source);
  } catch (error) {
    if (error instanceof GlobError) throw new PatternError(error.message);
    throw error;
  }
  const { base, directoryDecided } = glob;
  if (captures.length === 0) {
    return {
      source,
      captures,
      base,
      directoryDecided,
      match: (path) => (glob.match(path) ? NO_CAPTURES : undefined),
    };
  }
  return { source, captures, base, directoryDecided, match: (path) => glob.match(path) };
}

/** What a pattern without captures gives on a match: shared, as nothing writes to it. */
const NO_CAPTURES: Record<string, string> = Object.freeze({});

/** Path text that means itself in a glob: no wildcard, escape, empty or `.`/`..` segment, no end slash. */
const PLAIN_PATH = /^[\w.-]+(?:\/[\w.-]+)*$/;
// `.md`, `.d.ts`: picomatch writes a glob `**/*.ext` (only with the dot) as a name ending so, one end
// slash allowed, in any directory.
const PLAIN_EXTENSION = /^\.[\w.-]+$/;
/** A `.` or `..` segment: no wildcard of picomatch's matches one, even with `dot`. */
const DOT_SEGMENT = /(?:^|\/)\.\.?(?:\/|$)/;

// The commonest globs tested with string operations: hundreds of rules such as `services/api/**` cost
// more to compile than to run. Each one answers exactly as glob.ts and picomatch do (tests check them
// against both); anything else goes to glob.ts.
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

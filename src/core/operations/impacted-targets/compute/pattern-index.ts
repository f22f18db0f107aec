// Patterns indexed by the directory they lie in, so that a path is tested only against patterns whose
// base is one of its ancestors (or the path itself): with hundreds of rules, a file meets a handful.
// Candidates come back in the order the patterns were added.
import type { PathPattern } from './pattern.js';

export interface PatternMatch<T> {
  value: T;
  pattern: PathPattern;
  captures: Record<string, string>;
}

/** Whether the value found for a path may be taken (a rule whose exclude holds the path may not). */
export type Accept<T> = (value: T, path: string) => boolean;

interface IndexEntry<T> {
  order: number;
  pattern: PathPattern;
  value: T;
}

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
  first(path: string, accept?: Accept<T>): PatternMatch<T> | undefined {
    return this.search(path, accept, 0).found;
  }

  /**
   * `first` for paths in sorted order, where a directory's files come together. The answer for a path is
   * given again to the next paths of its directory when only the directory decided it: every pattern
   * tested says so (`services/{name}/**` does, `*.md` does not), and no pattern lies at the path itself.
   */
  matcher(): (path: string) => PatternMatch<T> | undefined {
    let directory: string | undefined;
    let segments = 0;
    let kept: PatternMatch<T> | undefined;
    return (path) => {
      const slash = path.lastIndexOf('/');
      const here = slash > 0 && isPlainName(path, slash + 1) ? path.slice(0, slash) : undefined;
      const atPath = (depth: number) => depth < this.deepestBase && this.byBase.has(path);
      if (here !== undefined && here === directory && !atPath(segments)) return kept;
      const depth = countSlashes(path);
      const { found, decided } = this.search(path, undefined, depth);
      if (here !== undefined && decided && !atPath(depth)) {
        directory = here;
        segments = depth;
        kept = found;
      }
      return found;
    };
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

  /**
   * The first accepted match; `decided` says whether the path's directory (`depth` segments) decided it
   * alone: every pattern tested is decided by such a directory, and `accept` was not asked.
   */
  private search(
    path: string,
    accept: Accept<T> | undefined,
    depth: number,
  ): { found: PatternMatch<T> | undefined; decided: boolean } {
    let best: IndexEntry<T> | undefined;
    let bestCaptures: Record<string, string> | undefined;
    let decided = !accept;
    const lists = this.candidateLists(path);
    // Any order of the lists finds the same first match. The deepest first: a catch-all such as `**`
    // usually comes last, and is then passed over once a closer pattern before it has matched.
    for (let list = lists.length - 1; list >= 0; list--) {
      // Within a list the order only grows: its first accepted match is the best it has.
      for (const candidate of lists[list] as IndexEntry<T>[]) {
        if (best && candidate.order > best.order) break;
        const { directoryDecided } = candidate.pattern;
        if (directoryDecided === undefined || directoryDecided > depth) decided = false;
        const captures = candidate.pattern.match(path);
        if (captures && (!accept || accept(candidate.value, path))) {
          best = candidate;
          bestCaptures = captures;
          break;
        }
      }
    }
    const found = best && {
      value: best.value,
      pattern: best.pattern,
      captures: bestCaptures as Record<string, string>,
    };
    return { found, decided };
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

/** A last segment from `start` that is not empty, `.` or `..`. */
function isPlainName(path: string, start: number): boolean {
  const length = path.length - start;
  if (length === 0) return false;
  if (length > 2 || path.charCodeAt(start) !== 46) return true;
  return length === 2 && path.charCodeAt(start + 1) !== 46;
}

function countSlashes(path: string): number {
  let count = 0;
  for (let slash = path.indexOf('/'); slash >= 0; slash = path.indexOf('/', slash + 1)) count++;
  return count;
}

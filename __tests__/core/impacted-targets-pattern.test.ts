// Globs of a targets config answer exactly as picomatch does, whichever way they are tested: the
// commonest shapes (a plain path, `dir/**`, `**/*.ext`, `**`, `dir/{name}/**`) by string operations, the
// rest by glob.ts's matcher; a capture takes what picomatch's `*` in its place takes. Checked over
// generated paths full of the characters that make a difference: dots (`.` and `..` segments, dotfiles)
// and wildcards.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import picomatch from 'picomatch';
import { compilePattern } from '../../src/core/operations/impacted-targets/compute/pattern.js';

const piece = fc.constantFrom(
  'a',
  'b',
  'svc',
  '.',
  '..',
  '.md',
  'x.md',
  'md',
  'x.d.ts',
  '.git',
  'a.b',
  'a.',
  '-',
  '_',
  '*',
  'pre-a',
  'pre-',
  'a-post',
);
// Paths as a repository lists them: git stores no empty segment, so none starts or ends with a slash or
// holds two in a row (picomatch lets a `*` take an empty segment in `a/*/b` but not in `a/*`; that is its
// own, and not ours to copy).
const generatedPath = fc.array(piece, { minLength: 1, maxLength: 6 }).map((parts) => parts.join('/'));

const plainShapes = [
  'a',
  'a/b',
  'x.md',
  '.github/CODEOWNERS',
  'a/**',
  'a/b/**',
  'a.b/**',
  '.git/**',
  '**',
  '**/*.md',
  '**/*.b',
  '**/*.d.ts',
  '**/*.',
];
// Near misses that take glob.ts's matcher: wildcards inside, empty or dot segments, an end slash.
const regexShapes = [
  'a/*',
  'a/*/b',
  'a/**/b',
  '**/a',
  '*.md',
  'a//b/**',
  'a/../b/**',
  'a/',
  '{a,b}/**',
  '**/*md',
  '**/*-',
];

// Captures matched segment by segment (`dir/{name}/**`), and near misses that take the matcher.
const captureShapes = [
  'a/{x}/**',
  '{x}/**',
  'a/{x}/b/**',
  'a/pre-{x}/**',
  'a/{x}-post/**',
  '{x}/{y}/**',
  'a/{x}',
  'a/{x}.md/**',
  'a/{x}/*.md',
  '.git/{x}/**',
];

/** What picomatch says, with each capture read from the group of the `*` that stands in its place. */
function picomatchCaptures(glob: string, path: string): Record<string, string> | undefined {
  const names = [...glob.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
  const regex = picomatch.makeRe(glob.replace(/\{\w+\}/g, '*'), { dot: true, windows: false, capture: true });
  const found = regex.exec(path);
  if (!found) return undefined;
  const values: Record<string, string> = {};
  for (const [i, name] of names.entries()) {
    const value = found[i + 1];
    if (!value) return undefined;
    values[name] = value;
  }
  return values;
}

describe('compiled globs', () => {
  it.each(captureShapes)('"%s" matches and captures what picomatch does', (glob) => {
    const pattern = compilePattern(glob);
    fc.assert(
      fc.property(generatedPath, (path) => {
        expect(pattern.match(path)).toEqual(picomatchCaptures(glob, path));
      }),
      { numRuns: 400 },
    );
  });

  it.each([...plainShapes, ...regexShapes])('"%s" matches what picomatch matches', (glob) => {
    const pattern = compilePattern(glob);
    const regex = picomatch.makeRe(glob, { dot: true, windows: false });
    fc.assert(
      fc.property(generatedPath, (path) => {
        expect(pattern.match(path) !== undefined).toBe(regex.test(path));
      }),
      { numRuns: 400 },
    );
  });

  it('captures what picomatch does where a capture ends its directory', () => {
    const cases: [string, string, Record<string, string> | undefined][] = [
      ['a/{x}/**', 'a/b', undefined],
      ['a/{x}-post/**', 'a/b-post', { x: 'b' }],
      ['a/pre-{x}/**', 'a/pre-b', undefined],
      ['a/{x}/b/**', 'a/c/b', { x: 'c' }],
      ['{x}/**', '../b', undefined],
    ];
    for (const [glob, path, expected] of cases) {
      expect(picomatchCaptures(glob, path)).toEqual(expected);
      expect(compilePattern(glob).match(path)).toEqual(expected);
    }
  });

  it('agrees with picomatch on paths that differ from the glob by one segment', () => {
    const cases: [string, string, boolean][] = [
      ['a/**', 'a', true],
      ['a/**', 'a/', true],
      ['a/**', 'ab/c', false],
      ['a/**', 'a/..', false],
      ['a/**', 'a/..x', true],
      ['a/**', 'a/./b', false],
      ['**/*.md', '.md', true],
      ['**/*.md', 'docs/x.md/', true],
      ['**/*.md', 'docs/../x.md', false],
      ['**/*.md', 'docs/x.mdx', false],
      ['**', '', true],
      ['**', 'a/../b', false],
      ['x.md', 'x.md/', false],
    ];
    for (const [glob, path, expected] of cases) {
      expect(picomatch.makeRe(glob, { dot: true, windows: false }).test(path)).toBe(expected);
      expect(compilePattern(glob).match(path) !== undefined).toBe(expected);
    }
  });
});

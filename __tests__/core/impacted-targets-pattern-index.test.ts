// The pattern index's matcher for sorted paths, which gives a directory's answer again to the next files
// of that directory when the directory alone decides it, always answers as a fresh search would: over
// generated globs (directory trees, captures, file names, exact paths, brace lists) and paths with `.`
// and `..` segments, empty segments, files named like directories and a leading slash.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { compilePattern } from '../../src/core/operations/impacted-targets/compute/pattern.js';
import { PatternIndex } from '../../src/core/operations/impacted-targets/compute/pattern-index.js';

// Few names, so that a directory's files, and files named like a pattern's directory, come together.
const name = fc.constantFrom('a', 'b', 'src', 'x.md', 'svc-1', '.', '..', '');
const path = fc
  .tuple(
    fc.oneof({ arbitrary: fc.constant(false), weight: 9 }, { arbitrary: fc.constant(true), weight: 1 }),
    fc.array(name, { minLength: 1, maxLength: 3 }),
  )
  .map(([leadingSlash, parts]) => `${leadingSlash ? '/' : ''}${parts.join('/')}`);
const glob = fc.constantFrom(
  '**',
  'a/**',
  'a/b/**',
  'src/**',
  'a/{name}/**',
  '{top}/src/**',
  'a/svc-{n}/**',
  '**/*.md',
  'a/b',
  'a/x.md',
  'src',
  '{a,b}/**',
  'a/*/src/**',
  'b/**/x.md',
);

describe('PatternIndex.matcher', () => {
  it('answers every path of a sorted list as first() does', () => {
    fc.assert(
      fc.property(
        fc.array(glob, { minLength: 1, maxLength: 6 }),
        fc.array(path, { minLength: 20, maxLength: 60 }),
        (globs, paths) => {
          const index = new PatternIndex<number>();
          globs.forEach((source, i) => index.add(compilePattern(source), i));
          const matcher = index.matcher();
          for (const file of [...paths].sort()) {
            const fresh = index.first(file);
            const found = matcher(file);
            expect(found && { value: found.value, captures: { ...found.captures } }).toEqual(
              fresh && { value: fresh.value, captures: { ...fresh.captures } },
            );
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});

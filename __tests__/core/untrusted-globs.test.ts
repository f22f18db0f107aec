// Globs and captures a pull request's author writes (issue 25, rows 4-6): answered in time proportional
// to the glob's length times the path's, whatever either holds. Against picomatch (dot: true) on ordinary
// globs and paths, generated; pathological globs and names that backtracking regular expressions never
// finish with are answered here (within jest's timeout: no timing is asserted), and a capture takes any
// character a file name may hold.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import picomatch from 'picomatch';
import { lintConfig } from '../../src/core/operations/impacted-targets/compute/lint.js';
import { parseTargetsConfig } from '../../src/core/operations/impacted-targets/compute/config.js';
import { impactOf } from '../../src/core/operations/impacted-targets/compute/impact.js';
import { compileGlob } from '../../src/core/glob.js';
import { compilePattern } from '../../src/core/operations/impacted-targets/compute/pattern.js';

const name = fc.constantFrom('a', 'b', 'ab', 'src', 'x.md', 'x.ts', '.git', '.env', 'a-b', 'lib_1', 'A');
const wildSegment = fc.constantFrom(
  '*',
  '*.md',
  'a*',
  '*b',
  'a*b',
  '?',
  '?b',
  'a?',
  '[ab]',
  '[a-c]*',
  '[^a]*',
  '*.{md,ts}',
  '{a,b}',
  '{a,src}*',
  'x.{md,ts}',
  '*[0-9]',
);
const segment = fc.oneof(name, wildSegment, fc.constant('**'));
const ordinaryGlob = fc
  .array(segment, { minLength: 1, maxLength: 4 })
  .map((segments) => segments.join('/'))
  .filter((glob) => !glob.startsWith('!'));
const ordinaryPath = fc.array(name, { minLength: 1, maxLength: 5 }).map((parts) => parts.join('/'));

describe('globs', () => {
  it('answer as picomatch does on ordinary globs and paths', () => {
    fc.assert(
      fc.property(ordinaryGlob, ordinaryPath, (glob, path) => {
        const expected = picomatch.makeRe(glob, { dot: true, windows: false }).test(path);
        expect({ glob, path, matches: compileGlob(glob).match(path) !== undefined }).toEqual({
          glob,
          path,
          matches: expected,
        });
      }),
      { numRuns: 3000 },
    );
  });

  it('row 5: answer `**/*a*a*a*a*a*a*a*a*a*a*a*a*b` against a 2,000-character name', () => {
    const glob = compilePattern('**/*a*a*a*a*a*a*a*a*a*a*a*a*b');
    expect(glob.match(`dir/${'a'.repeat(2000)}`)).toBeUndefined();
    expect(glob.match(`dir/${'a'.repeat(2000)}b`)).toEqual({});
  });

  it('row 5: answer many stars and globstars against a deep path of long names', () => {
    const glob = compilePattern('**/*a*a*a*a*a*/**/*a*a*a*a*a*a*c/**/*.md');
    const path = Array.from({ length: 200 }, () => 'a'.repeat(50)).join('/');
    expect(glob.match(path)).toBeUndefined();
  });

  it('row 4: captures `s/{a}{b}{c}{d}{e}{f}{g}{h}z/**` against one 120-character segment', () => {
    const glob = compilePattern('s/{a}{b}{c}{d}{e}{f}{g}{h}z/**');
    expect(glob.match(`s/${'y'.repeat(120)}/file`)).toBeUndefined();
    // Each capture as short as it can be, the last one taking the rest, as a lazy (.+?) would.
    expect(glob.match(`s/${'y'.repeat(120)}z/file`)).toEqual({
      a: 'y',
      b: 'y',
      c: 'y',
      d: 'y',
      e: 'y',
      f: 'y',
      g: 'y',
      h: 'y'.repeat(113),
    });
  });

  it('row 6: a capture takes a newline, as a file name may hold one', () => {
    const glob = compilePattern('services/{name}/**');
    expect(glob.match('services/a\nb/main.ts')).toEqual({ name: 'a\nb' });
    expect(compilePattern('services/{name}-svc/**').match('services/a\r\nb-svc/x')).toEqual({
      name: 'a\r\nb',
    });
  });

  it('row 6: a directory with a newline in its name is its own target, not ALL', async () => {
    const config = await parseTargetsConfig(
      'rules:\n  - match: "services/{name}/**"\n    targets: ["svc:{name}"]\n',
      'c.yml',
    );
    const impact = impactOf(config, [{ path: 'services/a\nb/main.ts', deleted: false }], {
      isMergeQueueTestRun: false,
    });
    expect(impact.all).toBeUndefined();
    expect([...impact.targets.keys()]).toEqual(['svc:a\nb']);
  });

  it('row 5: lint-impacted-targets-config answers a pathological glob against a long tracked name', async () => {
    const config = await parseTargetsConfig(
      'rules:\n  - match: "**/*a*a*a*a*a*a*a*a*a*a*a*a*b"\n    targets: [t]\n',
      'c.yml',
    );
    const report = lintConfig(config, [`x/${'a'.repeat(200)}`, `y/${'a'.repeat(12)}b`]);
    expect(report.unclaimed).toEqual([`x/${'a'.repeat(200)}`]);
    expect(report.unused).toEqual([]);
  });

  it('refuses brace lists that multiply past a bound, in one line', () => {
    expect(() => compilePattern('{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}/**')).toThrow(
      'expands to more than 256 globs',
    );
  });
});

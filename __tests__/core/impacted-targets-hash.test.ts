// The hash that finds duplicate impacted targets: the scan of a JSON string and the hash of a byte range
// agree on every target wherever it lies in the file (duplicate detection rests on it), and the names
// users' lists are made of (long shared prefixes, sequential numbers) do not collide.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { hashBytes, PlainJsonStrings } from '../../src/core/operations/impacted-targets/target-hash.js';

/** A target a JSON file spells without escapes: any text without quotes, backslashes or control characters. */
const plainTarget = fc
  .string({ unit: 'grapheme', maxLength: 80 })
  .map((text) => [...text].filter((c) => c !== '"' && c !== '\\' && c >= ' ').join(''));

describe('the impacted-targets hash', () => {
  it('gives a JSON string scanned in a file the hash of its bytes, at any offset', () => {
    fc.assert(
      fc.property(plainTarget, fc.nat(16), fc.string({ maxLength: 8 }), (target, offset, after) => {
        const file = Buffer.from(`${' '.repeat(offset)}"${target}"${after}`);
        const strings = new PlainJsonStrings(file);
        expect(strings.scan(offset)).toBe(true);
        const start = offset + 1;
        expect(strings.end).toBe(start + Buffer.byteLength(target));
        expect(strings.hash).toBe(hashBytes(file, start, strings.end));
        // The same target elsewhere, in another buffer: the same hash.
        const alone = Buffer.from(target);
        expect(strings.hash).toBe(hashBytes(alone, 0, alone.length));
      }),
      { numRuns: 500 },
    );
  });

  it('leaves strings with an escape, a control character or no closing quote to the slow path', () => {
    for (const text of ['"a\\"b"', '"a\\nb"', '"a\tb"', '"unterminated']) {
      expect(new PlainJsonStrings(Buffer.from(text)).scan(0)).toBe(false);
    }
  });

  it('tells apart Bazel labels, package names and paths that differ only in their numbers', () => {
    const shapes = [
      (i: number) => `//services/component-${String(i).padStart(7, '0')}/pkg:library_target_name`,
      (i: number) => `@scope/package-name-${String(i).padStart(6, '0')}`,
      (i: number) =>
        `src/modules/feature-${String(i >>> 6).padStart(5, '0')}/components/widget_${i & 63}.tsx`,
    ];
    const count = 100_000;
    for (const shape of shapes) {
      const hashes = new Set<number>();
      for (let i = 0; i < count; i++) {
        const bytes = Buffer.from(shape(i));
        hashes.add(hashBytes(bytes, 0, bytes.length));
      }
      // 100,000 random 32-bit values share one about once; a weak hash on such names, thousands.
      expect(count - hashes.size).toBeLessThan(20);
    }
  });
});

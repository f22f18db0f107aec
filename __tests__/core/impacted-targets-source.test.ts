// Reading impacted targets from the file or inline input: every format, and one clear line for every
// kind of bad file.
import { afterAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  parseInlineTargets,
  readImpactedTargets,
} from '../../src/core/operations/impacted-targets/source.js';
import type { ImpactedTargetsSettings } from '../../src/core/operations/impacted-targets/inputs.js';
import { hashBytes } from '../../src/core/operations/impacted-targets/target-hash.js';
import { prepareFrom } from '../helpers/prepare.js';

const dir = mkdtempSync(join(tmpdir(), 'mqa-targets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
function file(content: string | Buffer): string {
  const path = join(dir, `targets-${++files}`);
  writeFileSync(path, content);
  return path;
}

const fromFile = (path: string) => source({ file: path });
const inline = (text: string) => parseInlineTargets(text);

function source(given: Partial<ImpactedTargetsSettings>) {
  return readImpactedTargets(
    { impactsAll: false, onMissingToken: 'fail', ...given },
    { workingDirectory: dir },
  );
}

/** The targets as a plain array, or 'ALL'. */
type Targets = Awaited<ReturnType<typeof source>>;

function list(read: Targets): string[] | 'ALL' {
  return read === 'ALL' ? 'ALL' : read.first(read.size);
}

/** The JSON array that would be sent, assembled from the chunks the upload streams. */
function sentJson(read: Targets, chunkBytes?: number, sharedBytes?: number): string {
  if (read === 'ALL') throw new Error('expected a list');
  return Buffer.concat([...read.jsonArrayChunks(chunkBytes, sharedBytes)]).toString('utf8');
}

async function fileErrorOf(read: () => Promise<unknown>): Promise<Error> {
  try {
    await read();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error');
}

function errorOf(read: () => unknown): Error {
  try {
    read();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error');
}

/** One line that names the input, says what is wrong and what to do. */
function expectOneClearLine(error: Error, input: string, problem: RegExp): void {
  expect(error.message).not.toContain('\n');
  expect(error.message.startsWith(`Input "${input}": `)).toBe(true);
  expect(error.message).toMatch(problem);
}

describe('formats', () => {
  it('reads a JSON array of strings in order', async () => {
    const read = await fromFile(file('["//app:server", "//lib:util", "//docs"]'));
    expect(list(read)).toEqual(['//app:server', '//lib:util', '//docs']);
    expect(sentJson(read)).toBe('["//app:server","//lib:util","//docs"]');
  });

  it('reads one target per line', async () => {
    expect(list(await fromFile(file('//app:server\n//lib:util\n//docs\n')))).toEqual([
      '//app:server',
      '//lib:util',
      '//docs',
    ]);
  });

  it('drops blank lines, surrounding whitespace, Windows line ends and a byte order mark', async () => {
    const read = await fromFile(file('\ufeff\r\n  //app:server \r\n\r\n\t//lib:util\t\r\n   \r\n'));
    expect(list(read)).toEqual(['//app:server', '//lib:util']);
  });

  it('drops whitespace around and blank strings inside a JSON array spread over lines', async () => {
    const read = await fromFile(file('\ufeff[\n  " //app:server ",\n  "",\n  "   ",\n  "//lib:util"\n]\n'));
    expect(list(read)).toEqual(['//app:server', '//lib:util']);
  });

  it('sends a compact array as it was written, in pieces of any size, without its duplicates', async () => {
    const targets = Array.from({ length: 300 }, (_, i) => `//pkg/${i % 7 === 3 ? 'dup' : i}:lib`);
    const long = `//long:${'x'.repeat(70_000)}`;
    targets.splice(150, 0, 'tab\there', ' spaced ', long, '//long:x', long);
    const expected = JSON.stringify([...new Set(targets.map((t) => t.trim()))]);
    const read = await source({ file: file(JSON.stringify(targets)) });
    for (const [chunk, shared] of [
      [64, 1],
      [64, 500],
      [1024, 4096],
      [65536, 1048576],
    ] as const) {
      expect(sentJson(read, chunk, shared)).toBe(expected);
    }
  });

  it('removes duplicates, keeping the first of each', async () => {
    expect(list(await fromFile(file('b\na\nb\nc\na\n')))).toEqual(['b', 'a', 'c']);
    expect(list(await fromFile(file('["b", "a", " b", "c", "a"]')))).toEqual(['b', 'a', 'c']);
  });

  it('removes duplicates among targets made to share a hash, in both formats', async () => {
    // Without a seeded fallback each of these targets would be compared with all the others before it.
    const colliding = targetsSharingAHash(12);
    expect(new Set(colliding).size).toBe(4096);
    expect(new Set(colliding.map((target) => hashBytes(Buffer.from(target), 0, target.length))).size).toBe(1);
    const withRepeats = [...colliding, ...colliding.slice(0, 1000), ...colliding.slice(-1000)];
    for (const content of [JSON.stringify(withRepeats), withRepeats.join('\n')]) {
      const read = await fromFile(file(content));
      expect(read === 'ALL' ? read : read.size).toBe(colliding.length);
      expect(list(read)).toEqual(colliding);
    }
  }, 60_000);

  it('treats two spellings of one JSON string as the same target', async () => {
    const read = await fromFile(file('["ab", "\\u0061b", "a\\/b", "a/b"]'));
    expect(list(read)).toEqual(['ab', 'a/b']);
  });

  it('keeps non-ASCII targets and escapes quotes, backslashes and tabs when sending', async () => {
    const read = await fromFile(file('//café:naïve\n//emoji:🚀\nsay "hi"\\now\nin\tside\n'));
    expect(list(read)).toEqual(['//café:naïve', '//emoji:🚀', 'say "hi"\\now', 'in\tside']);
    expect(JSON.parse(sentJson(read))).toEqual(list(read));
  });

  it('trims Unicode spaces at either end as JavaScript does', async () => {
    expect(list(inline('\u00a0//app\u3000\n\u2028'))).toEqual(['//app']);
  });

  it('reads an empty file, an empty array and blank lines as "impacts nothing"', async () => {
    expect(list(await fromFile(file('')))).toEqual([]);
    expect(list(await fromFile(file('  \n\n  ')))).toEqual([]);
    expect(list(inline('[]'))).toEqual([]);
    expect(sentJson(inline('[ ]'))).toBe('[]');
  });

  it('reads ALL, inline or in a file, as every target', async () => {
    expect(inline('ALL')).toBe('ALL');
    expect(inline('  ALL\n')).toBe('ALL');
    expect(await fromFile(file('"ALL"\n'))).toBe('ALL');
    expect(await source({ impactsAll: true })).toBe('ALL');
  });

  it('reads ALL among other lines as a target named ALL', async () => {
    expect(list(inline('ALL\n//app'))).toEqual(['ALL', '//app']);
    expect(list(inline('["ALL"]'))).toEqual(['ALL']);
  });

  it('reads inline targets in both formats', async () => {
    expect(list(inline('//a\n//b'))).toEqual(['//a', '//b']);
    expect(list(inline('["//a", "//b"]'))).toEqual(['//a', '//b']);
  });

  it('resolves a relative path against the working directory', async () => {
    const path = file('//app');
    expect(list(await source({ file: path.slice(dir.length + 1) }))).toEqual(['//app']);
  });

  it('reads - from the standard input the host passes on, and names the input where there is none', async () => {
    const settings = { impactsAll: false, onMissingToken: 'fail', file: '-' } as const;
    const piped = async function* () {
      yield '//a\n';
      yield Buffer.from('//b\n');
    };
    expect(list(await readImpactedTargets(settings, { workingDirectory: dir, stdin: piped() }))).toEqual([
      '//a',
      '//b',
    ]);
    await expect(readImpactedTargets(settings, { workingDirectory: dir })).rejects.toThrow(
      'Input "impacted-targets-file": is "-" (standard input), which this runner does not pass on. Give a file path.',
    );
  });

  it('splits the list into chunks without losing a byte, even around targets longer than a chunk', async () => {
    const targets = ['x'.repeat(40), 'short', 'y'.repeat(100), 'z'];
    const read = inline(JSON.stringify(targets));
    for (const chunk of [1, 8, 16, 64, 1024]) {
      for (const shared of [1, 50, 1024]) expect(sentJson(read, chunk, shared)).toBe(JSON.stringify(targets));
    }
    expect(read === 'ALL' ? 0 : read.jsonArrayByteLength()).toBe(JSON.stringify(targets).length);
  });
});

describe('agrees with JSON.parse and String.prototype.trim', () => {
  const expected = (targets: string[]) => [...new Set(targets.map((t) => t.trim()).filter(Boolean))];

  it('for any JSON array of strings', async () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string({ unit: 'binary' }), fc.constantFrom('a', ' a', 'b ', '', '\u00a0'))),
        fc.constantFrom(undefined, 2),
        fc.integer({ min: 1, max: 64 }),
        fc.integer({ min: 1, max: 64 }),
        (targets, indent, chunkBytes, sharedBytes) => {
          const read = inline(JSON.stringify(targets, null, indent));
          expect(list(read)).toEqual(expected(targets));
          expect(sentJson(read, chunkBytes, sharedBytes)).toBe(JSON.stringify(expected(targets)));
          if (read !== 'ALL') expect(read.jsonArrayByteLength()).toBe(Buffer.byteLength(sentJson(read)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('for any text of one target per line', async () => {
    // Besides any text, the ends a target's length is found from: spaces, a tab or CR, a quote.
    const line = fc
      .oneof(
        fc.string({ unit: 'grapheme' }),
        fc.constantFrom('a', 'a ', ' a  ', 'a \t', 'a\r', 'a \r', '"a"', '"a "', 'a"', '\t', ' '),
      )
      .map((text) => text.replace(/[\n\0]/g, ''))
      .filter((text) => !/^\s*[[{]/.test(text) && text.trim() !== 'ALL' && text.trim() !== '"ALL"');
    fc.assert(
      fc.property(fc.array(line, { minLength: 1 }), (lines) => {
        const text = lines.join('\n');
        fc.pre(!/^[\s\ufeff]*[[{]/.test(text));
        const read = inline(text);
        expect(list(read)).toEqual(expected(lines));
        expect(JSON.parse(sentJson(read))).toEqual(expected(lines));
      }),
      { numRuns: 300 },
    );
  });
});

describe('bad input: one line that names the input, what is wrong and what to do', () => {
  it('a missing file', async () => {
    const error = await fileErrorOf(() => fromFile(join(dir, 'no-such-file.json')));
    expectOneClearLine(error, 'impacted-targets-file', /".*no-such-file\.json".* does not exist/);
    expect(error.message).toMatch(/download the artifact/);
  });

  it('a path through a file, as if it were a directory', async () => {
    const error = await fileErrorOf(() => fromFile(join(file('x'), 'targets.json')));
    expectOneClearLine(error, 'impacted-targets-file', /does not exist/);
  });

  it('a directory', async () => {
    const folder = join(dir, 'a-directory');
    mkdirSync(folder);
    const error = await fileErrorOf(() => fromFile(folder));
    expectOneClearLine(
      error,
      'impacted-targets-file',
      /is a directory, not a regular file\. Give the path of a regular file/,
    );
  });

  it('an empty path', async () => {
    const error = errorOf(() =>
      prepareFrom({ operation: 'set-impacted-targets', 'impacted-targets-file': '  ' }),
    );
    expectOneClearLine(
      error,
      'impacted-targets-file',
      /is empty, and so are impacted-targets, impacts-all and targets-config/,
    );
    expect(error.message).toMatch(/check that the expression giving it is not empty/);
  });

  it('two sources at once', async () => {
    const error = errorOf(() =>
      prepareFrom({
        operation: 'set-impacted-targets',
        'impacted-targets-file': 'a.json',
        'impacted-targets': 'ALL',
      }),
    );
    expect(error.message).toBe(
      'Input "impacted-targets-file" and "impacted-targets": are both set. Give exactly one source of targets: impacted-targets-file (a path), impacted-targets (inline, or ALL), impacts-all: true, or targets-config (computed from the changed files).',
    );
  });

  it('invalid JSON, in a file and inline', async () => {
    expectOneClearLine(
      await fileErrorOf(() => fromFile(file('[\n  "//a",\n  "//b",\n]\n'))),
      'impacted-targets-file',
      /is not valid JSON \(.+\)\. Write a JSON array of strings, or one target per line\.$/,
    );
    const invalid = [
      '[//a, //b]',
      '["//a" "//b"]',
      '["//a\\x"]',
      '["//a"',
      '["//a"] x',
      // A raw control character inside a string, with and without escapes beside it.
      '["//a\tb"]',
      '["\\u00e9\tb"]',
    ];
    for (const text of invalid) {
      expectOneClearLine(
        errorOf(() => inline(text)),
        'impacted-targets',
        /is not valid JSON/,
      );
    }
  });

  it('entries that are not strings', async () => {
    const path = file('["//a", 42, "//b"]');
    expect((await fileErrorOf(() => fromFile(path))).message).toBe(
      `Input "impacted-targets-file": in "${path}", entry 2 of the JSON array is the number 42, not a string. Give every target as a string, e.g. ["//app:server", "//lib:util"].`,
    );
    expectOneClearLine(
      errorOf(() => inline('[null]')),
      'impacted-targets',
      /entry 1 of the JSON array is null/,
    );
    expectOneClearLine(
      errorOf(() => inline('["a", {"name": "b"}]')),
      'impacted-targets',
      /entry 2 .* is an object/,
    );
    expectOneClearLine(
      errorOf(() => inline('[["a"]]')),
      'impacted-targets',
      /entry 1 .* is an array/,
    );
    expectOneClearLine(
      errorOf(() => inline('["a", true]')),
      'impacted-targets',
      /is the boolean true/,
    );
  });

  it('a JSON object instead of an array', async () => {
    expectOneClearLine(
      await fileErrorOf(() => fromFile(file('{"targets": ["//a"]}'))),
      'impacted-targets-file',
      /holds a JSON object\. Write a JSON array of strings, or one target per line, or ALL\./,
    );
  });

  it('binary content', async () => {
    const error = await fileErrorOf(() =>
      fromFile(file(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x00, 0x00]))),
    );
    expectOneClearLine(error, 'impacted-targets-file', /is binary, not text \(a NUL byte at offset 6\)/);
  });

  it('text that is not UTF-8', async () => {
    const latin1 = Buffer.concat([Buffer.from('//café\n', 'utf8'), Buffer.from('//naïve\n', 'latin1')]);
    const error = await fileErrorOf(() => fromFile(file(latin1)));
    expectOneClearLine(
      error,
      'impacted-targets-file',
      /is not UTF-8 text \(an invalid byte sequence at offset 12\)/,
    );
  });

  it('UTF-16 text, as Windows PowerShell writes it', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('//app\r\n', 'utf16le')]);
    const error = await fileErrorOf(() => fromFile(file(utf16)));
    expectOneClearLine(error, 'impacted-targets-file', /is UTF-16 text\. Save it as UTF-8 instead/);
  });
});

/**
 * 2^stages different targets of one hash, as anyone who reads the source can make them (Joux's
 * multicollision): the hash keeps 32 bits of state while it reads a target's bytes, so at each stage a
 * birthday search among 6-character blocks after the prefix so far finds two that leave the same state;
 * every choice of one block of each pair then makes the same hash.
 */
function targetsSharingAHash(stages: number): string[] {
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-';
  // Blocks that look random: counting blocks (aaaa, aaab...) share structure that makes pairs rarer.
  const blockOf = (n: number) => {
    const mixed = Math.imul(n + 1, 0x9e3779b1) ^ n;
    let block = '';
    for (let i = 0; i < 6; i++) block += alphabet[((n >>> (6 * i)) ^ (mixed >>> (5 * i))) & 63];
    return block;
  };
  let prefix = '//made:';
  const pairs: [string, string][] = [];
  const bytes = Buffer.alloc(prefix.length + 6 * stages);
  for (let stage = 0; stage < stages; stage++) {
    const at = bytes.write(prefix);
    const seen = new Map<number, string>();
    for (let n = 0; ; n++) {
      const block = blockOf(n);
      bytes.write(block, at);
      const hash = hashBytes(bytes, 0, at + 6);
      const other = seen.get(hash);
      if (other !== undefined && other !== block) {
        pairs.push([other, block]);
        prefix += block;
        break;
      }
      seen.set(hash, block);
    }
  }
  let targets = ['//made:'];
  for (const pair of pairs) targets = targets.flatMap((target) => pair.map((block) => target + block));
  return targets;
}

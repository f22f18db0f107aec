// No absolute path of one machine in anything committed (a temp folder of a past run, a home, the folder
// the project was built in): a clone anywhere else has none of them. Every tracked text file is read but
// package-lock.json (npm's, with registry URLs only). `/home/runner/` stays allowed: it is the GitHub
// runner's workspace that users' own reports name, shown in the docs as such.
import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * Not inside a longer path or word: the runner's /home/runner/work/ holds a work folder that is not ours. `[/]` where a pattern would otherwise match its own source in this file.
 */
const START = String.raw`(?<![\w.~/$-])`;
const MACHINE_PATHS: [RegExp, string][] = [
  [new RegExp(`${START}[/]work[/]`), 'the work folder'],
  [new RegExp(String.raw`${START}/tmp/[\w.]+(?:-[\w.]+)*-[A-Za-z0-9]{6}(?!\w)`), 'a temp folder of a run'],
  [new RegExp(String.raw`${START}/home/(?!runner/)[a-z_][\w.-]*`), 'a home folder'],
  [new RegExp(`${START}[/]root[/]`), "root's home"],
  [new RegExp(`${START}/Users/[A-Za-z]`), 'a macOS home'],
  [/\b[A-Za-z]:\\{1,2}Users\\/, 'a Windows home'],
];
const SKIPPED = new Set(['package-lock.json']);

/** `file:line: what (the text around it)` for each machine path in `text`. */
function machinePaths(file: string, text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, index) => {
    for (const [pattern, what] of MACHINE_PATHS) {
      const match = pattern.exec(line);
      if (match) found.push(`${file}:${index + 1}: ${what} (${line.slice(match.index, match.index + 60)})`);
    }
  });
  return found;
}

function trackedTextFiles(): { file: string; text: string }[] {
  const files = execFileSync('git', ['ls-files', '-z'], { encoding: 'utf8' }).split('\0').filter(Boolean);
  return files
    .filter((file) => !SKIPPED.has(file) && !file.split('/').includes('node_modules'))
    .flatMap((file) => {
      let bytes: Buffer;
      try {
        bytes = readFileSync(file);
      } catch {
        return []; // deleted in the working tree, or a symlink to nothing
      }
      return bytes.subarray(0, 8000).includes(0) ? [] : [{ file, text: bytes.toString('utf8') }];
    });
}

describe('machine paths', () => {
  it('are found wherever they are, and named by file and line', () => {
    // Built from parts so that this file holds none of them itself.
    const slash = (...parts: string[]) => `/${parts.join('/')}`;
    const text = [
      `see ${slash('work', 'main', 'x.ts')}`,
      `"${slash('tmp', 'mqa-bad-input-ZJs4FF', 'targets')}"`,
      `(${slash('home', 'alice', 'src')})`,
      `${slash('root', '.npm')}`,
      `${slash('Users', 'bob', 'code')}`,
      ['C:', 'Users', 'carol'].join('\\'),
      'fine: /home/runner/work/repo/repo/a.ts, /tmp/report.xml, /usr/bin/chromium, ./work/x',
    ].join('\n');
    expect(machinePaths('doc.md', text).map((found) => found.replace(/ \(.*$/, ''))).toEqual([
      'doc.md:1: the work folder',
      'doc.md:2: a temp folder of a run',
      'doc.md:3: a home folder',
      "doc.md:4: root's home",
      'doc.md:5: a macOS home',
      'doc.md:6: a Windows home',
    ]);
  });

  it('are in no tracked file', () => {
    const files = trackedTextFiles();
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap(({ file, text }) => machinePaths(file, text))).toEqual([]);
  });
});

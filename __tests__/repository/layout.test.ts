// The map of the tree in CONTRIBUTING.md is the tree: every folder at the top of the repository and of
// src/ is on it, and every path on it exists. And no page or comment cites a page of docs/ that is not
// there.
import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

const GUIDE = 'CONTRIBUTING.md';

/** The paths the map names, whole: each line's first word, under the folder its indentation nests it in. */
function mappedPaths(guide: string): string[] {
  const section = guide.split('\n## Layout\n')[1]?.split('\n## ')[0] ?? '';
  const block = section.split('```')[1] ?? '';
  const parents: { indent: number; path: string }[] = [];
  const paths: string[] = [];
  for (const line of block.split('\n').slice(1)) {
    const match = /^( *)(\S+)/.exec(line);
    if (!match) continue;
    const indent = match[1]!.length;
    while (parents.length && parents.at(-1)!.indent >= indent) parents.pop();
    const path = `${parents.at(-1)?.path ?? ''}${match[2]}`;
    paths.push(path);
    if (path.endsWith('/')) parents.push({ indent, path });
  }
  return paths;
}

function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files'], { encoding: 'utf8' }).split('\n').filter(Boolean);
}

/** The folders that hold tracked files directly under `prefix` ('' for the repository's top). */
function foldersUnder(files: readonly string[], prefix: string): string[] {
  const folders = files
    .filter((file) => file.startsWith(prefix) && file.slice(prefix.length).includes('/'))
    .map((file) => `${prefix}${file.slice(prefix.length).split('/')[0]}/`);
  return [...new Set(folders)].sort();
}

describe("CONTRIBUTING.md's map of the tree", () => {
  const mapped = mappedPaths(readFileSync(GUIDE, 'utf8'));

  it('is read as the paths it names', () => {
    expect(mapped).toContain('src/core/operations/registry.ts');
    expect(mapped).toContain('src/core/api/v2/');
    expect(mapped).toContain('emulator/');
  });

  it('names only paths that exist', () => {
    expect(mapped.filter((path) => !existsSync(path))).toEqual([]);
  });

  it('names every folder at the top of the repository and of src/', () => {
    const files = trackedFiles();
    const folders = [...foldersUnder(files, ''), ...foldersUnder(files, 'src/')];
    expect(folders.filter((folder) => !mapped.includes(folder))).toEqual([]);
  });
});

describe('pages of docs/ that pages and comments cite', () => {
  it('all exist', () => {
    const ours = trackedFiles().filter(
      (file) =>
        /\.(md|ts|mjs|js|ya?ml|sh)$/.test(file) &&
        !file.startsWith('dist/') &&
        !file.startsWith('__tests__/fixtures/') &&
        !file.endsWith('.test.ts'),
    );
    const missing = ours.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/(?<![\w/-])(?:\.\.\/)*(docs\/[\w.-]+\.md)/g)]
        .map((match) => match[1]!)
        .filter((page) => !existsSync(page))
        .map((page) => `${file} cites ${page}`),
    );
    expect([...new Set(missing)]).toEqual([]);
  });
});

// The imports of src/ run one way, at every level of the tree: inside each folder, its files and
// subfolders (each subfolder one part) import each other without a loop, types and lazy imports
// included. A loop is an import running back up: a lower part that knows a higher one (an area that
// imports the file gathering the areas' types, a client that imports the inputs that import it).
import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve('src');
const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)'(\.{1,2}\/[^']+)'/gm;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Each file of src/ and the files of src/ it imports. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(ROOT)) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(IMPORT)]
      .map((match) => resolve(dirname(file), match[1]!.replace(/\.js$/, '.ts')))
      .filter((target) => target.startsWith(ROOT));
    graph.set(relative(ROOT, file), [...new Set(targets.map((target) => relative(ROOT, target)))]);
  }
  return graph;
}

/** The loops of the graph: its strongly connected parts of more than one file (Tarjan's). */
function loops(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const part: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      part.push(member);
    } while (member !== file);
    if (part.length > 1) found.push(part.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

/** Inside `folder`: each of its parts (a file, or a subfolder taken whole) and the parts it imports. */
function partsGraph(graph: Map<string, string[]>, folder: string): Map<string, string[]> {
  const prefix = folder === '' ? '' : `${folder}/`;
  const partOf = (file: string) =>
    file.startsWith(prefix) ? file.slice(prefix.length).split('/')[0] : undefined;
  const parts = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    const from = partOf(file);
    if (from === undefined) continue;
    const edges = parts.get(from) ?? new Set<string>();
    for (const target of targets) {
      const to = partOf(target);
      if (to !== undefined && to !== from) edges.add(to);
    }
    parts.set(from, edges);
  }
  return new Map([...parts].map(([part, edges]) => [part, [...edges]]));
}

function folders(graph: Map<string, string[]>): string[] {
  const all = new Set<string>(['']);
  for (const file of graph.keys()) {
    const segments = file.split('/').slice(0, -1);
    segments.forEach((_, i) => all.add(segments.slice(0, i + 1).join('/')));
  }
  return [...all].sort();
}

describe('the import graph of src/', () => {
  it('reads the imports it checks', () => {
    const graph = importGraph();
    expect(graph.get('core/run.ts')).toContain('core/operations/registry.ts');
    expect(graph.get('core/operations/registry.ts')).toContain('core/operations/queue/admin.ts');
  });

  it('has no loop between files', () => {
    expect(loops(importGraph())).toEqual([]);
  });

  it('has no loop between the parts of any folder: no import runs back up', () => {
    const graph = importGraph();
    const found = folders(graph).flatMap((folder) =>
      loops(partsGraph(graph, folder)).map((loop) => `src/${folder}: ${loop.join(' <-> ')}`),
    );
    expect(found).toEqual([]);
  });
});

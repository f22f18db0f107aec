// yarn.lock as a graph, both formats, read line by line (one pass, no YAML parser):
// - yarn berry (2 and later, `__metadata:` first): entries keyed by their descriptors
//   (`lodash@npm:^4.17.0, lodash@npm:^4.17.21`), each with a `resolution` and `dependencies` written as
//   descriptors too; every workspace is an entry of its own (`name@workspace:<dir>`), whose dependencies
//   are its manifest's as yarn resolved them (`enableTransparentWorkspaces: false` shows there as a
//   registry copy). `__metadata.version` changes everyone's resolution.
// - yarn classic (v1, `# yarn lockfile v1`): entries keyed by `name@range`, each with a `version` and its
//   `dependencies` as name and range; workspaces are not entries, so a project's dependencies come from its
//   manifest (`manifests`).
// Peer dependencies are not followed: yarn and turbo leave them out of change propagation.
import { LockfileUnreadable, type LockfileBudget, type LockGraph, type LockNode } from './lockfile-graph.js';
import type { ManifestDependencies } from './workspace-package.js';

interface RawEntry {
  descriptors: string[];
  fields: Map<string, string>;
  dependencies: [string, string][];
}

export function yarnLockGraph(
  text: string,
  budget: LockfileBudget,
  manifests: ManifestDependencies,
): LockGraph {
  const { metadata, entries } = scanEntries(text, budget);
  return metadata ? berryGraph(metadata, entries) : classicGraph(entries, manifests);
}

function berryGraph(metadata: RawEntry, entries: RawEntry[]): LockGraph {
  const byDescriptor = new Map<string, RawEntry>();
  for (const entry of entries)
    for (const descriptor of entry.descriptors) byDescriptor.set(descriptor, entry);
  const nodes = new Map<string, LockNode>();
  const importers = new Map<string, string[]>();
  for (const entry of entries) {
    const resolution = entry.fields.get('resolution') ?? entry.descriptors[0] ?? '';
    const workspace = /^(@?[^@]+)@workspace:(.*)$/.exec(resolution);
    const deps: string[] = [];
    for (const [name, range] of entry.dependencies) {
      const target = byDescriptor.get(`${name}@${range}`);
      const id = target && (target.fields.get('resolution') ?? target.descriptors[0]);
      // Another workspace is followed by the workspace graph, not through the lockfile.
      if (id && !id.includes('@workspace:')) deps.push(id);
    }
    const name = /^(@?[^@]+)@/.exec(resolution)?.[1] ?? resolution;
    nodes.set(resolution, { name, version: resolution.slice(name.length + 1), deps });
    if (workspace) importers.set(workspace[2] === '.' ? '' : (workspace[2] as string), [resolution]);
  }
  return { nodes, importers, global: `__metadata version ${metadata.fields.get('version') ?? ''}` };
}

function classicGraph(entries: RawEntry[], manifests: ManifestDependencies): LockGraph {
  const byDescriptor = new Map<string, string>();
  const nodes = new Map<string, LockNode>();
  for (const entry of entries) {
    const first = entry.descriptors[0] ?? '';
    const name = /^(@?[^@]+)@/.exec(first)?.[1] ?? first;
    const id = `${name}@${entry.fields.get('version') ?? ''}`;
    for (const descriptor of entry.descriptors) byDescriptor.set(descriptor, id);
    nodes.set(id, { name, version: entry.fields.get('version') ?? '', deps: [] });
  }
  for (const entry of entries) {
    const id = byDescriptor.get(entry.descriptors[0] ?? '');
    const node = id === undefined ? undefined : nodes.get(id);
    if (!node) continue;
    for (const [name, range] of entry.dependencies) {
      const dep = byDescriptor.get(`${name}@${range}`);
      if (dep !== undefined) node.deps.push(dep);
    }
  }
  const importers = new Map<string, string[]>();
  for (const [dir, dependencies] of manifests) {
    const ids = dependencies.map(([name, range]) => byDescriptor.get(`${name}@${range}`));
    importers.set(
      dir,
      ids.filter((id): id is string => id !== undefined),
    );
  }
  return { nodes, importers, global: 'yarn lockfile v1' };
}

/** The lockfile's entries, each with its descriptors, its own fields and its dependencies. */
function scanEntries(text: string, budget: LockfileBudget): { metadata?: RawEntry; entries: RawEntry[] } {
  budget.spend(text.length / 16);
  const entries: RawEntry[] = [];
  let metadata: RawEntry | undefined;
  let current: RawEntry | undefined;
  let section = '';
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, text[end - 1] === '\r' ? end - 1 : end);
    start = end + 1;
    if (!line.trim() || line.startsWith('#')) continue;
    const indent = line.length - line.trimStart().length;
    if (indent === 0) {
      current = { descriptors: descriptorsOf(line), fields: new Map(), dependencies: [] };
      if (current.descriptors[0] === '__metadata') metadata = current;
      else entries.push(current);
      section = '';
    } else if (!current) {
      throw new LockfileUnreadable('it has an indented line before its first entry');
    } else if (indent === 2) {
      const [key, value] = keyAndValue(line.trim());
      if (value === '') section = key;
      else current.fields.set(key, value);
    } else if (indent === 4 && (section === 'dependencies' || section === 'optionalDependencies')) {
      current.dependencies.push(keyAndValue(line.trim()));
    }
  }
  if (entries.length === 0 && !metadata && text.trim()) throw new LockfileUnreadable('it holds no entries');
  return { metadata, entries };
}

/** `"a@^1", a@^2:` -> [a@^1, a@^2]. */
function descriptorsOf(line: string): string[] {
  const body = line.trimEnd().replace(/:$/, '');
  return body
    .split(/,\s*/)
    .map((part) => part.trim().replace(/^"|"$/g, ''))
    .filter(Boolean);
}

/** `key: value` (berry) or `key value` (classic), either side quoted or not. */
function keyAndValue(text: string): [string, string] {
  let key: string;
  let rest: string;
  if (text.startsWith('"')) {
    const end = text.indexOf('"', 1);
    key = text.slice(1, end < 0 ? text.length : end);
    rest = end < 0 ? '' : text.slice(end + 1);
  } else {
    const stop = text.search(/[: ]/);
    key = stop < 0 ? text : text.slice(0, stop);
    rest = stop < 0 ? '' : text.slice(stop);
  }
  return [key, unquote(rest.replace(/^:?\s*/, '').trim())];
}

function unquote(text: string): string {
  const trimmed = text.trim();
  return trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"')
    ? trimmed.slice(1, -1)
    : trimmed;
}

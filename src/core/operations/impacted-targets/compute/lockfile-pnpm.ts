// pnpm-lock.yaml as a graph, read line by line in one pass (no YAML parser over a file of megabytes):
// `importers:` gives each project's dependencies as resolved (`1.2.3(peer@4.5.6)`, `link:../x` for a
// workspace package, `file:` for an injected one), `snapshots:` (lockfile 9) or `packages:` (lockfiles 6
// to 8, keys starting with `/`) each package's own. A package's id is its key, which holds its version and
// its peers' (a package with other peers is another package, as pnpm installs it). Links and injected
// workspace packages are not external packages; the workspace graph follows them. lockfileVersion and
// the overrides change everyone's resolution.
import { LockfileUnreadable, type LockfileBudget, type LockGraph, type LockNode } from './lockfile-graph.js';

const DEPENDENCY_FIELDS = new Set(['dependencies', 'devDependencies', 'optionalDependencies']);

export function pnpmLockGraph(text: string, budget: LockfileBudget): LockGraph {
  budget.spend(text.length / 16);
  const version = /^lockfileVersion:\s*'?([\d.]+)'?\s*$/m.exec(text)?.[1];
  if (!version || Number.parseFloat(version) < 6) {
    throw new LockfileUnreadable(`its lockfileVersion is ${version ?? 'missing'} (6.0 to 9.0 are read)`);
  }
  const slash = Number.parseFloat(version) < 9 ? '/' : '';
  const nodes = new Map<string, LockNode>();
  const importers = new Map<string, string[]>();
  let global = `lockfileVersion ${version}`;
  let top = '';
  let field = '';
  let dependency = '';
  let node: LockNode | undefined;
  let importer: string[] | undefined;
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, text[end - 1] === '\r' ? end - 1 : end);
    start = end + 1;
    if (!line.trim() || line.trimStart().startsWith('#')) continue;
    const indent = line.length - line.trimStart().length;
    const [key, value] = keyAndValue(line.trim());
    if (indent === 0) {
      top = key;
      if (top === 'overrides' || top === 'patchedDependencies') global += `\n${top}`;
    } else if (top === 'overrides' || top === 'patchedDependencies') {
      global += `\n${line.trim()}`;
    } else if (indent === 2) {
      node = undefined;
      importer = undefined;
      if (top === 'importers') importers.set(key === '.' ? '' : key.replace(/^\.\//, ''), (importer = []));
      else if (isPackageSection(top, slash)) nodes.set(key, (node = nodeOf(key, slash)));
    } else if (indent === 4) {
      field = key;
      if (node && DEPENDENCY_FIELDS.has(field) && value.startsWith('{') && value !== '{}') {
        for (const [name, resolved] of flowPairs(value)) addDependency(node.deps, name, resolved, slash);
      }
    } else if (indent === 6 && DEPENDENCY_FIELDS.has(field)) {
      dependency = key;
      if (node && value) addDependency(node.deps, key, value, slash);
      if (importer && value && !value.startsWith('{')) addDependency(importer, key, value, slash);
    } else if (indent === 8 && importer && key === 'version' && value) {
      addDependency(importer, dependency, value, slash);
    }
  }
  budget.spend(nodes.size + importers.size);
  return { nodes, importers, global };
}

function isPackageSection(top: string, slash: string): boolean {
  return slash ? top === 'packages' : top === 'snapshots';
}

function nodeOf(key: string, slash: string): LockNode {
  const bare = slash && key.startsWith(slash) ? key.slice(1) : key;
  const name = /^(@?[^@]+)@/.exec(bare)?.[1] ?? bare;
  return { name, version: bare.slice(name.length + 1), deps: [] };
}

/** A dependency's resolved version as the id of its package; links and injected packages are none. */
function addDependency(list: string[], name: string, resolved: string, slash: string): void {
  if (/^(link|file|workspace):/.test(resolved)) return;
  // An alias (`string-width-cjs: string-width@4.2.3`) or a full path names the package itself.
  const aliased = /^@?[^@(]+@/.test(resolved) || resolved.startsWith('/');
  const id = aliased ? resolved : `${name}@${resolved}`;
  list.push(slash && !id.startsWith(slash) ? `${slash}${id}` : id);
}

/** `{a: 1.0.0, '@b/c': 2.0.0}` -> pairs (pnpm writes small maps in flow style). */
function flowPairs(value: string): [string, string][] {
  return value
    .slice(1, -1)
    .split(',')
    .map((pair) => keyAndValue(pair.trim()))
    .filter(([key]) => key !== '');
}

function keyAndValue(text: string): [string, string] {
  let key: string;
  let rest: string;
  const quote = text[0];
  if (quote === '"' || quote === "'") {
    const end = text.indexOf(quote, 1);
    key = text.slice(1, end < 0 ? text.length : end);
    rest = end < 0 ? '' : text.slice(end + 1);
  } else {
    const colon = text.search(/:(\s|$)/);
    key = colon < 0 ? text : text.slice(0, colon);
    rest = colon < 0 ? '' : text.slice(colon);
  }
  const value = rest.replace(/^:\s*/, '').trim();
  return [key, value.replace(/^['"]|['"]$/g, '')];
}

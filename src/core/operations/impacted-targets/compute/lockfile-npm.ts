// package-lock.json (npm 7 and later: lockfile versions 2 and 3, its `packages` map) as a graph, resolved
// as turbo resolves it: a project's dependency from `<project>/node_modules/<name>`, else the root's
// `node_modules/<name>`; a package's dependency from its own nested node_modules, then each one above it.
// Every dependency field of a package's entry counts (dependencies, dev, optional and peer), as turbo
// counts them; a project's own peerDependencies do not (turbo reads a project's external dependencies
// from its dependencies, dev and optional ones: a peer is its dependents' to install); a link to a workspace package (no version of its own) is no external package and is not followed. A
// change of lockfileVersion or of `requires` changes every project's resolution.
import { LockfileUnreadable, type LockfileBudget, type LockGraph, type LockNode } from './lockfile-graph.js';

const PROJECT_FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies'];
const PACKAGE_FIELDS = [...PROJECT_FIELDS, 'peerDependencies'];
/** A package nested deeper than this many node_modules is taken for a hostile file. */
const MAX_NESTING = 64;
const NODE_MODULES = 'node_modules/';

type Entry = Record<string, unknown>;

export function npmLockGraph(text: string, budget: LockfileBudget): LockGraph {
  budget.spend(text.length / 16);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new LockfileUnreadable(`it is not valid JSON (${(error as Error).message.split('\n')[0]})`);
  }
  const doc = (data && typeof data === 'object' ? data : {}) as Entry;
  const version = doc.lockfileVersion;
  const packages = doc.packages;
  if (typeof version !== 'number' || version < 2 || !isEntry(packages)) {
    throw new LockfileUnreadable('it has no "packages" map (lockfile version 2 or 3, npm 7 and later)');
  }
  const entries = new Map<string, Entry>();
  for (const [key, entry] of Object.entries(packages)) if (isEntry(entry)) entries.set(key, entry);
  const nodes = new Map<string, LockNode>();
  const importers = new Map<string, string[]>();
  for (const [key, entry] of entries) {
    if (nesting(key) > MAX_NESTING) throw new LockfileUnreadable(`"${key.slice(0, 80)}…" is nested too deep`);
    const isPackage = key.includes(NODE_MODULES);
    // A link (a workspace package, a file: dependency) has no version: no external package.
    if (isPackage && typeof entry.version !== 'string') continue;
    const deps = resolvedDependencies(key, entry, entries, budget);
    // A project's own version is its manifest's, not a resolution.
    const version = isPackage ? String(entry.version) : '';
    nodes.set(key, { name: isPackage ? nameOf(key) : key || 'the root', version, deps });
    if (!isPackage) importers.set(key, [key]);
  }
  return { nodes, importers, global: `lockfileVersion ${version}, requires ${JSON.stringify(doc.requires)}` };
}

function resolvedDependencies(
  key: string,
  entry: Entry,
  entries: Map<string, Entry>,
  budget: LockfileBudget,
) {
  const deps: string[] = [];
  for (const field of key.includes(NODE_MODULES) ? PACKAGE_FIELDS : PROJECT_FIELDS) {
    const names = entry[field];
    if (!isEntry(names)) continue;
    for (const name of Object.keys(names)) {
      const found = resolve(key, name, entries, budget);
      if (found !== undefined) deps.push(found);
    }
  }
  return deps;
}

/** The key `name` resolves to from `key`'s place, by Node's walk up the node_modules folders. */
function resolve(key: string, name: string, entries: Map<string, Entry>, budget: LockfileBudget) {
  for (let at: string | undefined = key; ;) {
    budget.spend(1);
    const candidate: string = at ? `${at}/${NODE_MODULES}${name}` : `${NODE_MODULES}${name}`;
    const entry = entries.get(candidate);
    if (entry) return typeof entry.version === 'string' ? candidate : undefined;
    if (!at) return undefined;
    at = parentOf(at);
  }
}

/** The folder whose node_modules holds `key` ('' for the root's), or '' when `key` is a project. */
function parentOf(key: string): string {
  const last = key.lastIndexOf(NODE_MODULES);
  if (last < 0) return '';
  return key.slice(0, Math.max(0, last - 1));
}

function nameOf(key: string): string {
  return key.slice(key.lastIndexOf(NODE_MODULES) + NODE_MODULES.length);
}

function nesting(key: string): number {
  return key.split(NODE_MODULES).length - 1;
}

function isEntry(value: unknown): value is Entry {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

// package-lock.json (npm 7 and later: lockfile versions 2 and 3, its `packages` map) compared at two
// commits, resolved as turbo resolves it: a project's dependency from `<project>/node_modules/<name>`,
// else the root's `node_modules/<name>`; a package's dependency from its own nested node_modules, then
// each one above it. Every dependency field of a package's entry counts (dependencies, dev, optional and
// peer, but not a peer peerDependenciesMeta marks optional), as turbo counts them. A project's external dependencies are the names its package.json gives
// (dependencies, dev and optional ones, not its peers: a peer is its dependents' to install), the same
// for both sides, as turbo reads them: a lockfile entry that lists other names for the project (a stale
// lockfile put right) changes nothing by itself. A project whose manifest is not known (the root, when it
// is no package) is read from its lockfile entry, with the same fields. A link to a workspace package (no
// version of its own) is no external package and is not followed. A change of lockfileVersion or of
// `requires` changes every project's resolution.
// Most of a lockfile is the same at both commits: only the entries that differ are resolved, and the walk
// goes backwards from them, by name, to the projects that reach them (on each side), so that the work
// follows the change, not the lockfile's size. The walk's index of who lists a name is the head's, for
// both sides: a node whose base entry lists a name its head entry does not either differs itself (it is
// then walked from) or resolves that name to nothing (a resolved package's key ends with its name).
import { LockfileUnreadable, type ChangedImporters, type LockfileBudget } from './lockfile-graph.js';
import type { ManifestDependencies } from './workspace-package.js';

const PROJECT_FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies'];
const PACKAGE_FIELDS = [...PROJECT_FIELDS, 'peerDependencies'];
/** A package nested deeper than this many node_modules is taken for a hostile file. */
const MAX_NESTING = 64;
const NODE_MODULES = 'node_modules/';

type Entry = Record<string, unknown>;

/** One side: its entries that are nodes (projects, and packages with a version), its links, its settings. */
interface Side {
  nodes: Map<string, Entry>;
  /** Package keys without a version of their own: links to a workspace package or a folder. */
  links: Set<string>;
  global: string;
}

/** Dependency name -> the head's nodes that list it (each side's entry is checked when walked). */
type Listers = Map<string, string[]>;

/** The dependency names of a node's entry: a project's from its manifest where known. */
type NamesOf = (key: string, entry: Entry) => readonly string[];

/** The projects whose resolved dependencies differ between the base's and the head's lockfile, and why. */
export function npmChangedImporters(
  baseText: string,
  headText: string,
  budget: LockfileBudget,
  manifests: ManifestDependencies = new Map(),
): ChangedImporters {
  const base = readSide(baseText, budget, 'base');
  const head = readSide(headText, budget, 'head');
  const declared = new Map([...manifests].map(([dir, deps]) => [dir, deps.map(([name]) => name)]));
  const namesOf: NamesOf = (key, entry) =>
    (isPackage(key) ? undefined : declared.get(key)) ?? listedNames(key, entry);
  return compareSides(base, head, namesOf, budget);
}

function compareSides(base: Side, head: Side, namesOf: NamesOf, budget: LockfileBudget): ChangedImporters {
  if (base.global !== head.global) return { global: `${base.global} → ${head.global}` };
  const differing = differingNodes(base, head, namesOf, budget);
  const listers = listersByName(head.nodes, namesOf, budget);
  const reachedBase = reaching(base, differing, { listers, namesOf }, budget);
  const reachedHead = reaching(head, differing, { listers, namesOf }, budget);
  const changed = new Map<string, string>();
  for (const key of new Set([...projects(base), ...projects(head)])) {
    const why = reachedHead.get(key) ?? reachedBase.get(key);
    if (why) changed.set(key, why);
  }
  return { changed };
}

function readSide(text: string, budget: LockfileBudget, side: string): Side {
  try {
    return sideOf(text, budget);
  } catch (error) {
    if (!(error instanceof LockfileUnreadable)) throw error;
    throw new LockfileUnreadable(`the ${side}'s package-lock.json cannot be read: ${error.message}`);
  }
}

function sideOf(text: string, budget: LockfileBudget): Side {
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
  const nodes = new Map<string, Entry>();
  const links = new Set<string>();
  for (const key of Object.keys(packages)) {
    const entry = packages[key];
    if (!isEntry(entry)) continue;
    if (nestedTooDeep(key)) throw new LockfileUnreadable(`"${key.slice(0, 80)}…" is nested too deep`);
    // A link (a workspace package, a file: dependency) has no version: no external package.
    if (!isPackage(key) || typeof entry.version === 'string') nodes.set(key, entry);
    else links.add(key);
  }
  budget.spend(nodes.size);
  return { nodes, links, global: `lockfileVersion ${version}, requires ${JSON.stringify(doc.requires)}` };
}

/** Nodes added, removed, at another version, or whose own resolved dependencies changed. */
function differingNodes(
  base: Side,
  head: Side,
  namesOf: NamesOf,
  budget: LockfileBudget,
): Map<string, string> {
  const differing = new Map<string, string>();
  for (const [key, after] of head.nodes) {
    const before = base.nodes.get(key);
    if (!before) {
      differing.set(key, `${label(key, after)} added`);
    } else if (versionOf(key, before) !== versionOf(key, after)) {
      differing.set(key, `${nameOf(key)} ${versionOf(key, before)} → ${versionOf(key, after)}`);
    } else if (!sameNames(namesOf(key, before), namesOf(key, after), budget)) {
      const why = dependencyChange(key, [before, after], { base, head, namesOf }, budget);
      if (why) differing.set(key, why);
    }
  }
  for (const [key, before] of base.nodes) {
    if (!head.nodes.has(key)) differing.set(key, `${label(key, before)} removed`);
  }
  return differing;
}

/** What changed in a node's resolved dependencies, in words; undefined when they resolve the same. */
function dependencyChange(
  key: string,
  [before, after]: [Entry, Entry],
  { base, head, namesOf }: { base: Side; head: Side; namesOf: NamesOf },
  budget: LockfileBudget,
) {
  const had = new Set(resolvedDependencies(key, namesOf(key, before), base, budget));
  const has = new Set(resolvedDependencies(key, namesOf(key, after), head, budget));
  const added = [...has].filter((id) => !had.has(id));
  const removed = [...had].filter((id) => !has.has(id));
  if (added.length === 0 && removed.length === 0) return undefined;
  const first = added[0];
  const old = first === undefined ? undefined : removed.find((id) => nameOf(id) === nameOf(first));
  const version = (side: Side, id: string) => versionOf(id, side.nodes.get(id) ?? {});
  if (first !== undefined && old !== undefined)
    return `${nameOf(first)} ${version(base, old)} → ${version(head, first)}`;
  if (first !== undefined) return `${nameOf(first)} ${version(head, first)} added`;
  const gone = removed[0] as string;
  return `${nameOf(gone)} ${version(base, gone)} removed`;
}

/** Every node that reaches one of `differing` on this side (itself included), with the first it reaches. */
function reaching(
  side: Side,
  differing: Map<string, string>,
  { listers, namesOf }: { listers: Listers; namesOf: NamesOf },
  budget: LockfileBudget,
): Map<string, string> {
  const reached = new Map<string, string>();
  const queue: string[] = [];
  for (const [key, why] of differing) {
    if (!side.nodes.has(key)) continue;
    reached.set(key, why);
    queue.push(key);
  }
  for (let i = 0; i < queue.length; i++) {
    const key = queue[i] as string;
    if (!isPackage(key)) continue;
    const name = nameOf(key);
    for (const lister of listers.get(name) ?? []) {
      if (reached.has(lister) || !lists(side, lister, name, namesOf)) continue;
      if (resolve(lister, name, side, budget) !== key) continue;
      reached.set(lister, reached.get(key) as string);
      queue.push(lister);
    }
  }
  return reached;
}

function listersByName(nodes: Map<string, Entry>, namesOf: NamesOf, budget: LockfileBudget): Listers {
  const byName: Listers = new Map();
  for (const [key, entry] of nodes) {
    for (const name of namesOf(key, entry)) {
      budget.spend(1);
      const list = byName.get(name);
      if (list) list.push(key);
      else byName.set(name, [key]);
    }
  }
  return byName;
}

/** Whether this side's entry of `key` lists `name` (the index is the head's). */
function lists(side: Side, key: string, name: string, namesOf: NamesOf): boolean {
  const entry = side.nodes.get(key);
  return !!entry && namesOf(key, entry).includes(name);
}

function resolvedDependencies(
  key: string,
  names: readonly string[],
  side: Side,
  budget: LockfileBudget,
): string[] {
  const deps: string[] = [];
  for (const name of names) {
    const found = resolve(key, name, side, budget);
    if (found !== undefined) deps.push(found);
  }
  return deps;
}

/** The node `name` resolves to from `key`'s place, by Node's walk up the node_modules folders. */
function resolve(key: string, name: string, side: Side, budget: LockfileBudget): string | undefined {
  for (let at = key; ;) {
    budget.spend(1);
    const candidate = at ? `${at}/${NODE_MODULES}${name}` : `${NODE_MODULES}${name}`;
    if (side.nodes.has(candidate)) return candidate;
    // A link stands in the way as a copy would: the name is the workspace package's, not external.
    if (side.links.has(candidate) || !at) return undefined;
    at = parentOf(at);
  }
}

/**
 * The names an entry lists in its dependency fields, field after field, in the lockfile's order; a
 * package's optional peers (peerDependenciesMeta) left out, as turbo leaves them out.
 */
function listedNames(key: string, entry: Entry): string[] {
  const names: string[] = [];
  for (const field of fieldsOf(key)) {
    const listed = entry[field];
    if (!isEntry(listed)) continue;
    if (field === 'peerDependencies') names.push(...requiredPeers(listed, entry.peerDependenciesMeta));
    else names.push(...Object.keys(listed));
  }
  return names;
}

function requiredPeers(peers: Entry, meta: unknown): string[] {
  if (!isEntry(meta)) return Object.keys(peers);
  return Object.keys(peers).filter((name) => {
    const about = meta[name];
    return !(isEntry(about) && about.optional === true);
  });
}

/**
 * Whether a node lists the same names on both sides in the same order (as npm writes them): the quick
 * check that spares resolving the dependencies of every node. Any other difference is resolved.
 */
function sameNames(had: readonly string[], has: readonly string[], budget: LockfileBudget): boolean {
  if (had === has) return true;
  budget.spend(has.length);
  return had.length === has.length && had.every((name, i) => name === has[i]);
}

function projects(side: Side): string[] {
  return [...side.nodes.keys()].filter((key) => !isPackage(key));
}

function fieldsOf(key: string): string[] {
  return isPackage(key) ? PACKAGE_FIELDS : PROJECT_FIELDS;
}

function isPackage(key: string): boolean {
  return key.includes(NODE_MODULES);
}

/** A package's version; a project's own version is its manifest's, not a resolution. */
function versionOf(key: string, entry: Entry): string {
  return isPackage(key) ? String(entry.version) : '';
}

function label(key: string, entry: Entry): string {
  return isPackage(key) ? `${nameOf(key)} ${versionOf(key, entry)}` : key || 'the root';
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

function nestedTooDeep(key: string): boolean {
  let count = 0;
  for (let at = key.indexOf(NODE_MODULES); at >= 0; at = key.indexOf(NODE_MODULES, at + 1)) {
    if (++count > MAX_NESTING) return true;
  }
  return false;
}

function isEntry(value: unknown): value is Entry {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

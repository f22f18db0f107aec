// A lockfile read as a graph of what it resolved, and two of them compared: which workspace projects
// got other resolved dependencies (turbo's rule, for every lockfile it reads: a project's transitive
// closure of external packages, the same manifests against the base's and the head's lockfile). A project
// whose closure reaches a package that differs (added, removed, another version, other dependencies) is
// changed; one whose closure is the same is not. Both sides are walked backwards from the packages that
// differ, once: linear in the lockfile, whatever the number of projects.
// A lockfile is PR-controlled text: every parser stops at a budget of steps (LockfileBudget), past which
// the change is not attributed (the config's fallback then decides, with that reason).

export interface LockNode {
  /** How the explanation names it, e.g. `lodash`. */
  name: string;
  /** What makes it another package when it differs: the version or resolution. */
  version: string;
  /** The ids of the packages it depends on, resolved. */
  deps: string[];
}

export interface LockGraph {
  /** Package id (the lockfile's own key) -> the package. */
  nodes: Map<string, LockNode>;
  /** Project directory ('' the root) -> the ids its own external dependencies resolved to. */
  importers: Map<string, string[]>;
  /** Settings that, when they differ, change every project's resolution (npm's lockfileVersion, say). */
  global: string;
}

/** Thrown when a lockfile cannot be read as one: the words say why. */
export class LockfileUnreadable extends Error {}

/** Steps a parse and a comparison may take, in all: a lockfile of 32 MiB needs far fewer. */
export const LOCKFILE_STEPS = 50_000_000;

export class LockfileBudget {
  private left: number;

  constructor(steps = LOCKFILE_STEPS) {
    this.left = steps;
  }

  spend(steps: number): void {
    this.left -= steps;
    if (this.left < 0) throw new LockfileUnreadable('it takes more work to read than any real lockfile does');
  }
}

/** A project whose resolved dependencies changed, and the first package that made it so. */
export type ChangedImporters = { global: string } | { changed: Map<string, string> };

/** Which projects' resolved dependencies differ between the base's and the head's lockfile, and why. */
export function changedImporters(base: LockGraph, head: LockGraph, budget: LockfileBudget): ChangedImporters {
  if (base.global !== head.global) return { global: `${base.global || 'none'} → ${head.global || 'none'}` };
  const differing = new Map<string, string>();
  for (const [id, node] of head.nodes) {
    const before = base.nodes.get(id);
    if (!before) differing.set(id, `${node.name} ${node.version} added`);
    else if (before.version !== node.version)
      differing.set(id, `${node.name} ${before.version} → ${node.version}`);
    else if (!sameList(before.deps, node.deps))
      differing.set(id, listChange(before.deps, node.deps, base, head));
  }
  for (const [id, node] of base.nodes)
    if (!head.nodes.has(id)) differing.set(id, `${node.name} ${node.version} removed`);
  budget.spend(head.nodes.size + base.nodes.size);
  const reachedBase = reaching(base, differing, budget);
  const reachedHead = reaching(head, differing, budget);
  const changed = new Map<string, string>();
  for (const dir of new Set([...base.importers.keys(), ...head.importers.keys()])) {
    const before = base.importers.get(dir) ?? [];
    const after = head.importers.get(dir) ?? [];
    if (!sameList(before, after)) {
      changed.set(dir, listChange(before, after, base, head));
      continue;
    }
    const why = firstReached(after, reachedHead) ?? firstReached(before, reachedBase);
    if (why) changed.set(dir, why);
  }
  return { changed };
}

/** Every package that reaches one of `differing` (itself included), with the first it reaches. */
function reaching(
  graph: LockGraph,
  differing: Map<string, string>,
  budget: LockfileBudget,
): Map<string, string> {
  const dependents = new Map<string, string[]>();
  for (const [id, node] of graph.nodes) {
    budget.spend(node.deps.length + 1);
    for (const dep of node.deps) {
      const list = dependents.get(dep);
      if (list) list.push(id);
      else dependents.set(dep, [id]);
    }
  }
  const reached = new Map<string, string>();
  const queue: string[] = [];
  for (const [id, why] of differing) {
    reached.set(id, why);
    queue.push(id);
  }
  for (let i = 0; i < queue.length; i++) {
    const id = queue[i] as string;
    const why = reached.get(id) as string;
    for (const dependent of dependents.get(id) ?? []) {
      if (reached.has(dependent)) continue;
      reached.set(dependent, why);
      queue.push(dependent);
    }
  }
  budget.spend(queue.length);
  return reached;
}

/** What changed between two lists of dependencies, in words: `lodash 4.17.20 → 4.17.21`. */
function listChange(before: readonly string[], after: readonly string[], base: LockGraph, head: LockGraph) {
  const had = new Set(before);
  const has = new Set(after);
  const added = after.filter((id) => !had.has(id)).map((id) => head.nodes.get(id));
  const removed = before.filter((id) => !has.has(id)).map((id) => base.nodes.get(id));
  const first = added.find((node) => node);
  const old = first && removed.find((node) => node?.name === first.name);
  if (first && old) return `${first.name} ${old.version} → ${first.version}`;
  if (first) return `${first.name} ${first.version} added`;
  const gone = removed.find((node) => node);
  return gone ? `${gone.name} ${gone.version} removed` : 'its dependencies';
}

function firstReached(ids: readonly string[], reached: Map<string, string>): string | undefined {
  for (const id of ids) {
    const why = reached.get(id);
    if (why) return why;
  }
  return undefined;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const sortedA = [...a].sort();
  const sortedB = [...b].sort();
  return sortedA.every((value, i) => value === sortedB[i]);
}

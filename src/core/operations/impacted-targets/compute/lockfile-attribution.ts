// A lockfile change given to the workspace packages whose resolved dependencies it changed: the base's
// and the head's text read as graphs (pnpm-lock.yaml, yarn.lock v1 and berry) and compared
// (lockfile-graph.ts), or package-lock.json compared from the entries that differ (lockfile-npm.ts). A change of the settings that shape every resolution (lockfileVersion,
// say), of the root project's own resolved dependencies, or a lockfile added or removed, impacts every
// package, as turbo does. A lockfile that cannot be read
// is not attributed: the reason goes to the config's fallback and its explanation.
import {
  LockfileBudget,
  LockfileUnreadable,
  changedImporters,
  type ChangedImporters,
  type LockGraph,
} from './lockfile-graph.js';
import { npmChangedImporters } from './lockfile-npm.js';
import { pnpmLockGraph } from './lockfile-pnpm.js';
import { yarnLockGraph } from './lockfile-yarn.js';
import type { Workspace } from './workspace.js';
import type { ManifestDependencies } from './workspace-package.js';

/** Package name -> why its resolved dependencies changed; or why the change could not be attributed. */
export type Attribution = { packages: Map<string, string> } | { reason: string };

export function attributeLockfile(
  workspace: Workspace,
  file: string,
  base: string | undefined,
  head: string | undefined,
): Attribution {
  if (base === undefined || head === undefined) {
    const why = `${file} ${base === undefined ? 'is new' : 'was removed'}`;
    return { packages: new Map([...workspace.byName.keys()].map((name) => [name, why])) };
  }
  const budget = new LockfileBudget();
  let changes: ChangedImporters;
  try {
    changes =
      file === 'package-lock.json'
        ? npmChangedImporters(base, head, budget, declared(workspace))
        : compareGraphs(workspace, file, [base, head], budget);
  } catch (error) {
    if (error instanceof LockfileUnreadable) return { reason: error.message };
    throw error;
  }
  if ('global' in changes) {
    const why = `${file}'s settings changed (${changes.global})`;
    return { packages: new Map([...workspace.byName.keys()].map((name) => [name, why])) };
  }
  const root = changes.changed.get('');
  if (root !== undefined) {
    // Every package depends on the root's own dependencies (turbo's graph has the root under each one).
    const why = `${file} changed the root's resolved dependencies (${root}), which every package gets`;
    return { packages: new Map([...workspace.byName.keys()].map((name) => [name, why])) };
  }
  const packages = new Map<string, string>();
  for (const [dir, why] of changes.changed) {
    const pkg = workspace.packageAt(dir);
    if (pkg) packages.set(pkg.name, `${file} changed its resolved dependencies (${why})`);
  }
  return { packages };
}

/** pnpm-lock.yaml and yarn.lock: both sides read whole as graphs, then compared. */
function compareGraphs(
  workspace: Workspace,
  file: string,
  [base, head]: [string, string],
  budget: LockfileBudget,
): ChangedImporters {
  const graphs = [
    graphOf(workspace, file, base, budget, 'base'),
    graphOf(workspace, file, head, budget, 'head'),
  ];
  try {
    return changedImporters(graphs[0] as LockGraph, graphs[1] as LockGraph, budget);
  } catch (error) {
    if (error instanceof LockfileUnreadable) throw new LockfileUnreadable(`${file}: ${error.message}`);
    throw error;
  }
}

function graphOf(workspace: Workspace, file: string, text: string, budget: LockfileBudget, side: string) {
  try {
    if (file === 'pnpm-lock.yaml') return pnpmLockGraph(text, budget);
    return yarnLockGraph(text, budget, declared(workspace));
  } catch (error) {
    if (error instanceof LockfileUnreadable) {
      throw new LockfileUnreadable(`the ${side}'s ${file} cannot be read: ${error.message}`);
    }
    throw error;
  }
}

function declared(workspace: Workspace): ManifestDependencies {
  const map: ManifestDependencies = new Map();
  if (workspace.rootDeclared) map.set('', workspace.rootDeclared);
  for (const pkg of workspace.byName.values()) if (pkg.declared) map.set(pkg.dir, pkg.declared);
  return map;
}

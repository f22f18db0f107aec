// The packages of a pnpm, npm or yarn workspace and who depends on whom, read in plain code from
// pnpm-workspace.yaml or package.json `workspaces` and each project's manifest: no install, no package
// manager. The root can be a package too (all four managers treat it as a project), with its own
// dependencies. Which entry links which package is workspace-edges.ts's; implicit dependents come from
// the config.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { compileGlob } from '../../../glob.js';
import { compileTemplate } from './pattern.js';
import { edgesOf, type Edge } from './workspace-edges.js';
import { projectDirectories, readManifest, workspaceLayout } from './workspace-layout.js';
import { npmLockfile, pnpmLockfile, type Lockfile } from './workspace-lockfile.js';
import { CheckoutTree, MAX_LOCKFILE_BYTES, type WorkspaceTree } from './workspace-tree.js';
import {
  addRootDependencies,
  declaredDependencies,
  workspaceRules,
  type WorkspaceRules,
} from './workspace-rules.js';
import type { WorkspaceOptions, WorkspacePackage } from './workspace-package.js';

import { WorkspaceError } from './workspace-error.js';

export { WorkspaceError };

/**
 * Manifests read between two turns of the event loop: git runs meanwhile, and its output must be read
 * (and its next process started) while the manifests are, not after.
 */
const MANIFESTS_PER_TURN = 64;

export type { WorkspaceOptions, WorkspacePackage, WorkspaceRules };

export class Workspace {
  readonly byName = new Map<string, WorkspacePackage>();
  private readonly byDir = new Map<string, WorkspacePackage>();
  private readonly dependents = new Map<string, { name: string; rule: string }[]>();
  private lastDirectory?: string;
  private lastDirectoryPackage?: WorkspacePackage;

  constructor(
    readonly source: string,
    packages: WorkspacePackage[],
    /** Files of the root that belong to no package (yarn berry's own), whatever the root holds. */
    private readonly unowned?: (path: string) => boolean,
    readonly rules?: WorkspaceRules,
    /**
     * The root manifest's dependencies when the root is no package: turbo still resolves the root's
     * external dependencies from its package.json, not from the lockfile's entry for it.
     */
    readonly rootDeclared?: [string, string][],
  ) {
    for (const pkg of packages) {
      this.byName.set(pkg.name, pkg);
      this.byDir.set(pkg.dir, pkg);
    }
    for (const pkg of packages) {
      for (const dependency of pkg.dependsOn) {
        const list = this.dependents.get(dependency) ?? [];
        list.push({ name: pkg.name, rule: pkg.rules?.get(dependency) ?? 'a dependency' });
        this.dependents.set(dependency, list);
      }
    }
  }

  get size(): number {
    return this.byName.size;
  }

  /** The package whose directory is `dir` ('' the root), if any. */
  packageAt(dir: string): WorkspacePackage | undefined {
    return this.byDir.get(dir);
  }

  /** Whether `path` is one of yarn berry's own files (its lockfile, cache, install state), owned by no package. */
  isManagerFile(path: string): boolean {
    return this.rules?.berry === true ? isYarnBerryOwnFile(path) : path === this.rules?.lockfile;
  }

  /** The innermost package whose directory holds `path` (the root package, if there is one, holds every path). */
  packageOf(path: string): WorkspacePackage | undefined {
    if (this.unowned?.(path)) return undefined;
    const slash = path.lastIndexOf('/');
    if (slash <= 0) return this.byDir.get('');
    // Paths come sorted, a directory's files together: its package is looked up once for them.
    const directory = path.slice(0, slash);
    if (directory !== this.lastDirectory) {
      this.lastDirectory = directory;
      this.lastDirectoryPackage = this.innermost(directory);
    }
    return this.lastDirectoryPackage;
  }

  private innermost(directory: string): WorkspacePackage | undefined {
    const pkg = this.byDir.get(directory);
    if (pkg) return pkg;
    const slash = directory.lastIndexOf('/');
    return slash > 0 ? this.innermost(directory.slice(0, slash)) : this.byDir.get('');
  }

  /** Packages that depend on any of `names` (directly, or at any distance), each with the package it reached through and the rule. */
  dependentsOf(names: Iterable<string>, depth: 1 | 'all'): Map<string, { through: string; rule: string }> {
    const found = new Map<string, { through: string; rule: string }>();
    const start = new Set(names);
    let frontier = [...start];
    while (frontier.length > 0) {
      const next: string[] = [];
      for (const name of frontier) {
        for (const { name: dependent, rule } of this.dependents.get(name) ?? []) {
          if (start.has(dependent) || found.has(dependent)) continue;
          found.set(dependent, { through: name, rule });
          next.push(dependent);
        }
      }
      frontier = depth === 1 ? [] : next;
    }
    return found;
  }
}

export async function readWorkspace(root: string, options: WorkspaceOptions): Promise<Workspace> {
  return buildWorkspace(new CheckoutTree(root), root, options);
}

/** The workspace in `tree`; `root` names the checkout in messages. */
export async function buildWorkspace(
  tree: WorkspaceTree,
  root: string,
  options: WorkspaceOptions,
): Promise<Workspace> {
  const layout = await workspaceLayout(tree, root);
  const targetOf = compileTemplate(options.target);
  const projects: { dir: string; manifest: Record<string, unknown>; pkg: WorkspacePackage }[] = [];
  const taken = new Set<string>();
  const add = (dir: string, manifest: Record<string, unknown>, target?: string) => {
    const name = typeof manifest.name === 'string' && manifest.name ? manifest.name : dir || '.';
    // Two projects may share a name (copies of a test app): each stays a project of its own, as the
    // managers list both; the name links to the first.
    const key = taken.has(name) ? `${name} (${dir || '.'})` : name;
    taken.add(key);
    const pkg = { name: key, dir, target: target ?? targetOf({ name, dir }), dependsOn: [] };
    projects.push({ dir, manifest, pkg });
  };
  if (options.root !== undefined && layout.rootManifest) add('', layout.rootManifest, options.root);
  let readThisTurn = 0;
  for (const dir of projectDirectories(tree, layout)) {
    if (++readThisTurn > MANIFESTS_PER_TURN) {
      readThisTurn = 1;
      await nextTurn();
    }
    const manifest = await readManifest(tree, dir, layout.manager);
    if (manifest) add(dir, manifest);
  }
  const byDir = new Map(projects.map((p) => [p.dir, p.pkg.name]));
  const names = new Set(projects.map((p) => p.pkg.name));
  const rules = workspaceRules(tree, layout, options);
  let lockfile: { file: string; lock: Lockfile } | undefined | null = null;
  const versions = new Map(
    projects.flatMap(({ manifest, pkg }) =>
      typeof manifest.version === 'string' ? [[pkg.name, manifest.version] as const] : [],
    ),
  );
  const context = {
    nameAt: (dir: string) => byDir.get(dir),
    has: (name: string) => names.has(name),
    versionOf: (name: string) => versions.get(name),
    lockfile: () => (lockfile === null ? (lockfile = readLockfile(tree, layout.manager)) : lockfile),
    plainRanges: { link: rules.plainRangesLink, setting: rules.plainRangesSetting },
    peers: rules.peers,
  };
  const readsManifests = rules.manager === 'npm' || (rules.manager === 'yarn' && !rules.berry);
  for (const { dir, manifest, pkg } of projects) {
    const edges = edgesOf(manifest, { ...context, dir }).filter((edge) => edge.to !== pkg.name);
    setEdges(pkg, edges);
    if (readsManifests) pkg.declared = declaredDependencies(manifest);
  }
  if (rules.lockfileMode === 'resolved' && layout.rootManifest) {
    const rootEdges = edgesOf(layout.rootManifest, { ...context, dir: '' });
    addRootDependencies(
      projects.filter((p) => p.dir !== '').map((p) => p.pkg),
      rootEdges,
    );
  }
  addImplicit(
    projects.map((p) => p.pkg),
    options.implicit,
  );
  const unowned = layout.berry && options.root !== undefined ? isYarnBerryOwnFile : undefined;
  return new Workspace(
    layout.source,
    projects.map((p) => p.pkg),
    unowned,
    rules,
    readsManifests && layout.rootManifest && !byDir.has('')
      ? declaredDependencies(layout.rootManifest)
      : undefined,
  );
}

/**
 * Yarn berry's own files, which its change detection (`--since`) leaves out of every workspace, the root's
 * included: the lockfile, the cache, the install state, the virtual folder and Plug'n'Play's loader files
 * (at their default places). They go to the rules and `unmatched` instead.
 */
function isYarnBerryOwnFile(path: string): boolean {
  if (path === 'yarn.lock' || path === '.yarn/install-state.gz') return true;
  if (path.startsWith('.yarn/cache/') || path.startsWith('.yarn/__virtual__/')) return true;
  return path === '.pnp.cjs' || path === '.pnp.js' || path === '.pnp.loader.mjs' || path === '.pnp.data.json';
}

/** The lockfile that decides a plain range: pnpm's or npm's (yarn's is not read: a range then links). */
function readLockfile(tree: WorkspaceTree, manager: string): { file: string; lock: Lockfile } | undefined {
  const file = manager === 'pnpm' ? 'pnpm-lock.yaml' : manager === 'npm' ? 'package-lock.json' : undefined;
  if (file === undefined) return undefined;
  let text: string | undefined;
  try {
    text = tree.read(file, MAX_LOCKFILE_BYTES);
  } catch (error) {
    // A lockfile that cannot be read decides nothing: every range then links, which impacts more, not less.
    if (error instanceof WorkspaceError) return undefined;
    throw error;
  }
  if (text === undefined) return undefined;
  const lock = manager === 'pnpm' ? pnpmLockfile(text) : npmLockfile(text);
  return lock && { file, lock };
}

function setEdges(pkg: WorkspacePackage, edges: Edge[]): void {
  pkg.dependsOn = edges.map((edge) => edge.to);
  pkg.rules = new Map(edges.map((edge) => [edge.to, edge.rule]));
}

/** The config's implicit dependents: each package matched by name or directory depends on the key. */
function addImplicit(packages: WorkspacePackage[], implicit: Map<string, string[]> | undefined): void {
  if (!implicit) return;
  const names = new Set(packages.map((p) => p.name));
  for (const [dependency, globs] of implicit) {
    if (!names.has(dependency)) continue;
    const matchers = globs.map((glob) => compileGlob(glob));
    for (const pkg of packages) {
      if (pkg.name === dependency || pkg.dependsOn.includes(dependency)) continue;
      if (!matchers.some((m) => m.match(pkg.name) !== undefined || m.match(pkg.dir) !== undefined)) continue;
      pkg.dependsOn.push(dependency);
      (pkg.rules ??= new Map()).set(dependency, 'an implicit dependent (dependents.workspaces.implicit)');
    }
  }
}

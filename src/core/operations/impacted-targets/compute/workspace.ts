// The packages of a pnpm or npm/yarn workspace and who depends on whom, read in plain code from
// pnpm-workspace.yaml or package.json `workspaces` and each package's package.json: no install, no
// lockfile, no package manager. A dependency on a workspace package's name is an edge, whatever its
// version range (`workspace:*`, `^1.0.0`): in a workspace both resolve to the local package.
import { closeSync, constants, fstatSync, openSync, readSync, readdirSync } from 'node:fs';
import { CheckoutFileRefusal, realPathInCheckout } from '../../../files.js';
import { join } from 'node:path';
import { CORE_SCHEMA, load } from 'js-yaml';
import { GlobError, compileGlob, type Glob } from '../../../glob.js';
import { compileTemplate } from './pattern.js';

const MAX_MANIFEST_BYTES = 1024 * 1024;
/** A workspace glob is walked this deep below its base, at most. */
const MAX_WALK_DEPTH = 12;
const MAX_WALKED_DIRECTORIES = 200_000;
const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'];
/**
 * Manifests read between two turns of the event loop: git runs meanwhile, and its output must be read
 * (and its next process started) while the manifests are, not after.
 */
const MANIFESTS_PER_TURN = 64;
/** A named pipe is opened without waiting for a writer; it is then refused as not a file. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

export interface WorkspacePackage {
  name: string;
  /** Relative to the repository root, with `/`. */
  dir: string;
  target: string;
  /** Names of the workspace packages it depends on. */
  dependsOn: string[];
}

export class Workspace {
  readonly byName = new Map<string, WorkspacePackage>();
  private readonly byDir = new Map<string, WorkspacePackage>();
  private readonly dependents = new Map<string, string[]>();
  private lastDirectory?: string;
  private lastDirectoryPackage?: WorkspacePackage;

  constructor(
    readonly source: string,
    packages: WorkspacePackage[],
  ) {
    for (const pkg of packages) {
      this.byName.set(pkg.name, pkg);
      this.byDir.set(pkg.dir, pkg);
    }
    for (const pkg of packages) {
      for (const dependency of pkg.dependsOn) {
        const list = this.dependents.get(dependency) ?? [];
        list.push(pkg.name);
        this.dependents.set(dependency, list);
      }
    }
  }

  get size(): number {
    return this.byName.size;
  }

  /** The innermost package whose directory holds `path`. */
  packageOf(path: string): WorkspacePackage | undefined {
    const slash = path.lastIndexOf('/');
    if (slash <= 0) return undefined;
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
    return slash > 0 ? this.innermost(directory.slice(0, slash)) : undefined;
  }

  /** Packages that depend on any of `names` (directly, or at any distance), each with the package it reached through. */
  dependentsOf(names: Iterable<string>, depth: 1 | 'all'): Map<string, string> {
    const found = new Map<string, string>();
    const start = new Set(names);
    let frontier = [...start];
    while (frontier.length > 0) {
      const next: string[] = [];
      for (const name of frontier) {
        for (const dependent of this.dependents.get(name) ?? []) {
          if (start.has(dependent) || found.has(dependent)) continue;
          found.set(dependent, name);
          next.push(dependent);
        }
      }
      frontier = depth === 1 ? [] : next;
    }
    return found;
  }
}

/** Why the workspace could not be read: a compute error (fail-safe), not a config error. */
export class WorkspaceError extends Error {}

export async function readWorkspace(root: string, targetTemplate: string): Promise<Workspace> {
  const files = new TextFiles(root);
  const { source, globs } = workspaceGlobs(root, files);
  const include = globs.filter((g) => !g.startsWith('!')).map(normalizeGlob);
  const exclude = globs.filter((g) => g.startsWith('!')).map((g) => normalizeGlob(g.slice(1)));
  const excludes = exclude.map(workspaceGlob);
  const excluded = (dir: string) => excludes.some((glob) => glob.match(dir) !== undefined);
  const dirs = new Set<string>();
  for (const glob of include) {
    for (const dir of matchingDirectories(root, glob)) if (!excluded(dir)) dirs.add(dir);
  }
  const targetOf = compileTemplate(targetTemplate);
  const packages: WorkspacePackage[] = [];
  let readThisTurn = 0;
  for (const dir of [...dirs].sort()) {
    if (++readThisTurn > MANIFESTS_PER_TURN) {
      readThisTurn = 1;
      await nextTurn();
    }
    const manifest = readManifest(files, `${dir}/package.json`);
    if (!manifest) continue;
    const name = typeof manifest.name === 'string' && manifest.name ? manifest.name : dir;
    const dependsOn = new Set<string>();
    for (const field of DEPENDENCY_FIELDS) {
      const deps = manifest[field];
      if (deps && typeof deps === 'object' && !Array.isArray(deps)) {
        for (const dependency of Object.keys(deps)) dependsOn.add(dependency);
      }
    }
    packages.push({
      name,
      dir,
      target: targetOf({ name, dir }),
      dependsOn: [...dependsOn],
    });
  }
  const names = new Set(packages.map((p) => p.name));
  for (const pkg of packages) pkg.dependsOn = pkg.dependsOn.filter((d) => names.has(d) && d !== pkg.name);
  return new Workspace(source, packages);
}

function workspaceGlobs(root: string, files: TextFiles): { source: string; globs: string[] } {
  const pnpm = files.read('pnpm-workspace.yaml');
  if (pnpm !== undefined) {
    let doc: unknown;
    try {
      doc = load(pnpm, { schema: CORE_SCHEMA });
    } catch (error) {
      throw new WorkspaceError(
        `pnpm-workspace.yaml is not valid YAML (${(error as Error).message.split('\n')[0]})`,
      );
    }
    const packages = (doc as { packages?: unknown } | null)?.packages;
    if (!isStringList(packages)) {
      throw new WorkspaceError('pnpm-workspace.yaml has no "packages:" list of globs');
    }
    return { source: 'pnpm-workspace.yaml', globs: packages };
  }
  const manifest = readManifest(files, 'package.json');
  const workspaces = manifest?.workspaces;
  const globs = isStringList(workspaces)
    ? workspaces
    : isStringList((workspaces as { packages?: unknown } | undefined)?.packages)
      ? (workspaces as { packages: string[] }).packages
      : undefined;
  if (!globs) {
    throw new WorkspaceError(
      `dependents.workspaces is set, but ${root} has neither pnpm-workspace.yaml nor "workspaces" in package.json`,
    );
  }
  return { source: 'package.json workspaces', globs };
}

/** A workspace glob, matched in linear time (the PR's author writes it); one that cannot be is said so. */
function workspaceGlob(glob: string): Glob {
  try {
    return compileGlob(glob);
  } catch (error) {
    if (error instanceof GlobError) throw new WorkspaceError(`a workspace glob: ${error.message}`);
    throw error;
  }
}

function normalizeGlob(glob: string): string {
  return glob.trim().replace(/^\.\//, '').replace(/\/+$/, '');
}

/** Directories under `root` that match the glob, walking only below the glob's fixed base. */
function matchingDirectories(root: string, glob: string): string[] {
  const compiled = workspaceGlob(glob);
  const base = compiled.base;
  if (base === glob) return [glob];
  // `packages/*` needs one level below packages/, not the whole tree under it.
  const levels = glob.includes('**')
    ? MAX_WALK_DEPTH
    : glob.split('/').length - (base ? base.split('/').length : 0) - 1;
  const matches = (path: string) => compiled.match(path) !== undefined;
  const found: string[] = [];
  let walked = 0;
  const walk = (dir: string, depth: number) => {
    if (depth > levels) return;
    let entries;
    try {
      entries = readdirSync(join(root, dir), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      if (++walked > MAX_WALKED_DIRECTORIES) {
        throw new WorkspaceError(
          `the workspace glob "${glob}" reaches more than ${MAX_WALKED_DIRECTORIES} directories`,
        );
      }
      const path = dir ? `${dir}/${entry.name}` : entry.name;
      if (matches(path)) found.push(path);
      walk(path, depth + 1);
    }
  };
  walk(base, 0);
  return found;
}

/**
 * Reads small text files of the checkout through one buffer that is reused (and grown up to the cap when a
 * file needs it): each file is found by its real path inside the checkout (a manifest that is a symlink
 * out of it, or a workspace entry with `..`, is refused), opened once, checked with fstat, read up to the
 * cap whatever its size says, and closed, with nothing allocated but its text.
 */
class TextFiles {
  private buffer = Buffer.allocUnsafe(64 * 1024);

  constructor(private readonly root: string) {}

  /** The text of the file at `path` (relative to the checkout, as messages name it); undefined when there is no regular file there. */
  read(path: string): string | undefined {
    let fd: number;
    try {
      fd = openSync(realPathInCheckout(this.root, path), OPEN_FLAGS);
    } catch (error) {
      if (error instanceof CheckoutFileRefusal && error.reason === 'outside') {
        throw new WorkspaceError(`${path} ${error.message}`);
      }
      return undefined;
    }
    try {
      if (!fstatSync(fd).isFile()) return undefined;
      let filled = 0;
      for (;;) {
        if (filled === this.buffer.length) {
          if (filled > MAX_MANIFEST_BYTES)
            throw new WorkspaceError(`${path} is over ${MAX_MANIFEST_BYTES} bytes`);
          const grown = Buffer.allocUnsafe(Math.min(MAX_MANIFEST_BYTES + 1, filled * 2));
          this.buffer.copy(grown, 0, 0, filled);
          this.buffer = grown;
        }
        const read = readSync(fd, this.buffer, filled, this.buffer.length - filled, null);
        if (read === 0) break;
        filled += read;
      }
      if (filled > MAX_MANIFEST_BYTES)
        throw new WorkspaceError(`${path} is over ${MAX_MANIFEST_BYTES} bytes`);
      return this.buffer.toString('utf8', 0, filled);
    } catch (error) {
      if (error instanceof WorkspaceError) throw error;
      return undefined;
    } finally {
      closeSync(fd);
    }
  }
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The manifest at `path` (relative to the checkout), which names it in messages. */
function readManifest(files: TextFiles, path: string): Record<string, unknown> | undefined {
  const text = files.read(path);
  if (text === undefined) return undefined;
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch (error) {
    throw new WorkspaceError(`${path} is not valid JSON (${(error as Error).message})`);
  }
  if (!manifest || typeof manifest !== 'object' || Array.isArray(manifest)) {
    throw new WorkspaceError(`${path} is not a JSON object`);
  }
  return manifest as Record<string, unknown>;
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

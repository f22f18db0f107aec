// Which package manager runs the workspace, its globs, and the project directories they select, with
// each manager's own semantics: a project is a directory whose `<glob>/package.json` matches, so
// `dir/**` selects `dir` itself too (pnpm, npm and yarn classic glob for the manifest); yarn berry globs
// for directories below the glob's base, so there `dir/**` does not select `dir`. pnpm also never
// selects a directory inside test/, tests/ or bower_components/, and reads package.json5 and package.yaml.
import { CORE_SCHEMA, load } from 'js-yaml';
import { GlobError, compileGlob, type Glob } from '../../../glob.js';
import { WorkspaceError } from './workspace-error.js';
import { manifestNames, parseManifest, type Manifest, type PackageManager } from './workspace-manifest.js';
import type { WorkspaceTree } from './workspace-tree.js';

/** A workspace glob with `**` is walked this deep below its base, at most. */
const MAX_WALK_DEPTH = 12;
const PNPM_IGNORED_SEGMENTS = new Set(['node_modules', 'bower_components', 'test', 'tests']);

export interface WorkspaceLayout {
  manager: PackageManager;
  /** Where the globs come from, for the log and messages. */
  source: string;
  globs: string[];
  /** Yarn 2 and later, which globs for directories. */
  berry: boolean;
  rootManifest?: Manifest;
}

export async function workspaceLayout(tree: WorkspaceTree, root: string): Promise<WorkspaceLayout> {
  const rootManifest = await readManifest(tree, '');
  const pnpm = tree.read('pnpm-workspace.yaml');
  if (pnpm !== undefined) {
    return {
      manager: 'pnpm',
      source: 'pnpm-workspace.yaml',
      globs: pnpmGlobs(pnpm),
      berry: false,
      rootManifest,
    };
  }
  const workspaces = rootManifest?.workspaces;
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
  const packageManager = typeof rootManifest?.packageManager === 'string' ? rootManifest.packageManager : '';
  const yarnrc = tree.read('.yarnrc.yml') !== undefined;
  const yarn = packageManager.startsWith('yarn@') || yarnrc || tree.read('yarn.lock') !== undefined;
  // Yarn 2 and later are configured by .yarnrc.yml; yarn classic by .yarnrc.
  const berry = yarn && (/^yarn@[2-9]/.test(packageManager) || (!packageManager && yarnrc));
  return { manager: yarn ? 'yarn' : 'npm', source: 'package.json workspaces', globs, berry, rootManifest };
}

function pnpmGlobs(text: string): string[] {
  let doc: unknown;
  try {
    doc = load(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, { schema: CORE_SCHEMA });
  } catch (error) {
    throw new WorkspaceError(
      `pnpm-workspace.yaml is not valid YAML (${(error as Error).message.split('\n')[0]})`,
    );
  }
  const packages = (doc as { packages?: unknown } | null)?.packages;
  // pnpm 9 and later read a workspace file without `packages:` as the root project alone.
  if (packages === undefined) return [];
  if (!isStringList(packages))
    throw new WorkspaceError('pnpm-workspace.yaml has a "packages:" that is not a list of globs');
  return packages;
}

/** The project directories the layout's globs select, sorted, the root ('') not among them. */
export function projectDirectories(tree: WorkspaceTree, layout: WorkspaceLayout): string[] {
  const include = layout.globs.filter((g) => !g.trim().startsWith('!')).map(normalizeGlob);
  const excludes = layout.globs
    .filter((g) => g.trim().startsWith('!'))
    .map((g) => manifestGlob(normalizeGlob(g.trim().slice(1))));
  const ignored = (dir: string) =>
    excludes.some((glob) => glob.match(manifestPathIn(dir)) !== undefined) ||
    (layout.manager === 'pnpm' && dir.split('/').some((segment) => PNPM_IGNORED_SEGMENTS.has(segment)));
  const dirs = new Set<string>();
  for (const glob of include) {
    const matcher = manifestGlob(glob);
    const selfExcluded = layout.berry && glob.endsWith('/**') ? glob.slice(0, -3) : undefined;
    for (const dir of candidates(tree, glob)) {
      if (dir === '' || dir === selfExcluded || ignored(dir)) continue;
      if (matcher.match(manifestPathIn(dir)) !== undefined) dirs.add(dir);
    }
  }
  return [...dirs].sort();
}

/** The manifest paths that a project directory may hold, by the manager's preference. */
export function manifestPaths(dir: string, manager: PackageManager): string[] {
  return manifestNames(manager).map((name) => (dir ? `${dir}/${name}` : name));
}

export async function readManifest(tree: WorkspaceTree, dir: string, manager: PackageManager = 'pnpm') {
  for (const path of manifestPaths(dir, manager)) {
    const text = tree.read(path);
    if (text !== undefined) return parseManifest(path, text);
  }
  return undefined;
}

/** Directories that may match the glob: only those below its fixed base, only as deep as it reaches. */
function candidates(tree: WorkspaceTree, glob: string): string[] {
  const base = compiled(glob).base;
  if (base === glob) return [glob];
  const levels = glob.includes('**') ? MAX_WALK_DEPTH : segments(glob) - segments(base);
  return tree.directories(base, levels);
}

function manifestGlob(glob: string): Glob {
  return compiled(glob ? `${glob}/package.json` : 'package.json');
}

function manifestPathIn(dir: string): string {
  return dir ? `${dir}/package.json` : 'package.json';
}

/** A workspace glob, matched in linear time (the PR's author writes it); one that cannot be is said so. */
function compiled(glob: string): Glob {
  try {
    return compileGlob(glob);
  } catch (error) {
    if (error instanceof GlobError) throw new WorkspaceError(`a workspace glob: ${error.message}`);
    throw error;
  }
}

function normalizeGlob(glob: string): string {
  const trimmed = glob
    .trim()
    .replace(/^(\.\/)+/, '')
    .replace(/\/+$/, '');
  return trimmed === '.' ? '' : trimmed;
}

function segments(path: string): number {
  return path ? path.split('/').length : 0;
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

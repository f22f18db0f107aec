// Which package manager runs the workspace, its globs, and the project directories they select, with
// each manager's own semantics: a project is a directory whose `<glob>/package.json` matches, so
// `dir/**` selects `dir` itself too (pnpm, npm and yarn classic glob for the manifest); yarn berry globs
// for directories below the glob's base, so there `dir/**` does not select `dir`. pnpm also never
// selects a directory inside bower_components/, and reads package.json5 and package.yaml (a test/
// folder is skipped only by pnpm's search without a workspace file, which is not a workspace's).
import { CORE_SCHEMA, load } from 'js-yaml';
import { GlobError, compileGlob, type Glob } from '../../../glob.js';
import { WorkspaceError } from './workspace-error.js';
import { manifestNames, parseManifest, type Manifest, type PackageManager } from './workspace-manifest.js';
import type { WorkspaceTree } from './workspace-tree.js';

/** A workspace glob with `**` is walked this deep below its base, at most. */
const MAX_WALK_DEPTH = 12;
/**
 * Glob matches the workspace's directories may take, all globs together: a second or two at most, and
 * far more than a workspace's globs need (`packages/*` and `apps/*` try each directory under them once).
 */
const MAX_GLOB_MATCHES = 300_000;
const PNPM_IGNORED_SEGMENTS = new Set(['node_modules', 'bower_components']);

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
  const written = [...new Set(layout.globs.map((g) => g.trim()))];
  const includes = written.filter((g) => !g.startsWith('!')).map((g) => includeOf(normalizeGlob(g), layout));
  const excludes = written
    .filter((g) => g.startsWith('!'))
    .map((g) => manifestGlob(normalizeGlob(g.slice(1))));
  const reach = new Map<string, number>();
  for (const { base, levels } of includes) reach.set(base, Math.max(reach.get(base) ?? 0, levels));
  const walked = tree.directories(reach);
  const budget = new MatchBudget(layout.source, walked.length);
  const candidates = new IncludeIndex(includes);
  const matches = (glob: Glob, dir: string) =>
    budget.spend() && glob.match(manifestPathIn(dir)) !== undefined;
  const ignored = (dir: string) =>
    (layout.manager === 'pnpm' && dir.split('/').some((segment) => PNPM_IGNORED_SEGMENTS.has(segment))) ||
    excludes.some((glob) => matches(glob, dir));
  const dirs: string[] = [];
  for (const dir of walked) {
    if (dir === '') continue;
    const selected = candidates.some(
      dir,
      (include) => dir !== include.selfExcluded && matches(include.matcher, dir),
    );
    if (selected && !ignored(dir)) dirs.push(dir);
  }
  return dirs.sort();
}

interface Include {
  matcher: Glob;
  /** Where every match lies, and how many levels below it the glob reaches. */
  base: string;
  levels: number;
  /** Yarn berry's `dir/**` does not select `dir`. */
  selfExcluded?: string;
  /** The last segment, when it is plain text: only a directory of that name can match. */
  name?: string;
}

function includeOf(glob: string, layout: WorkspaceLayout): Include {
  const { base, lastName } = compiled(glob);
  return {
    matcher: manifestGlob(glob),
    base,
    levels: base === glob ? 0 : glob.includes('**') ? MAX_WALK_DEPTH : segments(glob) - segments(base),
    selfExcluded: layout.berry && glob.endsWith('/**') ? glob.slice(0, -3) : undefined,
    name: base !== glob ? lastName : undefined,
  };
}

/**
 * The globs a directory is tried against: those of its name, when a glob ends in plain text, and those
 * whose base holds it. A thousand `**\/pN` globs cost a directory one lookup, not a thousand matches.
 */
class IncludeIndex {
  private readonly byName = new Map<string, Include[]>();
  private readonly byBase = new Map<string, Include[]>();

  constructor(includes: Include[]) {
    for (const include of includes) {
      const [index, key] = include.name ? [this.byName, include.name] : [this.byBase, include.base];
      const list = index.get(key);
      if (list) list.push(include);
      else index.set(key, [include]);
    }
  }

  /** Whether any glob that may select `dir` does. */
  some(dir: string, selects: (include: Include) => boolean): boolean {
    if (this.byName.get(dir.slice(dir.lastIndexOf('/') + 1))?.some(selects)) return true;
    for (let at = dir; ; at = at.slice(0, Math.max(0, at.lastIndexOf('/')))) {
      if (this.byBase.get(at)?.some(selects)) return true;
      if (at === '') return false;
    }
  }
}

/**
 * How many glob matches the workspace's directories may take: a PR writes the globs, and a megabyte of
 * them against a large checkout would otherwise keep the run busy for hours. Past it, one line.
 */
class MatchBudget {
  private left = MAX_GLOB_MATCHES;

  constructor(
    private readonly source: string,
    private readonly directories: number,
  ) {}

  spend(): true {
    if (--this.left < 0) {
      throw new WorkspaceError(
        `${this.source}: its globs take more than ${MAX_GLOB_MATCHES.toLocaleString('en-US')} matches against the ${this.directories.toLocaleString('en-US')} directories they reach; list fewer globs, or globs under a fixed directory or ending in a plain name`,
      );
    }
    return true;
  }
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

// Records a small fixture of a real monorepo's history for __tests__/core/impacted-targets-history.test.ts:
// for each of the last N first-parent commits, the files it changed, the workspace's manifests as they were
// (only what decides the graph: name, version, workspaces, dependency entries that could be local; for
// turbo every dependency's name, which it resolves in the lockfile), and the package manager's own answer
// to "which packages does this change select, dependents included".
//
//   node --import tsx scripts/record-workspace-history.ts <git dir of a clone> <owner/name> <commits> <out.json> [stride]
//
// Every stride-th first-parent commit is recorded (1: each of the last <commits>). For npm, which has no
// change filter, the answer is npm's own graph (npm query on the lockfile), closed over the changed files.
//
// The package manager's answer needs a work tree: the clone is checked out at each commit in a temp
// directory, and `pnpm ls -r --filter "...[<parent>]" --depth -1 --json` runs there (pnpm from PATH or
// PNPM=<path>). The test then reads the fixture alone, with no network and no package manager.
import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

const MANIFEST_NAMES = new Set(['package.json', 'package.json5', 'package.yaml']);
const WORKSPACE_FILES = new Set(['pnpm-workspace.yaml', 'package-lock.json', '.yarnrc.yml', '.npmrc']);
/** The settings lines kept of .yarnrc.yml and .npmrc: the ones that change the graph. */
const SETTING_LINES = /^\s*(enableTransparentWorkspaces|link-workspace-packages)\b.*$/gm;
const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'];
const LOCAL_SPEC = /^(workspace|file|link|portal):/;

interface RecordedCommit {
  sha: string;
  parent: string;
  /** The lockfile's lines (lockfileLines) that the commit removed and added, when it changed them. */
  lockfile?: { removed: string[]; added: string[] };
  /** Manifests added or changed since the previous commit recorded (path -> blob id), null when removed. */
  tree: Record<string, string | null>;
  changed: string[];
  deleted: string[];
  /** Directories of the projects the package manager selected ('' is the root). */
  selected: string[];
}

function git(gitDir: string, args: string[]): string {
  return execFileSync('git', ['--git-dir', gitDir, ...args], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
}

/** SKIP_DIRS=test,fixtures: manifests under such directories are left out (a repository's test fixtures). */
const SKIPPED_DIRS = new Set(['node_modules', ...(process.env.SKIP_DIRS ?? '').split(',').filter(Boolean)]);

function isManifestPath(path: string): boolean {
  if (path.split('/').some((part) => SKIPPED_DIRS.has(part))) return false;
  const base = path.slice(path.lastIndexOf('/') + 1);
  return MANIFEST_NAMES.has(base) || (WORKSPACE_FILES.has(base) && !path.includes('/'));
}

/** path -> blob sha of every manifest in the commit. */
function manifestsAt(gitDir: string, sha: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of git(gitDir, ['ls-tree', '-r', '-z', sha]).split('\0')) {
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    const [, type, blob] = line.slice(0, tab).split(' ');
    const path = line.slice(tab + 1);
    if (type === 'blob' && blob && isManifestPath(path)) out.set(path, blob);
  }
  return out;
}

function changedFiles(gitDir: string, parent: string, sha: string): { changed: string[]; deleted: string[] } {
  const parts = git(gitDir, ['diff', '--name-status', '--no-renames', '-z', parent, sha]).split('\0');
  const changed: string[] = [];
  const deleted: string[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const path = parts[i + 1] as string;
    changed.push(path);
    if (parts[i] === 'D') deleted.push(path);
  }
  return { changed, deleted };
}

type Manager = 'pnpm' | 'yarn' | 'npm' | 'turbo';

const COMMANDS: Record<Manager, string> = {
  pnpm: 'pnpm ls -r --filter "...[<parent>]" --depth -1 --json',
  yarn: 'yarn workspaces list --since=<parent> --recursive --json (the yarnPath release the commit checks in)',
  turbo:
    'turbo ls --filter "...[<parent>...<commit>]" --output json (turbo from TURBO=<path>; a turbo.json "pipeline" read as "tasks")',
  npm: "npm has no change filter: npm query '.workspace, :root' --package-lock-only (Arborist's graph from the commit's manifests and package-lock.json), each changed file given to the workspace whose directory holds it, then every workspace that reaches one through npm's links",
};

const CHILD_ENV = {
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '',
  npm_config_manage_package_manager_versions: 'false',
  // pnpm 11 reads its settings from pnpm_config_*: engineStrict would refuse a package that wants a newer
  // Node, and a commit's packageManager naming another pnpm would send it to download that one.
  pnpm_config_manage_package_manager_versions: 'false',
  pnpm_config_engine_strict: 'false',
  pnpm_config_pm_on_fail: 'ignore',
  YARN_ENABLE_TELEMETRY: '0',
};

function selectedBy(manager: Manager, workTree: string, parent: string): string[] {
  const options = { cwd: workTree, encoding: 'utf8', env: CHILD_ENV, maxBuffer: 64 * 1024 * 1024 } as const;
  if (manager === 'turbo') {
    const turbo = process.env.TURBO ?? 'turbo';
    const env = { ...CHILD_ENV, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' };
    // turbo 2 reads `tasks`, which older commits call `pipeline` (turbo's own codemod renames it); the
    // range form compares the two commits, so that the rewritten work tree is not taken for a change.
    // A repository without turbo.json is read by turbo with an empty one, and without packageManager
    // as npm's (turbo needs the field); the range form compares commits, not these rewritten files.
    const config = join(workTree, 'turbo.json');
    const text = existsSync(config) ? readFileSync(config, 'utf8') : '{"tasks":{}}';
    writeFileSync(config, text.replace('"pipeline"', '"tasks"'));
    const root = JSON.parse(readFileSync(join(workTree, 'package.json'), 'utf8')) as Record<string, unknown>;
    if (!root.packageManager) {
      writeFileSync(
        join(workTree, 'package.json'),
        JSON.stringify({ ...root, packageManager: 'npm@10.9.2' }),
      );
    }
    hideFromTurbo(workTree, ['turbo.json', 'package.json']);
    const sha = execFileSync('git', ['-C', workTree, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
    const filter = `...[${parent}...${sha}]`;
    const out = execFileSync(turbo, ['ls', '--filter', filter, '--output', 'json'], {
      ...options,
      env,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    // The next commit's checkout must see them again.
    assumeUnchanged(workTree, ['turbo.json', 'package.json'], false);
    const items = (JSON.parse(out) as { packages: { items: { path: string }[] } }).packages.items;
    return items.map((item) => (item.path === '.' || item.path === '//' ? '' : item.path)).sort();
  }
  if (manager === 'pnpm') {
    const pnpm = process.env.PNPM ?? 'pnpm';
    const out = execFileSync(
      pnpm,
      ['ls', '-r', '--filter', `...[${parent}]`, '--depth', '-1', '--json'],
      options,
    );
    const projects = JSON.parse(out || '[]') as { path: string }[];
    return projects.map((p) => relative(workTree, p.path).split('\\').join('/')).sort();
  }
  // The release the commit checks in, else YARN=<a yarn berry release> (a repository on corepack).
  const yarnPath =
    /^yarnPath:\s*(\S+)/m.exec(readFileSync(join(workTree, '.yarnrc.yml'), 'utf8'))?.[1] ?? process.env.YARN;
  if (!yarnPath) throw new Error('no yarnPath in .yarnrc.yml and no YARN=<yarn berry release> given');
  const args = [yarnPath, 'workspaces', 'list', `--since=${parent}`, '--recursive', '--json'];
  const out = execFileSync(process.execPath, args, options);
  return out
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => (JSON.parse(line) as { location: string }).location)
    .map((location) => (location === '.' ? '' : location))
    .sort();
}

/**
 * turbo counts the work tree's own changes even with a range of two commits: a rewritten file would be
 * a change of its global files (every package). Git is told to see none: an untracked file excluded, a
 * tracked one assumed unchanged.
 */
function hideFromTurbo(workTree: string, files: string[]): void {
  const exclude = join(workTree, '.git', 'info', 'exclude');
  const excluded = existsSync(exclude) ? readFileSync(exclude, 'utf8').split('\n') : [];
  const missing = files.map((file) => `/${file}`).filter((line) => !excluded.includes(line));
  if (missing.length) appendFileSync(exclude, missing.map((line) => `${line}\n`).join(''));
  assumeUnchanged(workTree, files, true);
}

function assumeUnchanged(workTree: string, files: string[], on: boolean): void {
  const flag = on ? '--assume-unchanged' : '--no-assume-unchanged';
  for (const file of files) {
    try {
      execFileSync('git', ['-C', workTree, 'update-index', flag, file], { stdio: 'ignore' });
    } catch {
      // Not tracked at this commit: the exclude hides it.
    }
  }
}

function managerAt(gitDir: string, sha: string): Manager {
  const files = git(gitDir, ['ls-tree', '--name-only', sha]).split('\n');
  if (process.env.TURBO && (files.includes('turbo.json') || files.includes('package-lock.json')))
    return 'turbo';
  if (files.includes('pnpm-workspace.yaml')) return 'pnpm';
  return files.includes('package-lock.json') ? 'npm' : 'yarn';
}

/**
 * npm's answer: its own graph (Arborist, read from the commit's manifests and lockfile alone by
 * `npm query --package-lock-only`), where a workspace links another when it reaches the root's
 * node_modules/<name> link; the changed files given to the workspaces (or the root) holding them.
 */
function npmSelected(
  gitDir: string,
  sha: string,
  manifests: Map<string, string>,
  changed: string[],
): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'npm-query-'));
  try {
    for (const path of [...manifests.keys(), 'package-lock.json']) {
      if (!path.endsWith('package.json') && path !== 'package-lock.json') continue;
      mkdirSync(join(dir, dirname(path)), { recursive: true });
      writeFileSync(join(dir, path), git(gitDir, ['show', `${sha}:${path}`]));
    }
    const out = execFileSync('npm', ['query', '.workspace, :root', '--package-lock-only'], {
      cwd: dir,
      encoding: 'utf8',
      env: CHILD_ENV,
      maxBuffer: 256 * 1024 * 1024,
    });
    const nodes = (JSON.parse(out) as { location: string; name?: string; to?: string[] }[]).map((node) => ({
      dir: node.location,
      name: node.name ?? '',
      to: new Set(node.to ?? []),
    }));
    return npmClosure(nodes, changed);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function npmClosure(nodes: { dir: string; name: string; to: Set<string> }[], changed: string[]): string[] {
  const owner = (path: string) =>
    nodes
      .filter((node) => node.dir && path.startsWith(`${node.dir}/`))
      .sort((a, b) => b.dir.length - a.dir.length)[0]?.dir ?? '';
  const selected = new Set(changed.map(owner));
  for (let grew = true; grew;) {
    grew = false;
    for (const node of nodes) {
      if (selected.has(node.dir)) continue;
      if (nodes.some((dep) => dep.dir && selected.has(dep.dir) && node.to.has(`node_modules/${dep.name}`))) {
        selected.add(node.dir);
        grew = true;
      }
    }
  }
  return [...selected].sort();
}

/**
 * The manifest reduced to what decides the graph (its version: a plain range links only a workspace copy
 * that satisfies it); the BOM and
 * unparseable text are kept as they are. For turbo, which resolves a project's external dependencies
 * named by its manifest in the lockfile, every dependency's name is kept (its range as `*`).
 */
function reduce(text: string, names: Set<string>, path: string, manager: Manager | undefined): string {
  if (path === '.yarnrc.yml' || path === '.npmrc') return (text.match(SETTING_LINES) ?? []).join('\n') + '\n';
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  let data: Record<string, unknown>;
  try {
    data = JSON.parse(text.slice(bom.length)) as Record<string, unknown>;
  } catch {
    return text;
  }
  if ('lockfileVersion' in data && data.packages) return reduceLockfile(data.packages as object, names);
  const kept: Record<string, unknown> = {};
  for (const key of ['name', 'version', 'workspaces', 'packageManager'])
    if (key in data) kept[key] = data[key];
  for (const field of DEPENDENCY_FIELDS) {
    const deps = data[field];
    if (!deps || typeof deps !== 'object') continue;
    const entries = Object.entries(deps as Record<string, string>).flatMap(
      ([name, spec]): [string, string][] => {
        if (names.has(name) || (typeof spec === 'string' && LOCAL_SPEC.test(spec))) return [[name, spec]];
        return manager === 'turbo' ? [[name, '*']] : [];
      },
    );
    if (entries.length) kept[field] = Object.fromEntries(entries);
  }
  const overrides = (data.pnpm as { overrides?: unknown } | undefined)?.overrides;
  if (overrides) kept.pnpm = { overrides };
  return bom + JSON.stringify(kept);
}

/** npm's lockfile reduced to where each workspace package's name resolves: a link, or a copy. */
function reduceLockfile(packages: object, names: Set<string>): string {
  const kept: Record<string, { link?: true }> = {};
  for (const [key, entry] of Object.entries(packages as Record<string, { link?: boolean }>)) {
    const name = key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);
    if (key.includes('node_modules/') && names.has(name)) kept[key] = entry.link ? { link: true } : {};
  }
  return JSON.stringify({ lockfileVersion: 3, packages: kept });
}

function main(): void {
  const [gitDir, repository, count, out, strideArgument] = process.argv.slice(2);
  if (!gitDir || !repository || !count || !out) {
    throw new Error(
      'usage: record-workspace-history.ts <git dir> <owner/name> <commits> <out.json> [stride]',
    );
  }
  const picked = pickCommits(gitDir, Number(count), Number(strideArgument ?? 1));
  const recorded = recordCommits(gitDir, picked);
  const blobs = shareBlobs(recorded);
  const manager = recorded.manager;
  const fixture = {
    repository,
    packageManager: managerVersion(manager),
    command: COMMANDS[manager ?? 'pnpm'],
    blobs,
    ...(recorded.lockBase && { lockfileBase: recorded.lockBase }),
    commits: recorded.commits,
  };
  writeFileSync(out, JSON.stringify(fixture) + '\n');
}

/** Every stride-th first-parent commit of the last count x stride, oldest first. */
function pickCommits(gitDir: string, count: number, stride: number): string[] {
  const firstParents = git(gitDir, ['rev-list', '--first-parent', '-n', String(count * stride), 'HEAD'])
    .trim()
    .split('\n');
  return firstParents.filter((_, i) => i % stride === 0).reverse();
}

interface Recorded {
  /** Each manifest blob's text, by blob id. */
  raw: Map<string, string>;
  /** The workspace packages' names, seen in any manifest. */
  names: Set<string>;
  commits: RecordedCommit[];
  manager: Manager | undefined;
  /** package-lock.json as lines (turbo): at the first commit's parent, now, and the last commit's change. */
  lockBase?: string[];
  lockNow?: Set<string>;
  lockDelta?: { removed: string[]; added: string[] };
  /** Which path each blob was recorded from (settings files are reduced by name). */
  pathOfBlob: Map<string, string>;
}

/**
 * package-lock.json reduced to what its graph needs (each entry's version, whether it is a link, and the
 * names it depends on), one entry a line, so that each commit stores only the lines it changed.
 */
function lockfileLines(gitDir: string, sha: string): Set<string> {
  let text: string;
  try {
    text = git(gitDir, ['cat-file', 'blob', `${sha}:package-lock.json`]);
  } catch {
    return new Set();
  }
  const data = JSON.parse(text) as { lockfileVersion?: number; requires?: unknown; packages?: object };
  const lines = new Set([
    JSON.stringify(['', { lockfileVersion: data.lockfileVersion, requires: data.requires }]),
  ]);
  for (const [key, entry] of Object.entries(
    (data.packages ?? {}) as Record<string, Record<string, unknown>>,
  )) {
    // A project's peers are kept apart (`p`): turbo does not count them, a package's it does.
    const project = !key.includes('node_modules/');
    // A package's optional peers (peerDependenciesMeta) are left out, as turbo leaves them out.
    const optional = (entry.peerDependenciesMeta ?? {}) as Record<string, { optional?: boolean }>;
    const keysOf = (field: string) =>
      Object.keys((entry[field] as object | undefined) ?? {}).filter(
        (name) => project || field !== 'peerDependencies' || optional[name]?.optional !== true,
      );
    const namesOf = (fields: string[]) => [...new Set(fields.flatMap(keysOf))].sort();
    const d = namesOf(
      project ? DEPENDENCY_FIELDS.filter((f) => f !== 'peerDependencies') : DEPENDENCY_FIELDS,
    );
    const p = project ? namesOf(['peerDependencies']) : [];
    lines.add(JSON.stringify([key, { version: entry.version, link: entry.link, d, ...(p.length && { p }) }]));
  }
  return lines;
}

function recordLockfile(
  gitDir: string,
  recorded: Recorded,
  firstParent: string | undefined,
  sha: string,
): void {
  if (firstParent !== undefined) {
    recorded.lockBase = [...lockfileLines(gitDir, firstParent)].sort();
    recorded.lockNow = new Set(recorded.lockBase);
  }
  const now = lockfileLines(gitDir, sha);
  const before = recorded.lockNow ?? new Set<string>();
  const removed = [...before].filter((line) => !now.has(line));
  const added = [...now].filter((line) => !before.has(line));
  recorded.lockNow = now;
  recorded.lockDelta = removed.length || added.length ? { removed, added } : undefined;
}

/** Each commit against its first parent: the manifests that changed, the changed files, and what the package manager selects. */
function recordCommits(gitDir: string, picked: string[]): Recorded {
  const workTree = mkdtempSync(join(tmpdir(), 'history-'));
  execFileSync('git', ['clone', '-q', '--shared', '--no-checkout', gitDir, workTree]);
  // SPARSE=1: only what the package manager reads is checked out (a mirror may lack its largest blobs).
  if (process.env.SPARSE) {
    const patterns = [
      'package.json',
      'package-lock.json',
      'turbo.json',
      '.npmrc',
      '.yarnrc.yml',
      '.yarn/releases/',
      '.yarn/plugins/',
      'yarn.lock',
      'pnpm-workspace.yaml',
      'pnpm-lock.yaml',
    ];
    execFileSync('git', ['-C', workTree, 'sparse-checkout', 'set', '--no-cone', ...patterns]);
  }
  const recorded: Recorded = {
    raw: new Map(),
    names: new Set(),
    commits: [],
    manager: undefined,
    pathOfBlob: new Map(),
  };
  let previous = new Map<string, string>();
  try {
    for (let i = 0; i < picked.length; i++) {
      const sha = picked[i] as string;
      const parent = git(gitDir, ['rev-parse', `${sha}^1`]).trim();
      const manifests = manifestsAt(gitDir, sha);
      const tree = changedManifests(gitDir, manifests, previous, recorded);
      previous = manifests;
      const manager = (recorded.manager ??= managerAt(gitDir, sha));
      const changes = changedFiles(gitDir, parent, sha);
      let selected: string[];
      if (manager === 'turbo') recordLockfile(gitDir, recorded, i === 0 ? parent : undefined, sha);
      if (manager === 'npm') {
        selected = npmSelected(gitDir, sha, manifests, changes.changed);
      } else {
        execFileSync('git', ['-C', workTree, 'checkout', '-q', '-f', sha]);
        execFileSync('git', ['-C', workTree, 'clean', '-q', '-fdx']);
        selected = selectedBy(manager, workTree, parent);
      }
      recorded.commits.push({ sha, parent, tree, ...changes, selected, lockfile: recorded.lockDelta });
      recorded.lockDelta = undefined;
      process.stderr.write(`${i + 1}/${picked.length} ${sha.slice(0, 10)}\n`);
    }
  } finally {
    rmSync(workTree, { recursive: true, force: true });
  }
  return recorded;
}

/** The manifests that differ from the previous commit's (null: removed), their texts kept once. */
function changedManifests(
  gitDir: string,
  manifests: Map<string, string>,
  previous: Map<string, string>,
  recorded: Recorded,
): Record<string, string | null> {
  const tree: Record<string, string | null> = {};
  for (const [path, blob] of manifests) {
    if (previous.get(path) === blob) continue;
    tree[path] = blob;
    recorded.pathOfBlob.set(blob, path);
    if (!recorded.raw.has(blob)) {
      const text = git(gitDir, ['cat-file', 'blob', blob]);
      recorded.raw.set(blob, text);
      const name = /"name"\s*:\s*"([^"]+)"/.exec(text)?.[1];
      if (name) recorded.names.add(name);
    }
  }
  for (const path of previous.keys()) if (!manifests.has(path)) tree[path] = null;
  return tree;
}

/**
 * Blobs whose reduced text is the same become one, under a short id; each commit's tree names them by
 * that id, and only where it changed from the commit before.
 */
function shareBlobs({ raw, names, commits, pathOfBlob, manager }: Recorded): Record<string, string> {
  const idOfText = new Map<string, string>();
  const idOfBlob = new Map<string, string>();
  for (const [blob, text] of raw) {
    const reduced = reduce(text, names, pathOfBlob.get(blob) ?? '', manager);
    if (!idOfText.has(reduced)) idOfText.set(reduced, idOfText.size.toString(36));
    idOfBlob.set(blob, idOfText.get(reduced) as string);
  }
  const last = new Map<string, string>();
  for (const commit of commits) {
    const tree: Record<string, string | null> = {};
    for (const [path, blob] of Object.entries(commit.tree)) {
      const id = blob === null ? null : (idOfBlob.get(blob) as string);
      if (id !== null && last.get(path) === id) continue;
      if (id === null) last.delete(path);
      else last.set(path, id);
      tree[path] = id;
    }
    commit.tree = tree;
  }
  return Object.fromEntries([...idOfText].map(([text, id]) => [id, text]));
}

function managerVersion(manager: Manager | undefined): string {
  if (manager === 'turbo') {
    const version = execFileSync(process.env.TURBO ?? 'turbo', ['--version'], { encoding: 'utf8' }).trim();
    return `turbo@${version} (npm workspaces)`;
  }
  if (manager === 'npm') return `npm@${execFileSync('npm', ['--version'], { encoding: 'utf8' }).trim()}`;
  if (manager === 'yarn' && process.env.YARN) {
    const version = execFileSync(process.execPath, [process.env.YARN, '--version'], { encoding: 'utf8' });
    return `yarn@${version.trim()} (YARN; the commit's own yarnPath release where it has one)`;
  }
  if (manager === 'yarn') return "yarn (each commit's own yarnPath release)";
  return `pnpm@${execFileSync(process.env.PNPM ?? 'pnpm', ['--version'], { encoding: 'utf8' }).trim()}`;
}

main();

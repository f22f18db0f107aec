// A monorepo's recorded history (scripts/record-workspace-history.ts): each commit's changed files, its
// manifests, and what the package manager's own change filter selected. Replayed here without git, network
// or package manager: the manifests become a WorkspaceTree, the changes go through the compute.
import { readFileSync } from 'node:fs';
import type { WorkspaceTree } from '../../src/core/operations/impacted-targets/compute/workspace-tree.js';

export interface RecordedCommit {
  sha: string;
  parent: string;
  /** The lockfile's lines (one entry each) that the commit removed and added. */
  lockfile?: { removed: string[]; added: string[] };
  tree: Record<string, string | null>;
  changed: string[];
  deleted: string[];
  selected: string[];
}

export interface RecordedHistory {
  repository: string;
  packageManager: string;
  command: string;
  blobs: Record<string, string>;
  /** package-lock.json's lines at the first commit's parent, when the lockfile was recorded (turbo). */
  lockfileBase?: string[];
  commits: RecordedCommit[];
}

/** The lockfile's text at the parent and at the commit, rebuilt from its recorded lines. */
export interface RecordedLockfiles {
  base: string;
  head: string;
}

export function readHistory(path: string): RecordedHistory {
  return JSON.parse(readFileSync(path, 'utf8')) as RecordedHistory;
}

/** Each commit with the tree of manifests as it was then (and the lockfile's two sides, when recorded). */
export function* replay(
  history: RecordedHistory,
): Generator<[RecordedCommit, RecordedTree, RecordedLockfiles | undefined]> {
  const files = new Map<string, string>();
  const lines = history.lockfileBase && new Set(history.lockfileBase);
  let text = lines && npmLockfileText(lines);
  for (const commit of history.commits) {
    for (const [path, blob] of Object.entries(commit.tree)) {
      if (blob === null) files.delete(path);
      else files.set(path, history.blobs[blob] as string);
    }
    let lockfiles: RecordedLockfiles | undefined;
    if (lines && text !== undefined) {
      const base = text;
      if (commit.lockfile) {
        for (const line of commit.lockfile.removed) lines.delete(line);
        for (const line of commit.lockfile.added) lines.add(line);
        text = npmLockfileText(lines);
      }
      lockfiles = { base, head: text };
    }
    yield [commit, new RecordedTree(files), lockfiles];
  }
}

/**
 * package-lock.json from its recorded lines: `["", header]`, then `[key, {version, link, d: names, p: peer
 * names}]` (`p`, a project's peers, only where recorded apart).
 */
function npmLockfileText(lines: ReadonlySet<string>): string {
  let header: Record<string, unknown> = {};
  const packages: Record<string, unknown> = {};
  for (const line of lines) {
    const [key, entry] = JSON.parse(line) as [
      string,
      { version?: string; link?: boolean; d?: string[]; p?: string[] },
    ];
    if (key === '' && !('d' in entry)) {
      header = entry;
      continue;
    }
    const dependencies = Object.fromEntries((entry.d ?? []).map((name) => [name, '*']));
    const peerDependencies = entry.p && Object.fromEntries(entry.p.map((name) => [name, '*']));
    packages[key] = { version: entry.version, link: entry.link, dependencies, peerDependencies };
  }
  return JSON.stringify({ ...header, packages });
}

export class RecordedTree implements WorkspaceTree {
  private readonly dirs: string[];

  constructor(private readonly files: ReadonlyMap<string, string>) {
    const dirs = new Set<string>(['']);
    for (const path of files.keys()) {
      const parts = path.split('/');
      for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join('/'));
    }
    this.dirs = [...dirs].sort();
  }

  read(path: string): string | undefined {
    return this.files.get(path);
  }

  /** Every file's path. */
  paths(): string[] {
    return [...this.files.keys()];
  }

  directories(reach: ReadonlyMap<string, number>): string[] {
    const depthOf = (dir: string) => (dir ? dir.split('/').length : 0);
    const within = (dir: string, base: string, levels: number) => {
      if (dir !== base && !(base === '' || dir.startsWith(`${base}/`))) return false;
      if (depthOf(dir) - depthOf(base) > levels) return false;
      const below = base ? dir.slice(base.length) : dir;
      return !below.split('/').some((part) => part === 'node_modules' || part.startsWith('.'));
    };
    return this.dirs.filter((dir) => [...reach].some(([base, levels]) => within(dir, base, levels)));
  }
}

// A monorepo's recorded history (scripts/record-workspace-history.ts): each commit's changed files, its
// manifests, and what the package manager's own change filter selected. Replayed here without git, network
// or package manager: the manifests become a WorkspaceTree, the changes go through the compute.
import { readFileSync } from 'node:fs';
import type { WorkspaceTree } from '../../src/core/operations/impacted-targets/compute/workspace-tree.js';

export interface RecordedCommit {
  sha: string;
  parent: string;
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
  commits: RecordedCommit[];
}

export function readHistory(path: string): RecordedHistory {
  return JSON.parse(readFileSync(path, 'utf8')) as RecordedHistory;
}

/** Each commit with the tree of manifests as it was then. */
export function* replay(history: RecordedHistory): Generator<[RecordedCommit, RecordedTree]> {
  const files = new Map<string, string>();
  for (const commit of history.commits) {
    for (const [path, blob] of Object.entries(commit.tree)) {
      if (blob === null) files.delete(path);
      else files.set(path, history.blobs[blob] as string);
    }
    yield [commit, new RecordedTree(files)];
  }
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

// Our targets for each recorded commit, next to the package manager's: the config is the minimal one a
// README suggests (each workspace package a target named by its directory, the root a package too,
// dependents at any depth), so that a target is a project directory as the package manager lists it.
import { parseTargetsConfig } from '../../src/core/operations/impacted-targets/compute/config.js';
import { impactOf } from '../../src/core/operations/impacted-targets/compute/impact.js';
import { attributeLockfile } from '../../src/core/operations/impacted-targets/compute/lockfile-attribution.js';
import { buildWorkspace } from '../../src/core/operations/impacted-targets/compute/workspace.js';
import { replay, type RecordedCommit, type RecordedHistory } from './recorded-workspace.js';

/** The config: lines under dependents.workspaces (peers, lockfile), top-level lines, and the root as a package or not. */
export interface ReplayConfig {
  workspaces?: string[];
  top?: string[];
  root?: boolean;
  /** The unmatched policy; ignore unless given. */
  unmatched?: 'all' | 'ignore';
}

function configText({ workspaces = [], top = [], root = true, unmatched = 'ignore' }: ReplayConfig): string {
  const lines = ['dependents:', '  workspaces:', '    target: "dir:{dir}"', '    depth: all'];
  if (root) lines.push('    root: "dir:"');
  return [...lines, ...workspaces.map((line) => `    ${line}`), ...top, `unmatched: ${unmatched}`, ''].join(
    '\n',
  );
}

export interface Comparison {
  commit: RecordedCommit;
  ours: string[];
  theirs: string[];
  /** Selected by us only, and by the package manager only. */
  onlyOurs: string[];
  onlyTheirs: string[];
  /** Why each of our dependents was impacted, by target. */
  via: Map<string, string[]>;
}

export async function compareHistory(
  history: RecordedHistory,
  options: ReplayConfig = {},
): Promise<Comparison[]> {
  const config = await parseTargetsConfig(configText(options), 'replay.yml');
  const comparisons: Comparison[] = [];
  for (const [commit, tree, lockfiles] of replay(history)) {
    const workspace = await buildWorkspace(tree, history.repository, config.workspaces!);
    const deleted = new Set(commit.deleted);
    const file = workspace.rules?.lockfile ?? '';
    const attributions =
      lockfiles && commit.changed.includes(file)
        ? new Map([[file, attributeLockfile(workspace, file, lockfiles.base, lockfiles.head)]])
        : undefined;
    const impact = impactOf(
      config,
      commit.changed.map((path) => ({ path, deleted: deleted.has(path) })),
      { workspace, isMergeQueueTestRun: false, lockfiles: attributions },
    );
    // ALL is every package, as a package manager that selects them all lists them.
    const targets = impact.all
      ? [...workspace.byName.values()].map((p) => p.target)
      : [...impact.targets.keys()];
    const ours = targets.map((t) => t.slice('dir:'.length)).sort();
    const theirs = [...commit.selected].sort();
    comparisons.push({
      commit,
      ours,
      theirs,
      onlyOurs: ours.filter((d) => !theirs.includes(d)),
      onlyTheirs: theirs.filter((d) => !ours.includes(d)),
      via: new Map([...impact.targets].map(([t, e]) => [t.slice('dir:'.length), [...e.via]])),
    });
  }
  return comparisons;
}

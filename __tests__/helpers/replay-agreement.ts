// Our targets for each recorded commit, next to the package manager's: the config is the minimal one a
// README suggests (each workspace package a target named by its directory, the root a package too,
// dependents at any depth), so that a target is a project directory as the package manager lists it.
import { parseTargetsConfig } from '../../src/core/operations/impacted-targets/compute/config.js';
import { impactOf } from '../../src/core/operations/impacted-targets/compute/impact.js';
import { buildWorkspace } from '../../src/core/operations/impacted-targets/compute/workspace.js';
import { replay, type RecordedCommit, type RecordedHistory } from './recorded-workspace.js';

const CONFIG = `
dependents:
  workspaces:
    target: "dir:{dir}"
    root: "dir:"
    depth: all
unmatched: ignore
`;

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

export async function compareHistory(history: RecordedHistory, extra = ''): Promise<Comparison[]> {
  const config = await parseTargetsConfig(CONFIG + extra, 'replay.yml');
  const comparisons: Comparison[] = [];
  for (const [commit, tree] of replay(history)) {
    const workspace = await buildWorkspace(tree, history.repository, config.workspaces!);
    const deleted = new Set(commit.deleted);
    const impact = impactOf(
      config,
      commit.changed.map((path) => ({ path, deleted: deleted.has(path) })),
      { workspace, isMergeQueueTestRun: false },
    );
    const ours = [...impact.targets.keys()].map((t) => t.slice('dir:'.length)).sort();
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

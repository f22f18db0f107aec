// The price of a config, over the repository's own history: the last N commits replayed through the
// compute (each against its first parent, with the workspace as it is now, without the dependents
// command), counting how often each rule and barrier fired, how many commits came out "impacts all" and
// why, and how many targets the others impacted; beside it, the package manager's own answer
// (lint-history-manager.ts), to count the commits the config sends to ALL where the manager would not.
import type { TargetsConfig } from './config.js';
import type { HistoryCommit } from './git-history.js';
import { expandGroups, impactOf, knownTargets, type Impact } from './impact.js';
import type { Attribution } from './lockfile-attribution.js';
import type { ManagerView } from './lint-history-manager.js';
import { PatternIndex } from './pattern-index.js';
import type { Workspace } from './workspace.js';

export const TARGET_BUCKETS = ['0', '1', '2-5', '6-20', '21-100', 'over 100', 'ALL'] as const;
const BUCKET_TOPS = [0, 1, 5, 20, 100, Infinity];

export interface HistoryReport {
  commits: number;
  /** Commits each rule (`rule <label>`) or barrier (`barrier <glob>`) fired in, most first. */
  fired: [string, number][];
  /** Commits that came out "impacts all", by why. */
  allReasons: [string, number][];
  allCount: number;
  /** Commits by how many targets they impacted, in TARGET_BUCKETS order. */
  distribution: number[];
  /** The commits that impacted ALL where the package manager selects only some packages, by why. */
  beyondManager?: { manager: string; count: number; reasons: [string, number][]; packages: number };
}

export interface HistoryExtras {
  /** Each commit's lockfile attribution, by sha (lint-history-manager.ts). */
  lockfiles?: ReadonlyMap<string, ReadonlyMap<string, Attribution>>;
  manager?: ManagerView;
}

export function replayHistory(
  config: TargetsConfig,
  commits: readonly HistoryCommit[],
  workspace?: Workspace,
  extras: HistoryExtras = {},
): HistoryReport {
  const fired = new Map<string, number>();
  const reasons = new Map<string, number>();
  const distribution = TARGET_BUCKETS.map(() => 0);
  const count = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
  // Rules are counted as if no barrier had stopped the commit, to show what each costs on its own.
  const withoutBarriers: TargetsConfig = { ...config, barriers: new PatternIndex<string>() };
  const beyond = { count: 0, reasons: new Map<string, number>(), packages: 0 };
  for (const commit of commits) {
    const lockfiles = extras.lockfiles?.get(commit.sha);
    const options = { workspace, isMergeQueueTestRun: false, lockfiles };
    const barriers = new Set(
      commit.files.flatMap((file) => config.barriers.all(file.path).map((b) => b.value)),
    );
    for (const barrier of barriers) count(fired, `barrier ${barrier}`);
    const rules = impactOf(withoutBarriers, commit.files, options);
    const ruleVias = new Set([...rules.targets.values()].flatMap((e) => [...e.via]));
    for (const rule of config.rules) if (ruleVias.has(rule.via)) count(fired, rule.via);

    const impact = impactOf(config, commit.files, options);
    if (!impact.all)
      expandGroups(config, impact, () =>
        knownTargets(
          config,
          commit.files.map((f) => f.path),
          workspace,
        ),
      );
    if (!impact.all && config.maxTargets !== undefined && impact.targets.size > config.maxTargets) {
      impact.all = { reason: `more than max-targets (${config.maxTargets}) targets` };
    }
    if (impact.all) {
      count(reasons, reasonKind(impact.all));
      const selected = extras.manager && managerSelection(extras.manager, commit, lockfiles);
      if (selected !== undefined) {
        beyond.count++;
        beyond.packages += selected;
        count(beyond.reasons, reasonKind(impact.all));
      }
    }
    const bucket = impact.all
      ? BUCKET_TOPS.length
      : BUCKET_TOPS.findIndex((top) => impact.targets.size <= top);
    distribution[bucket] = (distribution[bucket] ?? 0) + 1;
  }
  const byCount = (map: Map<string, number>) =>
    [...map].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return {
    commits: commits.length,
    fired: byCount(fired),
    allReasons: byCount(reasons),
    allCount: distribution[BUCKET_TOPS.length] ?? 0,
    distribution,
    beyondManager: extras.manager && {
      manager: extras.manager.name,
      count: beyond.count,
      reasons: byCount(beyond.reasons),
      packages: beyond.count ? Math.round(beyond.packages / beyond.count) : 0,
    },
  };
}

/** How many packages the manager selects for the commit; undefined when it selects every one. */
function managerSelection(
  manager: ManagerView,
  commit: HistoryCommit,
  lockfiles: ReadonlyMap<string, Attribution> | undefined,
): number | undefined {
  const theirs: Impact = impactOf(manager.config, commit.files, {
    workspace: manager.workspace,
    isMergeQueueTestRun: false,
    lockfiles,
  });
  const packages = theirs.all ? manager.workspace.size : theirs.targets.size;
  return packages < manager.workspace.size ? packages : undefined;
}

/** Why a commit impacts all, without the file that did it: the barrier's glob, or the policy. */
function reasonKind(all: { reason: string; barrierFile?: string }): string {
  const barrier = /matches the barrier "(.*)"$/.exec(all.reason);
  if (barrier) return `barrier ${barrier[1]}`;
  if (all.reason.includes('(deleted-unmatched: all)'))
    return 'a deleted file claimed by no rule (deleted-unmatched: all)';
  if (all.reason.includes('(unmatched: all)')) return 'a file claimed by no rule (unmatched: all)';
  return all.reason;
}

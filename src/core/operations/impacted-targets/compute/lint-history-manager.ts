// The package manager's own answer beside the config's, for the history replay: the same commits through
// the workspace alone, read with the manager's own rules (its lockfile and peers rules, whatever the config
// chose) and no barrier, rule or `unmatched` to send anything to ALL. A commit the config sends to ALL where
// the manager selects only some packages is one the config pays for and the manager would not; the lint
// counts them by why, so that a user sees the barrier or the unclaimed file that does it.
import type { TargetsConfig } from './config.js';
import type { HistoryCommit } from './git-history.js';
import type { Attribution } from './lockfile-attribution.js';
import { attributeLockfile } from './lockfile-attribution.js';
import { blobsAt } from './lockfile-change.js';
import { CommandError } from './run-command.js';
import { PatternIndex } from './pattern-index.js';
import { readWorkspace, type Workspace } from './workspace.js';

export interface ManagerView {
  /** How the log names the manager: `pnpm`, `yarn berry`, `turbo (npm workspaces)`. */
  name: string;
  workspace: Workspace;
  config: TargetsConfig;
}

/** The manager's view of the checkout's workspace; undefined without one. */
export async function managerView(config: TargetsConfig, cwd: string): Promise<ManagerView | undefined> {
  if (!config.workspaces) return undefined;
  const workspaces = { ...config.workspaces, peers: undefined, lockfile: undefined };
  const workspace = await readWorkspace(cwd, workspaces);
  const empty = new PatternIndex<string>();
  return {
    name: managerName(workspace),
    workspace,
    config: {
      ...config,
      rules: [],
      ruleIndex: new PatternIndex<number>(),
      barriers: empty,
      inert: empty,
      inertTarget: undefined,
      docs: undefined,
      unmatched: { kind: 'ignore' },
      deletedUnmatched: 'like-unmatched',
      groups: new Map(),
      mergeQueueTarget: undefined,
      maxTargets: undefined,
      workspaces,
    },
  };
}

function managerName(workspace: Workspace): string {
  const rules = workspace.rules;
  if (!rules) return 'the package manager';
  if (rules.manager === 'yarn') return rules.berry ? 'yarn berry' : 'turbo (yarn classic)';
  return rules.manager === 'npm' ? 'turbo (npm workspaces)' : 'pnpm';
}

/**
 * Each commit's lockfile change attributed (when one of the two views attributes it), by sha: the lockfile
 * at the commit's first parent and at the commit, from git's objects.
 */
export async function historyLockfiles(
  views: (Workspace | undefined)[],
  commits: readonly HistoryCommit[],
  options: { cwd: string; timeoutMs: number },
): Promise<Map<string, Map<string, Attribution>>> {
  const found = new Map<string, Map<string, Attribution>>();
  const workspace = views.find((view) => view?.rules?.lockfileMode === 'resolved');
  const file = workspace?.rules?.lockfile;
  if (!workspace || !file) return found;
  for (const commit of commits) {
    if (!commit.files.some((changed) => changed.path === file)) continue;
    let attribution: Attribution;
    try {
      const [base, head] = await blobsAt([`${commit.sha}^1`, commit.sha], file, options);
      attribution = attributeLockfile(workspace, file, base, head);
    } catch (error) {
      if (!(error instanceof CommandError)) throw error;
      attribution = { reason: error.message };
    }
    found.set(commit.sha, new Map([[file, attribution]]));
  }
  return found;
}

// What the package manager's own files claim, by the workspace's lockfile rule (workspace-settings.ts):
// - root: nothing special; the lockfile is a file of the root package, as pnpm's change filter has it;
// - ignore: nothing at all, as yarn berry's `--since` leaves its lockfile and its own files out;
// - resolved: the lockfile claims the packages whose resolved dependencies it changed (as turbo does);
//   yarn berry's cache and install state, which only mirror the lockfile, claim nothing. A change that
//   could not be attributed goes to the rules and `unmatched`, with the reason.
import type { Attribution } from './lockfile-attribution.js';
import type { Workspace } from './workspace.js';

export type ManagerFileClaim = { packages: ReadonlyMap<string, string> } | { unattributed: string };

const NOTHING: ManagerFileClaim = { packages: new Map() };

export function managerFileClaim(
  workspace: Workspace,
  path: string,
  lockfiles: ReadonlyMap<string, Attribution> | undefined,
): ManagerFileClaim | undefined {
  const rules = workspace.rules;
  if (!rules || rules.lockfileMode === 'root' || !workspace.isManagerFile(path)) return undefined;
  if (rules.lockfileMode === 'ignore' || path !== rules.lockfile) return NOTHING;
  const attribution = lockfiles?.get(path);
  if (!attribution) return { unattributed: 'its base was not read' };
  return 'packages' in attribution ? attribution : { unattributed: attribution.reason };
}

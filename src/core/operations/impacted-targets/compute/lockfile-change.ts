// The lockfile's two sides, when a change touches it and the rules attribute it (lockfile: resolved): its
// text at the base and at the head, read from git objects (`git cat-file blob <commit>:<file>`, no work
// tree, no symlink followed, capped like every lockfile), then attributed. Without a base commit (changed
// files from a list or the GitHub API) there is nothing to compare: the reason says so.
import type { ChangedFile } from './impact.js';
import { attributeLockfile, type Attribution } from './lockfile-attribution.js';
import { CommandError, lastLine, runCommand } from './run-command.js';
import type { Workspace } from './workspace.js';
import { MAX_LOCKFILE_BYTES } from './workspace-tree.js';

export interface LockfileSides {
  base?: string;
  head?: string;
  cwd: string;
  timeoutMs: number;
  /** Where the changed files came from, in words, for the reason when there is no base. */
  from: string;
}

/** The attribution of each lockfile the change touches (at most one: the manager's), by path. */
export async function lockfileAttributions(
  workspace: Workspace | undefined,
  files: readonly ChangedFile[],
  sides: LockfileSides,
): Promise<Map<string, Attribution>> {
  const attributions = new Map<string, Attribution>();
  const rules = workspace?.rules;
  if (!workspace || rules?.lockfileMode !== 'resolved') return attributions;
  const file = rules.lockfile;
  if (!files.some((changed) => changed.path === file)) return attributions;
  if (!sides.base || !sides.head) {
    attributions.set(file, {
      reason: `the changed files came from ${sides.from || 'a list'}, which names no base commit to compare ${file} with`,
    });
    return attributions;
  }
  try {
    const [base, head] = await Promise.all([
      blobAt(sides.base, file, sides),
      blobAt(sides.head, file, sides),
    ]);
    attributions.set(file, attributeLockfile(workspace, file, base, head));
  } catch (error) {
    if (!(error instanceof CommandError)) throw error;
    attributions.set(file, { reason: error.message });
  }
  return attributions;
}

/** The file's text in that commit; undefined when the commit has no such file. */
export async function blobAt(
  commit: string,
  file: string,
  options: { cwd: string; timeoutMs: number },
): Promise<string | undefined> {
  const result = await runCommand('git', ['cat-file', 'blob', `${commit}:${file}`], {
    cwd: options.cwd,
    timeoutMs: options.timeoutMs,
    maxOutputBytes: MAX_LOCKFILE_BYTES,
  });
  if (result.exitCode === 0) return result.stdout.toString('utf8');
  if (/does not exist|exists on disk, but not in|not a valid object name/i.test(result.stderr))
    return undefined;
  throw new CommandError(`git could not read ${file} at ${commit.slice(0, 12)}: ${lastLine(result.stderr)}`);
}

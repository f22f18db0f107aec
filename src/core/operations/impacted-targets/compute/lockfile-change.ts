// The lockfile's two sides, when a change touches it and the rules attribute it (lockfile: resolved): its
// text at the base and at the head, read from git objects (`git cat-file --batch`, `<commit>:<file>`, no work
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
    const [base, head] = await blobsAt([sides.base, sides.head], file, sides);
    attributions.set(file, attributeLockfile(workspace, file, base, head));
  } catch (error) {
    if (!(error instanceof CommandError)) throw error;
    attributions.set(file, { reason: error.message });
  }
  return attributions;
}

/**
 * The file's text in each commit, undefined where the commit has no such file: one `git cat-file --batch`
 * for all of them (a process, not one per side), each answer capped like every lockfile.
 */
export async function blobsAt(
  commits: readonly string[],
  file: string,
  options: { cwd: string; timeoutMs: number },
): Promise<(string | undefined)[]> {
  const shown = `git cat-file --batch (${file})`;
  const result = await runCommand('git', ['cat-file', '--batch'], {
    cwd: options.cwd,
    timeoutMs: options.timeoutMs,
    maxOutputBytes: commits.length * (MAX_LOCKFILE_BYTES + 1024),
    stdin: commits.map((commit) => `${commit}:${file}\n`).join(''),
  });
  if (result.exitCode !== 0) throw new CommandError(`${shown} failed: ${lastLine(result.stderr)}`);
  const out = result.stdout;
  const texts: (string | undefined)[] = [];
  let at = 0;
  for (const commit of commits) {
    const end = out.indexOf(0x0a, at);
    if (end < 0) throw new CommandError(`${shown} gave no answer for ${commit.slice(0, 12)}`);
    const header = out.toString('utf8', at, end);
    at = end + 1;
    const blob = /^[0-9a-f]+ blob (\d+)$/.exec(header);
    if (!blob) {
      if (header.endsWith(' missing')) {
        texts.push(undefined);
        continue;
      }
      throw new CommandError(
        `${shown}: ${file} at ${commit.slice(0, 12)} is not a file (${header.slice(0, 80)})`,
      );
    }
    const size = Number(blob[1]);
    if (size > MAX_LOCKFILE_BYTES) {
      throw new CommandError(
        `${file} at ${commit.slice(0, 12)} is ${size} bytes, more than ${MAX_LOCKFILE_BYTES}`,
      );
    }
    texts.push(out.toString('utf8', at, at + size));
    at += size + 1;
  }
  return texts;
}

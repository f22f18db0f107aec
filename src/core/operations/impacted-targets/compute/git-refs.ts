// Which of the target branch's refs a clone has, read from its files instead of asking git: each git
// process costs a start, and the usual checkout (a `.git` folder, refs as files or in packed-refs) has
// one of the two refs at most. Anything else (a worktree's `.git` file, GIT_DIR, reftable, a branch name
// that is not a plain path) answers "unknown", and git is asked about both refs as before.
import { readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { gitLocationOverridden } from './run-command.js';

/** How many folders up from the working directory a `.git` folder is looked for. */
const MAX_LEVELS = 64;

/** The refs among `refs` that exist, in order; undefined when the clone's files cannot say for sure. */
export async function presentRefs(cwd: string, refs: readonly string[]): Promise<string[] | undefined> {
  if (!refs.every(isPlainRef)) return undefined;
  const gitDir = await findGitDir(cwd);
  if (!gitDir) return undefined;
  const [config, packed] = await Promise.all([
    readText(join(gitDir, 'config')),
    readText(join(gitDir, 'packed-refs')),
  ]);
  if (config === undefined || /refstorage|worktreeconfig/i.test(config)) return undefined;
  const packedRefs = new Set((packed ?? '').split('\n').map((line) => line.split(' ')[1]));
  const present: string[] = [];
  for (const ref of refs) {
    if (packedRefs.has(ref) || (await isFile(join(gitDir, ref)))) present.push(ref);
  }
  return present;
}

/** `refs/...` made of plain path segments: nothing that could climb out of the refs folder. */
function isPlainRef(ref: string): boolean {
  return (
    /^refs\/[A-Za-z0-9._\-/]+$/.test(ref) &&
    !ref.split('/').some((part) => part === '' || part.startsWith('.'))
  );
}

async function findGitDir(cwd: string): Promise<string | undefined> {
  if (gitLocationOverridden()) return undefined;
  let dir = cwd;
  for (let level = 0; level < MAX_LEVELS; level++) {
    const candidate = join(dir, '.git');
    const found = await stat(candidate).catch(() => undefined);
    if (found) return found.isDirectory() ? candidate : undefined;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
  return undefined;
}

async function readText(path: string): Promise<string | undefined> {
  return readFile(path, 'utf8').catch(() => undefined);
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isFile() ?? false;
}

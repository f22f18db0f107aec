// Where the plan's report is written: a file named by its content, in a directory of the run's user
// only, so that the same inputs and seeds give the same path as well as the same JSON (a tool comparing
// two --json runs byte for byte sees no difference). The directory is ours or refused: made 0700, never
// followed through a symlink, and the file is written under a private name then renamed into place.
import { createHash, randomBytes } from 'node:crypto';
import { lstat, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ContextError } from '../../errors.js';
import type { StepFileTarget } from '../step-file.js';

export async function writeReportFile(target: StepFileTarget, content: string): Promise<string> {
  const text = target.redact(content);
  const uid = process.getuid?.() ?? 0;
  const directory = join(target.tempDir, `merge-queue-action-plans-${uid}`);
  await mkdir(directory, { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw refused(directory, error.message);
  });
  const about = await lstat(directory);
  if (!about.isDirectory() || (process.getuid && about.uid !== uid) || (about.mode & 0o077) !== 0) {
    throw refused(directory, 'it is not a private directory of this user');
  }
  const name = `queue-plan-${createHash('sha256').update(text).digest('hex').slice(0, 16)}.json`;
  const path = join(directory, name);
  const draft = join(directory, `.${name}.${randomBytes(6).toString('hex')}`);
  try {
    await writeFile(draft, text, { encoding: 'utf8', flag: 'wx', mode: 0o600 });
    await rename(draft, path);
  } catch (error) {
    await rm(draft, { force: true });
    throw refused(directory, (error as Error).message);
  }
  return path;
}

function refused(directory: string, why: string): ContextError {
  return new ContextError(
    `Cannot write the plan's report under ${directory}: ${why}. Point TMPDIR (or the runner's temp directory) at a directory only this user can write.`,
  );
}

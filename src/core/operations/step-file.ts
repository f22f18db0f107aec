// Files an operation hands to later steps (a report, the metrics text, a long answer): under the host's
// temp directory, in a directory of their own so that two steps never overwrite each other, with the
// run's secrets hidden as in every other thing the run writes. A temp directory that is missing or not
// writable is one line that says which and what to do, not a raw ENOENT.
import { constants } from 'node:fs';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ContextError } from '../errors.js';
import type { OperationContext } from './types.js';

/** A new file only, not followed if a symlink is there. */
const EXCLUSIVE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

export type StepFileTarget = Pick<OperationContext<unknown>, 'tempDir' | 'redact'>;

/** Writes `content` (secrets hidden) to a new file named `fileName` and returns its absolute path. */
export function writeStepFile(target: StepFileTarget, fileName: string, content: string): Promise<string> {
  return writeHidden(target, fileName, target.redact(content));
}

/**
 * Writes `pieces` (UTF-8), one after another, to a new file named `fileName` and returns its absolute
 * path. Each piece has been through `target.redact` already, whole: a report made page by page hides the
 * secrets of each item as its page arrives, while the next page is on its way, instead of all at the
 * end. Each piece must be whole JSON values or the punctuation between them, so that no secret spans two.
 */
export function writeRedactedStepFile(
  target: StepFileTarget,
  fileName: string,
  pieces: readonly Buffer[],
): Promise<string> {
  return writeHidden(target, fileName, pieces);
}

async function writeHidden(
  target: StepFileTarget,
  fileName: string,
  content: string | readonly Buffer[],
): Promise<string> {
  let directory: string;
  try {
    directory = await mkdtemp(join(target.tempDir, 'merge-queue-action-'));
  } catch (error) {
    throw tempDirError(target.tempDir, fileName, error);
  }
  const path = join(directory, fileName);
  try {
    // Created here and nowhere else: never through a symlink or over a file that is already there.
    if (typeof content === 'string') await writeFile(path, content, { encoding: 'utf8', flag: EXCLUSIVE });
    else await writePieces(path, content);
  } catch (error) {
    await rm(directory, { recursive: true, force: true }).catch(() => undefined);
    throw tempDirError(target.tempDir, fileName, error);
  }
  return path;
}

/**
 * The pieces in one vectored write (fs.writeFile would write a list piece by piece, and one buffer 512 KiB
 * at a time), again from where it stopped if the system wrote only part.
 */
async function writePieces(path: string, pieces: readonly Buffer[]): Promise<void> {
  const file = await open(path, EXCLUSIVE);
  try {
    let left: readonly Buffer[] = pieces.filter((piece) => piece.length > 0);
    while (left.length) {
      const { bytesWritten } = await file.writev(left as Buffer[]);
      // Never seen on a regular file, but it would otherwise ask again forever.
      if (bytesWritten === 0) throw Object.assign(new Error('nothing was written'), { code: 'EIO' });
      left = after(left, bytesWritten);
    }
  } finally {
    await file.close();
  }
}

/** What is left of `pieces` once their first `bytes` bytes are written. */
function after(pieces: readonly Buffer[], bytes: number): readonly Buffer[] {
  let index = 0;
  while (index < pieces.length && bytes >= pieces[index]!.length) bytes -= pieces[index++]!.length;
  if (index === pieces.length) return [];
  return [pieces[index]!.subarray(bytes), ...pieces.slice(index + 1)];
}

function tempDirError(tempDir: string, fileName: string, error: unknown): ContextError {
  const code = (error as NodeJS.ErrnoException).code;
  const problem =
    code === 'ENOENT'
      ? 'does not exist'
      : code === 'ENOTDIR'
        ? 'is not a directory'
        : code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
          ? 'cannot be written (permission denied or read-only)'
          : code === 'ENOSPC' || code === 'EDQUOT'
            ? 'has no space left'
            : `cannot be written (${code ?? (error as Error).message})`;
  return new ContextError(
    `${fileName} could not be written: the temporary directory "${tempDir}" ${problem}. Give the runner a writable temporary directory (RUNNER_TEMP on GitHub, TMPDIR elsewhere).`,
  );
}

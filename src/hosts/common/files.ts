// Outputs and summaries written to files whose paths the user gives (--outputs-file, --summary-file,
// --dotenv-file): the way CircleCI, Jenkins, GitLab and a laptop hand them to later steps.
import { appendFile, lstat, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';

/** Refuses a path that exists and is not a regular file (a directory, a link, a device). */
async function checkWritable(path: string, flag: string): Promise<void> {
  const stat = await lstat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (stat && !stat.isFile()) {
    throw new Error(`${flag} ${path} exists and is not a regular file; give a path to a file.`);
  }
}

/** One line for a file that could not be written: which flag, which path, why. */
function failure(flag: string, path: string, error: unknown): Error {
  const reason = error instanceof Error ? error.message : String(error);
  return new Error(
    reason.startsWith(flag) ? reason : `Could not write ${flag} ${path}: ${reason.replace(/\s+/g, ' ')}`,
  );
}

/**
 * A JSON object of every output set so far, rewritten whole on each call (outputs may be set more than
 * once in a run, and a reader must never see half a file's worth).
 */
export function jsonOutputsFile(path: string, cwd: string, flag = '--outputs-file') {
  const file = resolve(cwd, path);
  const outputs: Record<string, string> = {};
  return async (values: Record<string, string>): Promise<void> => {
    Object.assign(outputs, values);
    try {
      await checkWritable(file, flag);
      await writeFile(file, `${JSON.stringify(outputs, null, 2)}\n`, 'utf8');
    } catch (error) {
      throw failure(flag, file, error);
    }
  };
}

/** A text file the run appends to (the markdown summary, a dotenv report). */
export function appendedFile(path: string, cwd: string, flag: string) {
  const file = resolve(cwd, path);
  return {
    path: file,
    async append(text: string): Promise<void> {
      try {
        await checkWritable(file, flag);
        await appendFile(file, text, 'utf8');
      } catch (error) {
        throw failure(flag, file, error);
      }
    },
    async replace(text: string): Promise<void> {
      try {
        await checkWritable(file, flag);
        await writeFile(file, text, 'utf8');
      } catch (error) {
        throw failure(flag, file, error);
      }
    },
  };
}

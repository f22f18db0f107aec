// Outputs and summaries written to files whose paths the user gives (--outputs-file, --summary-file,
// --dotenv-file): the way CircleCI, Jenkins, GitLab and a laptop hand them to later steps. The path `-` is
// standard output, written once the run is over (a JSON object or a report is whole, or not there).
import { appendFile, lstat, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ContextError } from '../../core/errors.js';
import type { LogStream } from './log.js';

/** The path that means standard output (or standard input, for a file we read). */
export const STANDARD_STREAM = '-';

/** Refuses a path that exists and is not a regular file (a directory, a link, a device). */
async function checkWritable(path: string, flag: string): Promise<void> {
  const stat = await lstat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (stat && !stat.isFile()) {
    throw new ContextError(`${flag} ${path} exists and is not a regular file; give a path to a file.`);
  }
}

/** One line for a file that could not be written (a bad input: exit 2): which flag, which path, why. */
function failure(flag: string, path: string, error: unknown): ContextError {
  if (error instanceof ContextError) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new ContextError(`Could not write ${flag} ${path}: ${reason.replace(/\s+/g, ' ')}`);
}

/**
 * A JSON object of every output set so far, rewritten whole on each call (outputs may be set more than
 * once in a run, and a reader must never see half a file's worth).
 */
export function jsonOutputsFile(path: string, cwd: string, stdout: LogStream, flag = '--outputs-file') {
  const outputs: Record<string, string> = {};
  const text = () => `${JSON.stringify(outputs, null, 2)}\n`;
  if (path === STANDARD_STREAM) {
    return {
      set: async (values: Record<string, string>) => void Object.assign(outputs, values),
      finish: async () => void stdout.write(text()),
    };
  }
  const file = resolve(cwd, path);
  return {
    async set(values: Record<string, string>): Promise<void> {
      Object.assign(outputs, values);
      try {
        await checkWritable(file, flag);
        await writeFile(file, text(), 'utf8');
      } catch (error) {
        throw failure(flag, file, error);
      }
    },
    finish: async () => undefined,
  };
}

/** A text file the run appends to (the markdown summary, a dotenv report). */
export function appendedFile(path: string, cwd: string, stdout: LogStream, flag: string) {
  if (path === STANDARD_STREAM) return standardOutput(stdout);
  const file = resolve(cwd, path);
  return {
    path: file,
    finish: async () => undefined,
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

/** appendedFile's `-`: what was appended, or the last text that replaced it, written at the end. */
function standardOutput(stdout: LogStream) {
  let text = '';
  return {
    path: STANDARD_STREAM,
    append: async (more: string) => void (text += more),
    replace: async (whole: string) => void (text = whole),
    finish: async () => void (text && stdout.write(text)),
  };
}

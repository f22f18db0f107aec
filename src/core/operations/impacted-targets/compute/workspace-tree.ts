// The files a workspace is read from, behind one small interface: the checkout on disk here, or a
// recorded tree in tests and history replays. On disk, a PR's author controls every file, name and
// symlink: each file is found by its real path inside the checkout (a manifest that is a symlink out of
// it, or a workspace entry with `..`, is refused), opened once without following a last symlink or
// waiting on a fifo, checked with fstat to be a regular file, and read up to a cap whatever its size says.
import { closeSync, constants, fstatSync, openSync, readSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CheckoutFileRefusal, realPathInCheckout } from '../../../files.js';
import { WorkspaceError } from './workspace-error.js';

/** A manifest or pnpm-workspace.yaml larger than this is refused. */
const MAX_MANIFEST_BYTES = 1024 * 1024;
/** A lockfile runs to megabytes in a large workspace; past this it is refused too. */
export const MAX_LOCKFILE_BYTES = 32 * 1024 * 1024;
const MAX_WALKED_DIRECTORIES = 200_000;
/** A named pipe is opened without waiting for a writer; it is then refused as not a file. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

export interface WorkspaceTree {
  /** The text of the file at `path` (relative, with `/`); undefined when there is no regular file there. */
  read(path: string, maxBytes?: number): string | undefined;
  /**
   * `base` (when it is a directory) and every directory below it, at most `levels` deep, relative with
   * `/`; node_modules and dot-directories are not entered ('' is the root).
   */
  directories(base: string, levels: number): string[];
}

export class CheckoutTree implements WorkspaceTree {
  private buffer = Buffer.allocUnsafe(64 * 1024);

  constructor(private readonly root: string) {}

  read(path: string, maxBytes = MAX_MANIFEST_BYTES): string | undefined {
    let fd: number;
    try {
      fd = openSync(realPathInCheckout(this.root, path), OPEN_FLAGS);
    } catch (error) {
      if (error instanceof CheckoutFileRefusal && error.reason === 'outside') {
        throw new WorkspaceError(`${path} ${error.message}`);
      }
      return undefined;
    }
    try {
      return fstatSync(fd).isFile() ? this.readOpened(fd, path, maxBytes) : undefined;
    } catch (error) {
      if (error instanceof WorkspaceError) throw error;
      return undefined;
    } finally {
      closeSync(fd);
    }
  }

  /** Reads through one buffer that is reused, grown up to the cap when a file needs it. */
  private readOpened(fd: number, path: string, maxBytes: number): string {
    const tooLarge = () => new WorkspaceError(`${path} is over ${maxBytes} bytes`);
    let filled = 0;
    for (;;) {
      if (filled === this.buffer.length) {
        if (filled > maxBytes) throw tooLarge();
        const grown = Buffer.allocUnsafe(Math.min(maxBytes + 1, filled * 2));
        this.buffer.copy(grown, 0, 0, filled);
        this.buffer = grown;
      }
      const read = readSync(fd, this.buffer, filled, this.buffer.length - filled, null);
      if (read === 0) break;
      filled += read;
    }
    if (filled > maxBytes) throw tooLarge();
    return this.buffer.toString('utf8', 0, filled);
  }

  directories(base: string, levels: number): string[] {
    const found: string[] = [];
    const walk = (dir: string, depth: number): void => {
      let entries;
      try {
        entries = readdirSync(join(this.root, dir), { withFileTypes: true });
      } catch {
        return;
      }
      if (depth === 0) found.push(dir);
      if (levels === 0) return;
      for (const entry of entries) {
        if (!entry.isDirectory() || entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
        const path = dir ? `${dir}/${entry.name}` : entry.name;
        found.push(path);
        if (found.length > MAX_WALKED_DIRECTORIES) {
          throw new WorkspaceError(`the workspace reaches more than ${MAX_WALKED_DIRECTORIES} directories`);
        }
        if (depth + 1 < levels) walk(path, depth + 1);
      }
    };
    walk(base, 0);
    return found;
  }
}

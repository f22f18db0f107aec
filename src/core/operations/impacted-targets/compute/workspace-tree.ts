// The files a workspace is read from, behind one small interface: the checkout on disk here, or a
// recorded tree in tests and history replays. On disk, a PR's author controls every file, name and
// symlink: each file is found by its real path inside the checkout (a manifest that is a symlink out of
// it, or a workspace entry with `..`, is refused), opened once without following a last symlink or
// waiting on a fifo, checked with fstat to be a regular file, and read to the size fstat gives (to its end
// when that says 0, as /proc's files do), never past a cap.
// The real path costs a system call per path segment: the directories a walk has listed are known to be
// real ones (a listing marks a symlink as one, and the walk never enters it) under a base whose real path
// was found once, so a file in one of them is opened at its known real path; a last segment that turns
// out to be a symlink there (ELOOP under O_NOFOLLOW) is resolved the long way.
import { closeSync, constants, fstatSync, openSync, readSync, readdirSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
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
  /** Directories (relative, '' the root) by their real path, for those known to be real directories. */
  private readonly realDirectories = new Map<string, string>();
  private realRootFound = false;

  constructor(private readonly root: string) {}

  read(path: string, maxBytes = MAX_MANIFEST_BYTES): string | undefined {
    const fd = this.openAtRealPath(path);
    if (fd === undefined) return undefined;
    try {
      const stats = fstatSync(fd);
      return stats.isFile() ? this.readOpened(fd, path, maxBytes, stats.size) : undefined;
    } catch (error) {
      if (error instanceof WorkspaceError) throw error;
      return undefined;
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Reads through one buffer that is reused, grown up to the cap when a file needs it. The read stops at
   * the size fstat gave; a file that says 0 (as /proc's do) is read to its end, up to the cap.
   */
  private readOpened(fd: number, path: string, maxBytes: number, size: number): string {
    const tooLarge = () => new WorkspaceError(`${path} is over ${maxBytes} bytes`);
    if (size > maxBytes) throw tooLarge();
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
      if (filled === size) break;
    }
    if (filled > maxBytes) throw tooLarge();
    return this.buffer.toString('utf8', 0, filled);
  }

  /** The open descriptor of the file's real path inside the checkout; undefined when there is none. */
  private openAtRealPath(path: string): number | undefined {
    const known = this.knownRealPath(path);
    if (known !== undefined) {
      try {
        return openSync(known, OPEN_FLAGS);
      } catch (error) {
        // A symlink as the last segment may still lead to a file inside the checkout.
        if ((error as NodeJS.ErrnoException).code !== 'ELOOP') return undefined;
      }
    }
    try {
      return openSync(realPathInCheckout(this.root, path), OPEN_FLAGS);
    } catch (error) {
      if (error instanceof CheckoutFileRefusal && error.reason === 'outside') {
        throw new WorkspaceError(`${path} ${error.message}`);
      }
      return undefined;
    }
  }

  /** `path`'s real path when its directory is known to be a real one, else undefined. */
  private knownRealPath(path: string): string | undefined {
    const slash = path.lastIndexOf('/');
    const name = path.slice(slash + 1);
    if (name === '' || name === '.' || name === '..') return undefined;
    const directory = slash < 0 ? '' : path.slice(0, slash);
    if (directory === '') this.findRealRoot();
    const real = this.realDirectories.get(directory);
    return real === undefined ? undefined : `${real}/${name}`;
  }

  /** The checkout's real path, found once; none is kept when it cannot be found. */
  private findRealRoot(): void {
    if (this.realRootFound) return;
    this.realRootFound = true;
    try {
      this.realDirectories.set('', realpathSync.native(resolve(this.root)));
    } catch {
      // Every read then goes the long way, which says what is wrong.
    }
  }

  /** A walk's base: its real path when it lies inside the checkout, else undefined. */
  private realBase(base: string): string | undefined {
    if (base === '') {
      this.findRealRoot();
      return this.realDirectories.get('');
    }
    try {
      return realPathInCheckout(this.root, base);
    } catch {
      return undefined;
    }
  }

  directories(base: string, levels: number): string[] {
    const found: string[] = [];
    const realBase = this.realBase(base);
    if (realBase !== undefined) this.realDirectories.set(base, realBase);
    const walk = (dir: string, depth: number): void => {
      let entries;
      try {
        entries = readdirSync(join(this.root, dir), { withFileTypes: true });
      } catch {
        return;
      }
      if (depth === 0) found.push(dir);
      if (levels === 0) return;
      const realDir = this.realDirectories.get(dir);
      for (const entry of entries) {
        if (!entry.isDirectory() || entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
        const path = dir ? `${dir}/${entry.name}` : entry.name;
        // Listed as a directory, not a symlink: inside its parent's real path.
        if (realDir !== undefined) this.realDirectories.set(path, `${realDir}/${entry.name}`);
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

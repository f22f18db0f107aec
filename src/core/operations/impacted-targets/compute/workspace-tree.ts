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
   * Every directory within reach, each once, relative with `/` ('' is the root): each base of `reach`
   * (when it is a directory) and the directories below it, at most its number of levels deep;
   * node_modules and dot-directories are not entered. A base that leads out of the checkout is refused.
   */
  directories(reach: ReadonlyMap<string, number>): string[];
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

  /**
   * A walk's base: its real path when it lies inside the checkout, undefined when it is no directory.
   * One that leads out is refused by its own name, never by what lies there.
   */
  private realBase(base: string): string | undefined {
    if (base === '') {
      this.findRealRoot();
      return this.realDirectories.get('');
    }
    try {
      return realPathInCheckout(this.root, base);
    } catch (error) {
      if (error instanceof CheckoutFileRefusal && error.reason === 'outside') {
        throw new WorkspaceError(`the workspace directory ${base} ${error.message}`);
      }
      return undefined;
    }
  }

  /**
   * One walk for every base: a directory is listed once, however many bases reach it. The walk goes
   * through real directories only (a listing marks a symlink, which is not entered); a base it does not
   * reach that way (a symlink inside the checkout, say) starts a walk of its own from its real path.
   */
  directories(reach: ReadonlyMap<string, number>): string[] {
    const walk = new Walk(this.root, reach, this.realDirectories);
    for (const base of [...reach.keys()].sort()) {
      if (walk.listed.has(base)) continue;
      const realBase = this.realBase(base);
      if (realBase === undefined) continue;
      this.realDirectories.set(base, realBase);
      walk.visit(base, -1);
    }
    return walk.found;
  }
}

/** One walk over the checkout for several bases, each with how many levels below it are wanted. */
class Walk {
  readonly found: string[] = [];
  readonly listed = new Set<string>();
  /** Directories above a base: entered to reach it, listed only when a base reaches them too. */
  private readonly aboveBases = new Set<string>();

  constructor(
    private readonly root: string,
    private readonly reach: ReadonlyMap<string, number>,
    private readonly realDirectories: Map<string, string>,
  ) {
    for (const base of reach.keys()) {
      for (let slash = base.lastIndexOf('/'); slash > 0; slash = base.lastIndexOf('/', slash - 1)) {
        this.aboveBases.add(base.slice(0, slash));
      }
      if (base !== '') this.aboveBases.add('');
    }
  }

  /** `dir` with `inherited` levels left from the bases above it (-1: none reaches it). */
  visit(dir: string, inherited: number): void {
    const levels = Math.max(inherited, this.reach.get(dir) ?? -1);
    const above = this.aboveBases.has(dir);
    let entries;
    try {
      entries = readdirSync(join(this.root, dir), { withFileTypes: true });
    } catch {
      return;
    }
    this.listed.add(dir);
    if (levels >= 0) this.add(dir);
    if (levels <= 0 && !above) return;
    const realDir = this.realDirectories.get(dir);
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      const path = dir ? `${dir}/${entry.name}` : entry.name;
      // Listed as a directory, not a symlink: inside its parent's real path.
      if (realDir !== undefined) this.realDirectories.set(path, `${realDir}/${entry.name}`);
      if (this.aboveBases.has(path) || this.reach.has(path)) this.visit(path, levels - 1);
      // The last level is known to be there from its parent's listing: it is not listed itself.
      else if (levels === 1) this.add(path);
      else if (levels > 1) this.visit(path, levels - 1);
    }
  }

  private add(dir: string): void {
    this.found.push(dir);
    if (this.found.length > MAX_WALKED_DIRECTORIES) {
      throw new WorkspaceError(`the workspace reaches more than ${MAX_WALKED_DIRECTORIES} directories`);
    }
  }
}

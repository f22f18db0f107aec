// Reading files: a file a user names in an input (impacted targets, JUnit reports), and a file of the
// checkout, which a pull request's author controls (readCheckoutFile: by real path inside the checkout).
// The path is untrusted: it may be a fifo that never ends, a symlink to /dev/zero, a directory, or a file of many
// gigabytes. It is opened once (without blocking, so that a fifo cannot hold the open), checked through
// that same descriptor to be a regular file (so that nothing is swapped in between), and read
// asynchronously up to a size limit and within a deadline. Every refusal is one InputError line.
import { closeSync, constants, fstatSync, openSync, realpathSync, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { InputError } from './errors.js';

export interface InputFileRequest {
  /** The input that named the file, for the error line. */
  input: string;
  /** The path as given; relative paths are taken from `cwd`. */
  path: string;
  cwd: string;
  /** More than this is refused before a byte is read (and a file that grows past it while read). */
  maxBytes: number;
  /** The read ends by then (ms since the epoch); a stuck disk or network mount is refused with one line. */
  deadline?: number;
  /** Told what to do when the file is missing; the default says to check the path. */
  missingAdvice?: string;
  /** Handed each piece of the content as it is read, in order, while the next piece is being read. */
  onPiece?: (piece: Buffer) => void;
}

export interface InputFile {
  /** The absolute path read. */
  path: string;
  /** How error lines name the file: `"given" (absolute)` or `"absolute"`. */
  where: string;
  content: Buffer;
}

const CHUNK_BYTES = 1024 * 1024;

/** A regular file open to read, or what the path led to instead (`a fifo`, `a directory`). */
export type OpenedFile = { handle: FileHandle; size: number } | { notAFile: string };

/**
 * Opens `path` to read without blocking (opening a fifo would otherwise wait for a writer, beyond any
 * deadline) and checks through that same descriptor, so that nothing is swapped in between, that it is a
 * regular file; anything else is closed at once. An error opening it is thrown as Node gives it.
 * `extraFlags` adds to the open (O_NOFOLLOW for a real path, which no symlink may replace).
 */
export async function openRegularFile(path: string, extraFlags = 0): Promise<OpenedFile> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | extraFlags);
  try {
    const stats = await handle.stat();
    if (stats.isFile()) return { handle, size: stats.size };
    await handle.close();
    return { notAFile: kindOf(stats) };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * openRegularFile without a round trip to the thread pool for the open, the check and, later, the close
 * (closeSync): for reading many small files one after another, where those round trips cost more than
 * the reads. The open cannot block, as above; the descriptor is the caller's to close.
 */
export function openRegularFileSync(
  path: string,
  extraFlags = 0,
): { fd: number; size: number } | { notAFile: string } {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | extraFlags);
  try {
    const stats = fstatSync(fd);
    if (stats.isFile()) return { fd, size: stats.size };
    closeSync(fd);
    return { notAFile: kindOf(stats) };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------------
// Files of the checkout: a pull request's author wrote every one of them, their names and their symlinks.

/** Why a file of the checkout was not read, as a phrase after its name (`"x.yml" is a fifo, ...`). */
export class CheckoutFileRefusal extends Error {
  constructor(
    readonly reason: 'missing' | 'outside' | 'not-a-file' | 'too-large' | 'unreadable',
    problem: string,
  ) {
    super(problem);
  }
}

/**
 * The real path of `path` (relative to the checkout `root`, or absolute) when it lies inside the real
 * checkout, every symlink followed; a symlink that leads outside it (to /proc/self/environ, to the
 * runner's home) is refused, as is anything missing.
 */
export function realPathInCheckout(root: string, path: string): string {
  let realRoot: string;
  let real: string;
  try {
    realRoot = realpathSync.native(resolve(root));
    real = realpathSync.native(resolve(root, path));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new CheckoutFileRefusal('missing', 'does not exist');
    if (code === 'ELOOP') throw new CheckoutFileRefusal('unreadable', 'is a symlink loop');
    throw new CheckoutFileRefusal('unreadable', `cannot be read (${code ?? 'unknown error'})`);
  }
  const inside = relative(realRoot, real);
  if (inside.startsWith('..') || isAbsolute(inside)) {
    throw new CheckoutFileRefusal(
      'outside',
      'leads outside the working directory (a symlink, or a path with ..), where nothing is read',
    );
  }
  return real;
}

/**
 * The one way a file of the checkout is read (a config, a manifest, CODEOWNERS, a test's source): by its
 * real path inside the checkout, a regular file only (no fifo, device or directory), and at most
 * `maxBytes` whatever its size says (a /proc file says 0 and never ends): the read stops at one byte past
 * the cap and refuses. Every refusal is a CheckoutFileRefusal; the content is never part of one.
 */
export async function readCheckoutFile(root: string, path: string, maxBytes: number): Promise<Buffer> {
  const real = realPathInCheckout(root, path);
  let opened: OpenedFile;
  try {
    opened = await openRegularFile(real, constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new CheckoutFileRefusal('missing', 'does not exist');
    throw new CheckoutFileRefusal('unreadable', `cannot be opened (${code ?? 'unknown error'})`);
  }
  if ('notAFile' in opened) {
    throw new CheckoutFileRefusal('not-a-file', `is ${opened.notAFile}, not a regular file`);
  }
  const tooLarge = () =>
    new CheckoutFileRefusal('too-large', `is larger than the ${sizeOf(maxBytes)} read of such a file`);
  try {
    if (opened.size > maxBytes) throw tooLarge();
    return await readAll(opened.handle, opened.size, { maxBytes }, tooLarge);
  } catch (error) {
    if (error instanceof CheckoutFileRefusal) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new CheckoutFileRefusal('unreadable', `cannot be read (${code ?? 'unknown error'})`);
  } finally {
    await opened.handle.close();
  }
}

/**
 * A checkout file's text (readCheckoutFile), or undefined when it is refused for any reason: for files
 * that only add to what the run shows (CODEOWNERS, the line of a failed test), never worth a failure.
 */
export async function readCheckoutText(
  root: string,
  path: string,
  maxBytes: number,
): Promise<string | undefined> {
  try {
    return (await readCheckoutFile(root, path, maxBytes)).toString('utf8');
  } catch (error) {
    if (error instanceof CheckoutFileRefusal) return undefined;
    throw error;
  }
}

export async function readInputFile(request: InputFileRequest): Promise<InputFile> {
  const path = resolve(request.cwd, request.path);
  const where = path === request.path ? `"${path}"` : `"${request.path}" (${path})`;
  const fail = (problem: string, fix: string) => new InputError(request.input, `${where} ${problem}`, fix);
  let opened: OpenedFile;
  try {
    opened = await openRegularFile(path);
  } catch (error) {
    throw openFailure(error, fail, request.missingAdvice);
  }
  if ('notAFile' in opened) {
    throw fail(
      `is ${opened.notAFile}, not a regular file`,
      'Give the path of a regular file (a symlink is followed; it must lead to a file).',
    );
  }
  const { handle, size } = opened;
  try {
    if (size > request.maxBytes) {
      throw fail(
        `is ${mebibytes(size)}, more than the ${mebibytes(request.maxBytes, 0)} this input reads`,
        'Check that it is the right file; write less into it.',
      );
    }
    return { path, where, content: await readAll(handle, size, request, fail) };
  } finally {
    await handle.close();
  }
}

async function readAll(
  handle: FileHandle,
  expectedBytes: number,
  request: Pick<InputFileRequest, 'maxBytes' | 'deadline' | 'onPiece'>,
  fail: (problem: string, fix: string) => Error,
): Promise<Buffer> {
  // Read in place into one buffer of the size the file said it had (and a byte more, to see it grow):
  // a 20 MiB file is never held twice, as pieces and as their concatenation.
  let buffer = Buffer.allocUnsafe(expectedBytes + 1);
  let total = 0;
  let handed = 0;
  for (;;) {
    if (request.deadline !== undefined && Date.now() > request.deadline) {
      throw fail('could not be read in time', 'Check the disk or mount it is on, or raise timeout-seconds.');
    }
    if (total === buffer.length) {
      // Longer than it said (still being written, or a file such as /proc's that reports no size).
      const grown = Buffer.allocUnsafe(Math.min(request.maxBytes + 1, total + Math.max(total, 64 * 1024)));
      buffer.copy(grown, 0, 0, total);
      buffer = grown;
    }
    const reading = handle.read(buffer, total, Math.min(CHUNK_BYTES, buffer.length - total), null);
    request.onPiece?.(buffer.subarray(handed, total));
    handed = total;
    const { bytesRead } = await reading;
    if (bytesRead === 0) break;
    total += bytesRead;
    if (total > request.maxBytes) {
      throw fail(
        `grew past the ${mebibytes(request.maxBytes, 0)} this input reads while it was read`,
        'Write the file completely before this step runs.',
      );
    }
  }
  return buffer.subarray(0, total);
}

function openFailure(
  error: unknown,
  fail: (problem: string, fix: string) => InputError,
  missingAdvice = 'Check the path.',
): InputError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return fail('does not exist', missingAdvice);
  if (code === 'ELOOP') {
    return fail('is a symlink loop', 'Give the path of a regular file, or make the symlink lead to one.');
  }
  if (code === 'EACCES' || code === 'EPERM') {
    return fail('cannot be read (permission denied)', 'Make the file readable by the runner user.');
  }
  if (code === 'ENXIO') return fail('is a socket or device, not a regular file', 'Give a regular file.');
  return fail(`cannot be opened (${code ?? 'unknown error'})`, 'Give the path of a readable regular file.');
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a fifo';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  return 'not a file';
}

/** 1 MiB, 512 KiB: a limit as a person reads it. */
export function sizeOf(bytes: number): string {
  return bytes >= 1024 * 1024 ? mebibytes(bytes, 0) : `${Math.round(bytes / 1024)} KiB`;
}

function mebibytes(bytes: number, digits = 1): string {
  return `${(bytes / (1024 * 1024)).toFixed(digits)} MiB`;
}

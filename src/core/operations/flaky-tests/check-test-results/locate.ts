// Where a failed test is in the checkout, for an annotation on its line: the file and line from the
// report when it gives them, else the first line of the file that names the test. Paths are made
// relative to the checkout (annotations outside it are dropped: the platform could not show them); the
// report's author controls the path, so a file is read only by its real path inside the checkout.
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { readCheckoutText } from '../../../files.js';
import type { TestCaseResult } from './results.js';

export interface Location {
  file: string;
  line?: number;
}

/** Files larger than this are not searched for a test's name. */
const MAX_SEARCHED_BYTES = 2 * 1024 * 1024;

export async function locateTest(test: TestCaseResult, checkoutDir: string): Promise<Location | undefined> {
  const file = inCheckout(test.file, checkoutDir);
  if (!file) return undefined;
  if (test.line) return { file, line: test.line };
  const line = await findNameInFile(checkoutDir, file, test.name);
  return line ? { file, line } : { file };
}

/** The path relative to the checkout, with forward slashes; undefined when outside it or not given. */
export function inCheckout(path: string, checkoutDir: string): string | undefined {
  if (!path) return undefined;
  const root = resolve(checkoutDir);
  const absolute = isAbsolute(path) ? path : resolve(root, path);
  const relativePath = relative(root, absolute);
  if (!relativePath || relativePath.startsWith('..') || isAbsolute(relativePath)) return undefined;
  return relativePath.split(sep).join('/');
}

/** The line naming the test, read by the file's real path: a symlink out of the checkout is not followed. */
async function findNameInFile(checkoutDir: string, file: string, name: string): Promise<number | undefined> {
  const text = await readCheckoutText(checkoutDir, file, MAX_SEARCHED_BYTES);
  if (text === undefined) return undefined;
  const lines = text.split(/\r?\n/);
  for (const candidate of searchTerms(name)) {
    const index = lines.findIndex((line) => line.includes(candidate));
    if (index >= 0) return index + 1;
  }
  return undefined;
}

/**
 * What the source says of a test named in a report: the whole name, then shorter and shorter endings of
 * it (jest-junit prefixes the describe blocks, go subtests follow a `/`, pytest adds `[params]`).
 */
function searchTerms(name: string): string[] {
  const withoutParams = name.replace(/\[.*\]$/, '').trim();
  const words = withoutParams.split(/ › | > |\/|::|\s+/).filter(Boolean);
  const endings = words.map((_, index) => words.slice(index).join(' '));
  return [...new Set([name, withoutParams, ...endings])].filter((term) => term.trim().length >= 3);
}

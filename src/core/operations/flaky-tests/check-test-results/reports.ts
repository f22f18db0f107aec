// Finds the JUnit reports junit-paths names (globs, tinyglobby) and reads each one, one after another
// through the same chunk buffer, so that memory stays at one chunk however many reports there are. The
// pull request's tests wrote the reports and chose their names: each is read by its real path, only
// when that lies inside the directory its glob names (checkout-dir, or the glob's own directory when the
// workflow points outside the checkout), and all of them together at most MAX_REPORT_BYTES.
import { stat } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { globSync } from 'tinyglobby';
import { InputError } from '../../../errors.js';
import { CheckoutFileRefusal, realPathInCheckout } from '../../../files.js';
import { quoted } from '../../../inputs.js';
import { CHUNK_BYTES, readJUnitReport, type ReadBudget } from './junit.js';
import { TestResults, type TestCaseRead } from './results.js';

/** More report files than this is a glob that caught far more than reports. */
const MAX_REPORTS = 20_000;
/** More than this in all is not a run's reports (a log, a dump, a file that never ends). */
export const MAX_REPORT_BYTES = 2 * 1024 ** 3;

/** Reads every report; `onFirstFailure` is told as soon as one failed test case is read. */
export async function readReports(
  globs: string[],
  checkoutDir: string,
  onFirstFailure?: () => void,
  maxBytes = MAX_REPORT_BYTES,
): Promise<TestResults> {
  const files = await findReports(globs, checkoutDir);
  const results = new TestResults(onFirstFailure);
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  const budget: ReadBudget = { bytesLeft: maxBytes, maxBytes };
  const real = (file: string) => reportPath(checkoutDir, containingDirectory(globs, checkoutDir, file), file);
  const add = (test: TestCaseRead) => results.add(test);
  for (const file of files) {
    await readJUnitReport(real(file), file, add, buffer, budget);
    results.reports++;
  }
  // A failed test may have passed in an earlier attempt, which the results only know by its fingerprint:
  // the reports that hold one are read again and compared in full (none in a run without retries).
  const recheck = (test: TestCaseRead) => results.recheck(test);
  const again: ReadBudget = { bytesLeft: maxBytes, maxBytes };
  for (const index of results.reportsToRecheck()) {
    const file = files[index]!;
    await readJUnitReport(real(file), file, recheck, buffer, again);
  }
  return results;
}

/**
 * The directory a report must stay in: the checkout, unless the workflow's glob names a place outside it
 * (an absolute path or one that starts with ..): then the fixed directory of the glob that found it,
 * which the workflow's author chose.
 */
function containingDirectory(globs: string[], checkoutDir: string, file: string): string {
  if (!file.startsWith('..') && !isAbsolute(file)) return checkoutDir;
  const path = resolve(checkoutDir, file);
  const roots = globs
    .filter((pattern) => pattern.startsWith('..') || isAbsolute(pattern))
    .map((pattern) => resolve(checkoutDir, fixedDirectory(pattern)));
  return roots.find((root) => isWithin(root, path)) ?? dirname(path);
}

function isWithin(root: string, path: string): boolean {
  const inside = relative(root, path);
  return !inside.startsWith('..') && !isAbsolute(inside);
}

/** The part of a glob before its first wildcard, as a directory. */
function fixedDirectory(pattern: string): string {
  const segments = pattern.split('/');
  const wild = segments.findIndex((segment) => /[*?[\]{}!()]/.test(segment));
  return (wild < 0 ? segments.slice(0, -1) : segments.slice(0, wild)).join('/') || '.';
}

function reportPath(checkoutDir: string, root: string, file: string): string {
  try {
    return realPathInCheckout(root, resolve(checkoutDir, file));
  } catch (error) {
    if (!(error instanceof CheckoutFileRefusal)) throw error;
    throw new InputError(
      'junit-paths',
      `${quoted(file)} ${error.message}`,
      'Have the test runner write its reports as plain files inside the directory junit-paths names.',
    );
  }
}

async function findReports(globs: string[], checkoutDir: string): Promise<string[]> {
  const directory = await stat(checkoutDir).catch(() => undefined);
  if (!directory?.isDirectory()) {
    throw new InputError(
      'checkout-dir',
      `${quoted(checkoutDir)} is not a directory`,
      'Point it at the checkout.',
    );
  }
  // Synchronous: nothing else is under way yet (the service is asked from the first failure on), and a
  // walk of thousands of directories (Bazel's, a report per target) costs less without a turn per listing.
  const files = globSync(globs, { cwd: checkoutDir, onlyFiles: true, dot: true, expandDirectories: false });
  if (!files.length) {
    throw new InputError(
      'junit-paths',
      `${globs.map(quoted).join(', ')} matched no file under ${quoted(checkoutDir)}`,
      'Check the paths your test runner writes its JUnit reports to (they are relative to checkout-dir), and that the test step ran.',
    );
  }
  if (files.length > MAX_REPORTS) {
    throw new InputError(
      'junit-paths',
      `matched ${files.length} files, more than ${MAX_REPORTS}`,
      'Narrow the globs to the JUnit reports, e.g. `reports/**/*.xml`.',
    );
  }
  return files.sort();
}

// Finds the JUnit reports junit-paths names (globs, tinyglobby) and reads each one, one after another
// through the same chunk buffer, so that memory stays at one chunk however many reports there are.
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { glob } from 'tinyglobby';
import { InputError } from '../../../errors.js';
import { quoted } from '../../../inputs.js';
import { CHUNK_BYTES, readJUnitReport } from './junit.js';
import { TestResults } from './results.js';

/** More report files than this is a glob that caught far more than reports. */
const MAX_REPORTS = 20_000;

/** Reads every report; `onFirstFailure` is told as soon as one failed test case is read. */
export async function readReports(
  globs: string[],
  checkoutDir: string,
  onFirstFailure?: () => void,
): Promise<TestResults> {
  const files = await findReports(globs, checkoutDir);
  const results = new TestResults(onFirstFailure);
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  for (const file of files) await readJUnitReport(resolve(checkoutDir, file), file, results, buffer);
  return results;
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
  const files = await glob(globs, { cwd: checkoutDir, onlyFiles: true, dot: true, expandDirectories: false });
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

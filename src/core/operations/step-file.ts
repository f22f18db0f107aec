// Files an operation hands to later steps (a report, the metrics text): under the host's temp directory,
// in a directory of their own so that two steps never overwrite each other.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Writes `content` to a new file named `fileName` and returns its absolute path. */
export async function writeStepFile(tempDir: string, fileName: string, content: string): Promise<string> {
  const directory = await mkdtemp(join(tempDir, 'merge-queue-action-'));
  const path = join(directory, fileName);
  await writeFile(path, content, 'utf8');
  return path;
}

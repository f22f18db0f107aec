// Files an operation hands to later steps (a report, the metrics text): under RUNNER_TEMP, which the
// runner empties after the job, in a directory of their own so that two steps never overwrite each other.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Writes `content` to a new file named `fileName` and returns its absolute path. */
export async function writeStepFile(
  env: NodeJS.ProcessEnv,
  fileName: string,
  content: string,
): Promise<string> {
  const directory = await mkdtemp(join(env.RUNNER_TEMP || tmpdir(), 'merge-queue-action-'));
  const path = join(directory, fileName);
  await writeFile(path, content, 'utf8');
  return path;
}

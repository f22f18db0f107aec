// Builds bench/lib/minimal-action.mjs with ncc --minify (as `npm run bundle` builds ours) into a
// directory, for the start-up benchmark to run it as the runner would.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { benchEnv } from './measure.js';
import { REPO_ROOT } from './servers.js';

const run = promisify(execFile);

/** Builds the minimal action into `outDir`; returns the path of its entry. */
export async function buildMinimalAction(outDir: string): Promise<string> {
  const ncc = join(REPO_ROOT, 'node_modules/@vercel/ncc/dist/ncc/cli.js');
  await run(
    process.execPath,
    [ncc, 'build', 'bench/lib/minimal-action.mjs', '-o', outDir, '-q', '--minify'],
    {
      cwd: REPO_ROOT,
      env: benchEnv(),
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  return join(outDir, 'index.mjs');
}

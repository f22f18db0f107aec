// Runs the built CLI (dist/cli/index.js, what `npx merge-queue-action` runs) in a child process with only
// the variables given (and PATH), as a CI step would; its stdin holds `stdin` (else nothing).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_TOKEN } from './emulator.js';

export const CLI = join(process.cwd(), 'dist/cli/index.js');

export interface CliRun {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export function runCli(
  args: string[],
  options: { env?: Record<string, string | undefined>; cwd?: string; node?: string; stdin?: string } = {},
): Promise<CliRun> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run bundle\` first.`);
  const node = options.node ?? process.env.ACTION_NODE ?? process.execPath;
  return new Promise((resolve) => {
    const child = execFile(
      node,
      [CLI, ...args],
      { env: { PATH: process.env.PATH, ...options.env }, cwd: options.cwd, timeout: 120_000 },
      (error, stdout, stderr) => {
        const exitCode = error ? Number((error as { code?: number }).code ?? 1) : 0;
        resolve({ exitCode, stdout, stderr });
      },
    );
    child.stdin?.end(options.stdin ?? '');
  });
}

/** A laptop's variables: no CI, the emulator's API and token, the repository and branch as a user exports them. */
export function laptopEnvironment(
  emulator: { current: { url: string } },
  repo: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    MERGE_QUEUE_API_URL: emulator.current.url,
    MERGE_QUEUE_API_TOKEN: TEST_TOKEN,
    MERGE_QUEUE_REPO: repo,
    MERGE_QUEUE_TARGET_BRANCH: 'main',
    ...extra,
  };
}

/** is-submitted for a PR in this state: true only while it is in the queue. */
export const isSubmittedFor = (state: string | undefined): string =>
  String(!['MERGED', 'FAILED', 'CANCELLED'].includes(state ?? ''));

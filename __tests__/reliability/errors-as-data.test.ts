// Errors are data (issue 42): a failure a person can act on carries its kind, hence its exit code, and
// the inputs it names, which each host words in its own terms. The CLI runs in-process as a person runs it.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../src/cli/main.js';
import { EXIT_CODES } from '../../src/core/failure.js';

let dir = '';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'errors-as-data-'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A folder with an impacted-targets config whose dependents command always fails. */
function failingCommandCheckout(): string {
  const cwd = mkdtempSync(join(dir, 'checkout-'));
  mkdirSync(join(cwd, '.github'));
  writeFileSync(
    join(cwd, '.github', 'impacted-targets.yml'),
    'rules:\n  - match: "**"\n    targets: [all-files]\ndependents:\n  command:\n    run: ["false"]\n',
  );
  return cwd;
}

async function cli(argv: string[], cwd: string, stdin = '') {
  let stderr = '';
  const exitCode = await runCli({
    argv,
    env: {
      MERGE_QUEUE_REPO: 'octo-org/errors-as-data',
      MERGE_QUEUE_TARGET_BRANCH: 'main',
      MERGE_QUEUE_PR_NUMBER: '17',
      MERGE_QUEUE_PR_SHA: 'a'.repeat(40),
      GIT_CEILING_DIRECTORIES: tmpdir(),
    },
    cwd,
    stdin: (async function* () {
      yield stdin;
    })(),
    stdout: { write: () => true },
    stderr: { write: (chunk: string) => ((stderr += chunk), true) },
  });
  return { exitCode, lines: stderr.trim().split('\n') };
}

describe('a failure is data: its kind decides the exit code, its inputs are worded by the host', () => {
  it('a dependents command that fails, with on-compute-error fail, names the CLI flag and exits 1', async () => {
    const cwd = failingCommandCheckout();
    const run = await cli(
      ['compute-impacted-targets', '--changed-files-file', '-', '--on-compute-error', 'fail'],
      cwd,
      'src/main.ts\n',
    );
    expect(run.exitCode).toBe(EXIT_CODES.failed);
    expect(run.lines.at(-1)).toMatch(/exited with code 1.*\(--on-compute-error: fail\)\.$/);
  });

  it('an --outputs-file that is a folder is a bad input (exit 2), named by its flag', async () => {
    const cwd = mkdtempSync(join(dir, 'outputs-'));
    mkdirSync(join(cwd, 'out'));
    const run = await cli(
      ['compute-impacted-targets', '--changed-files-file', '-', '--outputs-file', 'out'],
      cwd,
      'src/main.ts\n',
    );
    expect(run.exitCode).toBe(EXIT_CODES.badInput);
    expect(run.lines.at(-1)).toBe(
      `merge-queue-action: --outputs-file ${join(cwd, 'out')} exists and is not a regular file; give a path to a file.`,
    );
  });
});

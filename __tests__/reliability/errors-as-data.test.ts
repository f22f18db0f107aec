// Errors are data (issue 42): a failure a person can act on carries its kind, hence its exit code, and
// the inputs it names, which each host words in its own terms. The CLI runs in-process as a person runs it.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../src/cli/main.js';
import { EXIT_CODES } from '../../src/core/failure.js';
import { runAction } from '../helpers/action-runner.js';

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

/** The action run as the runner runs it, with nothing to call: its ::error:: line. */
async function action(inputs: Record<string, string>): Promise<string> {
  const run = await runAction({
    inputs: { 'api-url': 'http://127.0.0.1:9/v1', 'api-token': 'tok_errors_as_data', ...inputs },
  });
  expect(run.failed).toBe(true);
  return run.error;
}

describe('an input named inside another input’s message is worded by the host (issue 42)', () => {
  it('the planner: a full grid without vary', async () => {
    const run = await cli(['plan-queue-settings', '--grid', 'full'], mkdtempSync(join(dir, 'plan-')));
    expect(run.exitCode).toBe(EXIT_CODES.badInput);
    expect(run.lines.at(-1)).toBe(
      'merge-queue-action: --grid or MERGE_QUEUE_GRID: is full, which combines the --vary values, but --vary is empty. Give --vary or MERGE_QUEUE_VARY (key=v1,v2,...) once per setting to combine.',
    );
    expect(await action({ operation: 'plan-queue-settings', grid: 'full' })).toBe(
      'Input "grid": is full, which combines the vary values, but vary is empty. Set the vary input (key=v1,v2,...) once per setting to combine.',
    );
  });

  it('compute: changed files from a file, with no file given', async () => {
    const cwd = mkdtempSync(join(dir, 'compute-'));
    const run = await cli(['compute-impacted-targets', '--changed-files-from', 'file'], cwd);
    expect(run.exitCode).toBe(EXIT_CODES.badInput);
    expect(run.lines.at(-1)).toBe(
      'merge-queue-action: --changed-files-from or MERGE_QUEUE_CHANGED_FILES_FROM: is file, but --changed-files-file is empty. Give --changed-files-file or MERGE_QUEUE_CHANGED_FILES_FILE (the list of changed files, - for standard input), or use git or github-api.',
    );
    expect(
      await action({
        operation: 'compute-impacted-targets',
        'changed-files-from': 'file',
        'working-directory': cwd,
      }),
    ).toBe(
      'Input "changed-files-from": is file, but changed-files-file is empty. Set the changed-files-file input (the list of changed files, - for standard input), or use git or github-api.',
    );
  });
});

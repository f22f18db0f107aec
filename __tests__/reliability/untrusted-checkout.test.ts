// Files a pull request controls (issue 25): its author commits the targets config, the workspace's
// manifests and CODEOWNERS, and may make any of them a symlink, to /proc/self/environ, out of the
// checkout, or to a file that never ends. Each case runs an operation end to end through the CLI (in this
// process, on the generic host) and looks at what a user sees: one line naming the file and what is
// wrong, the bad-input exit code, and none of what the file it led to holds.
import { afterAll, describe, expect, it, jest } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../src/cli/main.js';
import { EXIT_CODES } from '../../src/core/failure.js';
import { readCheckoutFile } from '../../src/core/files.js';
import { newRepo, pullRequestCheckout, tempDir } from '../helpers/git-repo.js';

jest.setTimeout(60_000);

const temp = tempDir('mqa-untrusted-');
afterAll(temp.cleanup);

/** A value only the job's environment holds: it must never be shown. */
const RUNTIME_TOKEN = 'rt_Zq8vN3kW7pL2xC9mB4tY6hJ1dF5gS0aE';

interface CliOutcome {
  exitCode: number;
  /** Everything written to stdout and stderr. */
  text: string;
}

async function cli(args: string[], cwd: string, env: Record<string, string> = {}): Promise<CliOutcome> {
  let text = '';
  const stream = { write: (chunk: string) => (text += chunk) };
  const exitCode = await runCli({
    argv: args,
    env: {
      MERGE_QUEUE_API_URL: 'http://127.0.0.1:9/v1',
      MERGE_QUEUE_API_TOKEN: 'tok_unused_in_these_checks_0000',
      MERGE_QUEUE_REPO: 'octo-org/octo-repo',
      MERGE_QUEUE_TARGET_BRANCH: 'main',
      ACTIONS_RUNTIME_TOKEN: RUNTIME_TOKEN,
      ...env,
    },
    cwd,
    stdout: stream,
    stderr: stream,
  });
  return { exitCode, text };
}

let checkouts = 0;
/** A git checkout with a README, where the config is whatever `place` puts at its path. */
function checkout(place: (configPath: string, dir: string) => void): string {
  const dir = join(temp.dir, `checkout-${++checkouts}`);
  newRepo(dir, { 'README.md': 'readme', 'services/api/main.ts': 'api' });
  mkdirSync(join(dir, '.github'), { recursive: true });
  place(join(dir, '.github/impacted-targets.yml'), dir);
  return dir;
}

function compute(dir: string): Promise<CliOutcome> {
  return cli(['compute-impacted-targets', '--working-directory', dir, '--changed-files-from', 'git'], dir);
}

/** The one line that says why the step failed. */
function failureLine(text: string): string {
  return text.split('\n').find((line) => line.includes('targets-config')) ?? text;
}

describe('the targets config', () => {
  it('row 1: a symlink to /proc/self/environ is refused without a byte of the environment shown', async () => {
    const dir = checkout((path) => symlinkSync('/proc/self/environ', path));
    const run = await compute(dir);
    expect(run.exitCode).toBe(EXIT_CODES.badInput);
    expect(failureLine(run.text)).toContain(
      '".github/impacted-targets.yml" leads outside the working directory',
    );
    expect(run.text).not.toContain(RUNTIME_TOKEN);
    expect(run.text).not.toContain('ACTIONS_RUNTIME_TOKEN');
  });

  it('row 2: a symlink to a file outside the working directory is not read', async () => {
    const outside = join(temp.dir, 'outside.yml');
    writeFileSync(outside, 'rules:\n  - match: "**"\n    targets: [stolen]\n');
    const dir = checkout((path) => symlinkSync(outside, path));
    const run = await compute(dir);
    expect(run.exitCode).toBe(EXIT_CODES.badInput);
    expect(failureLine(run.text)).toMatch(
      /"\.github\/impacted-targets\.yml" leads outside the working directory/,
    );
    expect(run.text).not.toContain('stolen');
  });

  it('row 2: a symlink that stays inside the checkout is read as the file it leads to', async () => {
    const dir = checkout((path, root) => {
      writeFileSync(
        join(root, 'targets.yml'),
        'rules:\n  - match: "services/{name}/**"\n    targets: ["svc:{name}"]\n',
      );
      symlinkSync('../targets.yml', path);
    });
    const run = await compute(dir);
    expect(run.text).not.toContain('leads outside');
    expect(run.exitCode).toBe(EXIT_CODES.done);
  });

  it('row 3: a symlink to /proc/self/pagemap is refused at the cap, not read to its end', async () => {
    const dir = checkout((path) => symlinkSync('/proc/self/pagemap', path));
    const run = await compute(dir);
    expect(run.exitCode).toBe(EXIT_CODES.badInput);
    expect(failureLine(run.text)).toContain('leads outside the working directory');
  });

  it('row 3: a fifo is refused at once', async () => {
    const dir = checkout((path) => execFileSync('mkfifo', [path]));
    const run = await compute(dir);
    expect(run.exitCode).toBe(EXIT_CODES.badInput);
    expect(failureLine(run.text)).toContain('".github/impacted-targets.yml" is a fifo, not a regular file');
  });

  it('row 3: a /proc file whose size says 0 is read only up to the cap', async () => {
    // /proc/self/maps says 0 bytes and holds far more than 1 KiB: the read stops one byte past the cap.
    await expect(readCheckoutFile('/proc/self', 'maps', 1024)).rejects.toThrow(
      'is larger than the 1 KiB read of such a file',
    );
    expect((await readCheckoutFile('/proc/self', 'maps', 1024 * 1024)).length).toBeGreaterThan(1024);
  });

  it('row 20: billion-laughs aliases get one line naming the file, and exit 2', async () => {
    const lines = ['a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
    for (let i = 1; i < 10; i++)
      lines.push(
        `a${i}: &a${i} [${Array(9)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
      );
    const dir = checkout((path) => writeFileSync(path, lines.join('\n')));
    const run = await compute(dir);
    expect(run.exitCode).toBe(EXIT_CODES.badInput);
    expect(failureLine(run.text)).toContain(
      '.github/impacted-targets.yml: its YAML aliases (*name) expand past 100 uses',
    );
    expect(run.text).not.toMatch(/Excessive alias count|at .*\.js:\d+/);
  });

  it('row 20: a flow sequence nested 100,000 levels gets one line naming the file, and exit 2', async () => {
    const deep = `rules: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`;
    const dir = checkout((path) => writeFileSync(path, deep));
    const run = await compute(dir);
    expect(run.exitCode).toBe(EXIT_CODES.badInput);
    expect(failureLine(run.text)).toContain(
      '.github/impacted-targets.yml: its collections are nested too deeply to read',
    );
    expect(run.text).not.toContain('Maximum call stack');
  });
});

// Issue 41, item 7: the workspace's files (pnpm-workspace.yaml, package.json workspaces, each manifest)
// are the pull request's too, read through compute-impacted-targets end to end.
describe("the workspace's globs and manifests", () => {
  const config = { '.github/impacted-targets.yml': 'dependents:\n  workspaces: {}\n' };
  const computePr = (dir: string, ...flags: string[]) =>
    cli(
      ['compute-impacted-targets', '--working-directory', dir, '--changed-files-from', 'git', ...flags],
      dir,
    );

  it('a glob that climbs out of the checkout names nothing that lies beside it', async () => {
    const parent = join(temp.dir, `beside-${++checkouts}`);
    mkdirSync(join(parent, 'payroll-private', 'ledger'), { recursive: true });
    writeFileSync(join(parent, 'payroll-private', 'package.json'), '{"name":"payroll"}');
    const dir = pullRequestCheckout(
      parent,
      { ...config, 'pnpm-workspace.yaml': 'packages: ["../../*", "../../*/*"]\n' },
      { 'README.md': 'changed' },
    );
    const run = await computePr(dir);
    expect(run.exitCode).toBe(EXIT_CODES.done);
    expect(run.text).toMatch(/Impacting ALL targets, because .*leads outside the working directory/);
    expect(run.text).not.toMatch(/payroll|ledger|origin|clone/);
  });

  it('a package name with terminal escapes reaches the summary as text, not as raw control characters', async () => {
    const name = 'web\u001b]0;owned\u0007\u001b[2J\u009b31m';
    const dir = pullRequestCheckout(
      temp.dir,
      {
        ...config,
        'pnpm-workspace.yaml': 'packages: [packages/*]\n',
        'packages/web/package.json': JSON.stringify({ name }),
      },
      { 'packages/web/index.js': 'changed' },
    );
    const summaryFile = join(temp.dir, `summary-${++checkouts}.md`);
    const run = await computePr(dir, '--summary-file', summaryFile);
    expect(run.exitCode).toBe(EXIT_CODES.done);
    const summary = readFileSync(summaryFile, 'utf8');
    expect(summary).toContain('web');
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    expect(summary).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/);
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    expect(run.text).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/);
  });
});

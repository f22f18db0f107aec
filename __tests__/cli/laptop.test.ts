// The built CLI on a laptop: a checkout made with `git init` and `git remote add origin ...`, no CI
// variables, the token in TRUNK_API_TOKEN; the repository, its host and the target branch come from the
// remote, as docs/impacted-targets.md promises "from a laptop".
import { beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { EXIT_CODES } from '../../src/core/failure.js';
import { runCli } from '../helpers/cli-runner.js';
import { QueueDriver, TEST_TOKEN, useEmulator } from '../helpers/emulator.js';

const emulator = useEmulator({ timeScale: 600 });
const widgets = new QueueDriver(emulator, 'acme/widgets', 'trunk');

const CONFIG = [
  'rules:',
  '  - match: services/{name}/**',
  "    targets: ['svc:{name}']",
  'inert: [.github/**]',
  '',
];

/** A checkout as a user makes one: git init, a remote, files committed; optionally origin's default branch. */
function checkout(origin: string, options: { defaultBranch?: string; files?: Record<string, string> } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'laptop-cli-'));
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', ...args], {
      cwd: dir,
      env: { PATH: process.env.PATH },
    });
  git('init', '--quiet', '--initial-branch', 'trunk');
  git('remote', 'add', 'origin', origin);
  const files = options.files ?? {
    '.github/impacted-targets.yml': CONFIG.join('\n'),
    'services/api/main.ts': 'export {};\n',
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  git('add', '--all');
  git('commit', '--quiet', '--message', 'start');
  if (options.defaultBranch) {
    git('update-ref', `refs/remotes/origin/${options.defaultBranch}`, 'HEAD');
    git('symbolic-ref', 'refs/remotes/origin/HEAD', `refs/remotes/origin/${options.defaultBranch}`);
  }
  return dir;
}

/** A terminal's variables: the API and the token as the README has users store it; nothing else. */
const terminal = () => ({
  MERGE_QUEUE_API_URL: emulator.current.url,
  TRUNK_API_TOKEN: TEST_TOKEN,
  GIT_CEILING_DIRECTORIES: tmpdir(),
});

beforeAll(async () => {
  await widgets.create();
  await widgets.submit(11);
});

describe('a laptop checkout whose only remote is origin', () => {
  it.each(['https://github.com/acme/widgets.git', 'git@github.com:acme/widgets.git'])(
    'get-queue finds the repository in %s and the branch in origin/HEAD',
    async (origin) => {
      const cwd = checkout(origin, { defaultBranch: 'trunk' });
      const run = await runCli(['get-queue', '--json'], { cwd, env: terminal() });
      expect(run.exitCode).toBe(EXIT_CODES.done);
      const result = JSON.parse(run.stdout) as { outputs: Record<string, string> };
      expect(result.outputs).toMatchObject({ repo: 'acme/widgets', 'target-branch': 'trunk' });
      expect(run.stderr).toContain('repo: github.com/acme/widgets (from the git remote origin;');
      expect(run.stderr).toContain(
        "target branch: trunk (the repository's default branch, from refs/remotes/origin/HEAD)",
      );
    },
  );

  it('assumes main, with a note, when git recorded no default branch for origin', async () => {
    const cwd = checkout('ssh://git@github.example.com/acme/widgets.git');
    const run = await runCli(['lint-impacted-targets-config', '--outputs-file', '-'], {
      cwd,
      env: terminal(),
    });
    expect(run.exitCode).toBe(EXIT_CODES.done);
    expect(JSON.parse(run.stdout)).toMatchObject({ repo: 'acme/widgets', 'target-branch': 'main' });
    expect(run.stderr).toContain('repo: github.example.com/acme/widgets (from the git remote origin;');
    expect(run.stderr).toMatch(/target branch: main \(.*main is assumed/);
  });

  it('lint-impacted-targets-config --strict, as the docs give it, fails only on an unclaimed file', async () => {
    const clean = checkout('https://github.com/acme/widgets.git');
    const strict = await runCli(['lint-impacted-targets-config', '--strict'], {
      cwd: clean,
      env: terminal(),
    });
    expect(strict.exitCode).toBe(EXIT_CODES.done);

    const unclaimed = checkout('https://github.com/acme/widgets.git', {
      files: { '.github/impacted-targets.yml': CONFIG.join('\n'), 'README.md': '# widgets\n' },
    });
    for (const args of [['--strict'], ['--strict', 'true']]) {
      const run = await runCli(['lint-impacted-targets-config', ...args], {
        cwd: unclaimed,
        env: terminal(),
      });
      expect(run.exitCode).toBe(EXIT_CODES.failed);
      expect(run.stderr).toMatch(/^merge-queue-action: .*claimed by no rule/m);
    }
    const lenient = await runCli(['lint-impacted-targets-config', '--no-strict'], {
      cwd: unclaimed,
      env: terminal(),
    });
    expect(lenient.exitCode).toBe(EXIT_CODES.done);
  });

  it('compute-impacted-targets reads the changed files from stdin and writes the outputs to stdout', async () => {
    const cwd = checkout('https://github.com/acme/widgets.git');
    const run = await runCli(
      ['compute-impacted-targets', '--changed-files-file', '-', '--outputs-file', '-'],
      {
        cwd,
        env: terminal(),
        stdin: 'services/api/main.ts\nservices/web/page.ts\n',
      },
    );
    expect(run.exitCode).toBe(EXIT_CODES.done);
    const outputs = JSON.parse(run.stdout) as Record<string, string>;
    expect(JSON.parse(outputs['impacted-targets']!)).toEqual(['svc:api', 'svc:web']);
    expect(outputs.repo).toBe('acme/widgets');
  });

  it('set-impacted-targets reads the targets from stdin with --impacted-targets-file -', async () => {
    const cwd = checkout('https://github.com/acme/widgets.git', { defaultBranch: 'trunk' });
    const sha = '0123456789abcdef0123456789abcdef01234567';
    const run = await runCli(
      [
        'set-impacted-targets',
        '--pr-number',
        '11',
        '--pr-sha',
        sha,
        '--impacted-targets-file',
        '-',
        '--json',
      ],
      { cwd, env: terminal(), stdin: '["svc:api", "svc:web", "svc:api"]\n' },
    );
    expect(run.exitCode).toBe(EXIT_CODES.done);
    const result = JSON.parse(run.stdout) as { outputs: Record<string, string> };
    expect(result.outputs).toMatchObject({ 'impacted-targets-count': 2, 'impacted-targets-sent': 'list' });
  });
});

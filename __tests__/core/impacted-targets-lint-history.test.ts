// lint-impacted-targets-config with history: the checkout's last commits replayed through the config, as a
// workflow runs it (the GitHub Actions host, a real git repository made here): how often each rule and
// barrier fired, how many commits impacted all and why, and the target counts, in the log and summary.
import { afterAll, describe, expect, it, jest } from '@jest/globals';
import { join } from 'node:path';
import { parseLog } from '../../src/core/operations/impacted-targets/compute/git-history.js';
import { runAction } from '../helpers/action-runner.js';
import { newRepo, tempDir } from '../helpers/git-repo.js';

jest.setTimeout(120_000);
const temp = tempDir('mqa-history-');
afterAll(temp.cleanup);

const CONFIG = [
  'rules:',
  '  - name: services',
  '    match: "services/{name}/**"',
  '    targets: ["svc:{name}"]',
  '  - name: libraries',
  '    match: "libs/**"',
  '    targets: [libs, "svc:api", "svc:web"]',
  'barriers: ["package-lock.json", ".github/workflows/**"]',
  'docs: ignore',
  '',
].join('\n');

function repository() {
  const repo = newRepo(join(temp.dir, 'repo'), {
    '.github/impacted-targets.yml': CONFIG,
    'services/api/main.ts': 'api',
    'services/web/main.ts': 'web',
    'libs/util.ts': 'util',
    'package-lock.json': '{}',
    'README.md': 'readme',
  });
  repo.commit('api fix', { 'services/api/main.ts': 'api 2' });
  repo.commit('docs', { 'README.md': 'readme 2', 'services/api/README.md': 'how to run' });
  repo.commit('lockfile bump', { 'package-lock.json': '{"v":2}', 'services/web/main.ts': 'web 2' });
  repo.commit('util', { 'libs/util.ts': 'util 2' });
  repo.commit('a script', { 'tools/release.sh': 'echo' });
  repo.commit('web', { 'services/web/main.ts': 'web 3' });
  return repo;
}

describe('lint-impacted-targets-config history', () => {
  it('replays the last commits and says what fired, what impacted all and why, and the target counts', async () => {
    const repo = repository();
    const run = await runAction({
      inputs: { operation: 'lint-impacted-targets-config', 'working-directory': repo.dir, history: '6' },
    });
    expect(run.error).toBe('');
    const log = run.log;
    expect(log).toContain('History: 6 commits replayed; 2 impacted all (most often: ');
    expect(log).toContain('fired in 3 commits: rule services');
    expect(log).toContain('fired in 1 commit: rule libraries');
    expect(log).toContain('fired in 1 commit: barrier package-lock.json');
    expect(run.summary).toContain('2 of 6 (33%) would have impacted ALL targets.');
    expect(run.summary).toContain('xychart-beta');
    // The same numbers as a table, for hosts that draw no mermaid: docs-only 0, two single-service
    // commits, the libraries' three targets, and two ALL (the barrier, the unclaimed script).
    expect(run.summary).toContain('| 0 | 1 | 17% |');
    expect(run.summary).toContain('| 1 | 2 | 33% |');
    expect(run.summary).toContain('| 2-5 | 1 | 17% |');
    expect(run.summary).toContain('| ALL | 2 | 33% |');
    expect(run.summary).toContain('| barrier package-lock.json | 1 |');
    expect(run.summary).toContain('| a file claimed by no rule (unmatched: all) | 1 |');

    // More than the history holds: the first commit, which has no parent to compare with, is left out.
    const all = await runAction({
      inputs: { operation: 'lint-impacted-targets-config', 'working-directory': repo.dir, history: '50' },
    });
    expect(all.log).toContain('History: 6 commits replayed;');
  });

  it('says how many commits the config sends to ALL that the package manager would not, and why', async () => {
    const manifest = (name: string, dependencies: Record<string, string> = {}) =>
      JSON.stringify({ name, version: '1.0.0', dependencies });
    const repo = newRepo(join(temp.dir, 'berry'), {
      'package.json': JSON.stringify({
        name: 'root',
        workspaces: ['packages/*'],
        packageManager: 'yarn@4.4.1',
      }),
      '.yarnrc.yml': 'nodeLinker: node-modules\n',
      'packages/a/package.json': manifest('a'),
      'packages/b/package.json': manifest('b'),
      'yarn.lock': '__metadata:\n  version: 8\n',
      '.github/impacted-targets.yml': 'dependents:\n  workspaces:\n    root: root\nbarriers: [yarn.lock]\n',
    });
    repo.commit('a gets left-pad', {
      'packages/a/package.json': manifest('a', { 'left-pad': '^1.0.0' }),
      'yarn.lock': '__metadata:\n  version: 8\n\n"left-pad@npm:^1.0.0":\n  version: 1.3.0\n',
    });
    repo.commit('b', { 'packages/b/index.js': 'b' });
    const run = await runAction({
      inputs: { operation: 'lint-impacted-targets-config', 'working-directory': repo.dir, history: '2' },
    });
    expect(run.error).toBe('');
    expect(run.log).toContain(
      'History: 2 commits replayed; 1 impacted all (most often: barrier yarn.lock, 1). 1 of them yarn berry would not have sent to ALL: it selects 1 package there on average (most often: barrier yarn.lock, 1); docs/impacted-targets.md says the config to write for it.',
    );
    expect(run.summary).toContain('| Sent to ALL, where yarn berry selects some packages | Commits |');
    expect(run.summary).toContain('| barrier yarn.lock | 1 |');
  });

  it("reads each commit's lockfile at both sides to say what turbo would select instead", async () => {
    const lock = (lodash: string) =>
      JSON.stringify({
        lockfileVersion: 3,
        packages: {
          '': { name: 'root', workspaces: ['packages/*'] },
          'node_modules/lodash': { version: lodash },
          'packages/web': { name: 'web', dependencies: { lodash: '^4.0.0' } },
          'packages/api': { name: 'api' },
        },
      });
    const repo = newRepo(join(temp.dir, 'npm'), {
      'package.json': JSON.stringify({ name: 'root', workspaces: ['packages/*'] }),
      'packages/web/package.json': JSON.stringify({ name: 'web', dependencies: { lodash: '^4.0.0' } }),
      'packages/api/package.json': JSON.stringify({ name: 'api' }),
      'package-lock.json': lock('4.17.20'),
      '.github/impacted-targets.yml': 'dependents:\n  workspaces: {}\nbarriers: [package-lock.json]\n',
    });
    repo.commit('lodash', { 'package-lock.json': lock('4.17.21') });
    const run = await runAction({
      inputs: { operation: 'lint-impacted-targets-config', 'working-directory': repo.dir, history: '1' },
    });
    expect(run.log).toContain(
      '1 of them turbo (npm workspaces) would not have sent to ALL: it selects 1 package there on average (most often: barrier package-lock.json, 1)',
    );
  });

  it('reads git log by position: a file named like a commit header stays a file', () => {
    const sha = 'a'.repeat(40);
    const tricky = `\u0001${'b'.repeat(40)}\u0002${'c'.repeat(40)}`;
    const log = `\u0001${sha}\u0002${'d'.repeat(40)}\0\nM\0${tricky}\0D\0gone.ts\0`;
    expect(parseLog(log)).toEqual([
      {
        sha,
        hasParent: true,
        files: [
          { path: tricky, deleted: false },
          { path: 'gone.ts', deleted: true },
        ],
      },
    ]);
  });
});

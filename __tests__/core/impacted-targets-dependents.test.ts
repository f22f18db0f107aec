// Dependents: real pnpm and npm workspace layouts on disk (pnpm-workspace.yaml, package.json workspaces,
// each package's own package.json), read without installing anything; and a user's own command whose
// output, one target a line, joins the targets.
import { afterAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { computeImpact } from '../../src/core/operations/impacted-targets/compute/compute.js';
import { readWorkspace } from '../../src/core/operations/impacted-targets/compute/workspace.js';
import { tempDir } from '../helpers/git-repo.js';
import { contextOf } from '../helpers/prepare.js';
import { say } from '../../src/core/words.js';

const temp = tempDir('mqa-ws-');
afterAll(temp.cleanup);

let layouts = 0;
function layout(files: Record<string, unknown>): string {
  const root = join(temp.dir, `layout-${++layouts}`);
  mkdirSync(root);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
  return root;
}

const pkg = (name: string, deps: Record<string, string> = {}, devDeps: Record<string, string> = {}) => ({
  name,
  version: '1.0.0',
  dependencies: deps,
  devDependencies: devDeps,
});

/** ui <- web <- e2e (dev), ui <- admin; utils alone; a docs package excluded by a negated glob. */
const PNPM = {
  'pnpm-workspace.yaml': 'packages:\n  - "packages/*"\n  - "apps/**"\n  - "!apps/legacy"\n',
  'package.json': { name: 'root', private: true },
  'packages/ui/package.json': pkg('@acme/ui', { react: '^18' }),
  'packages/utils/package.json': pkg('@acme/utils'),
  'apps/web/package.json': pkg('@acme/web', { '@acme/ui': 'workspace:*' }),
  'apps/admin/package.json': pkg('@acme/admin', { '@acme/ui': 'workspace:^' }),
  'apps/qa/e2e/package.json': pkg('@acme/e2e', {}, { '@acme/web': 'workspace:*' }),
  'apps/legacy/package.json': pkg('@acme/legacy', { '@acme/ui': '*' }),
  'apps/web/node_modules/dep/package.json': pkg('dep'),
};

function config(root: string, yaml: string) {
  writeFileSync(join(root, 'targets.yml'), yaml);
}

async function impacted(root: string, changed: string[]) {
  writeFileSync(join(root, 'changed.txt'), changed.join('\n'));
  const warnings: string[] = [];
  const computed = await computeImpact({
    settings: {
      config: 'targets.yml',
      source: 'file',
      changedFilesFile: 'changed.txt',
      workingDirectory: root,
      deepenAttempts: 0,
      onComputeError: 'all',
    },
    context: contextOf({ targetBranch: 'main' }),
    timeoutMs: 10_000,
    log: { info: () => undefined, warning: (l) => warnings.push(say(l)) },
  });
  const { impact } = computed;
  return { targets: impact.all ? 'ALL' : [...impact.targets.keys()].sort(), impact, warnings };
}

describe('workspace dependents', () => {
  it('reads a pnpm workspace: globs, negations, nested packages, no node_modules', async () => {
    const workspace = await readWorkspace(layout(PNPM), { target: '{name}' });
    expect([...workspace.byName.keys()].sort()).toEqual([
      '@acme/admin',
      '@acme/e2e',
      '@acme/ui',
      '@acme/utils',
      '@acme/web',
    ]);
    expect(workspace.byName.get('@acme/web')?.dependsOn).toEqual(['@acme/ui']);
    expect(workspace.source).toBe('pnpm-workspace.yaml');
  });

  it('impacts the changed package and every package that depends on it, at any depth', async () => {
    const root = layout(PNPM);
    config(root, 'dependents:\n  workspaces:\n    target: "pkg:{name}"\n    depth: all\n');
    const { targets, impact } = await impacted(root, ['packages/ui/src/button.tsx']);
    expect(targets).toEqual(['pkg:@acme/admin', 'pkg:@acme/e2e', 'pkg:@acme/ui', 'pkg:@acme/web']);
    expect([...(impact.targets.get('pkg:@acme/e2e')?.via ?? [])]).toEqual([
      'package @acme/e2e depends on @acme/web: devDependencies "@acme/web": "workspace:*" (workspace: protocol)',
    ]);
  });

  it('stops at direct dependents with depth 1', async () => {
    const root = layout(PNPM);
    config(root, 'dependents:\n  workspaces:\n    target: "{dir}"\n    depth: 1\n');
    expect((await impacted(root, ['packages/ui/index.ts'])).targets).toEqual([
      'apps/admin',
      'apps/web',
      'packages/ui',
    ]);
    expect((await impacted(root, ['packages/utils/index.ts'])).targets).toEqual(['packages/utils']);
  });

  it('reads npm workspaces from package.json, in both of its shapes', async () => {
    for (const workspaces of [['packages/*'], { packages: ['packages/*'] }]) {
      const root = layout({
        'package.json': { name: 'root', private: true, workspaces },
        'packages/core/package.json': pkg('core'),
        'packages/cli/package.json': pkg('cli', { core: '^1.0.0' }),
        'packages/site/package.json': pkg('site', {}, { cli: '1.0.0' }),
      });
      config(root, 'dependents:\n  workspaces: {}\nunmatched: ignore\n');
      expect((await impacted(root, ['packages/core/lib.js'])).targets).toEqual(['cli', 'core', 'site']);
    }
  });

  it('impacts everything, with the reason, when the workspace cannot be read', async () => {
    const root = layout({ 'package.json': { name: 'root' } });
    config(root, 'dependents:\n  workspaces: {}\n');
    const { targets, impact, warnings } = await impacted(root, ['x.js']);
    expect(targets).toBe('ALL');
    expect(impact.all?.reason).toContain('neither pnpm-workspace.yaml nor "workspaces" in package.json');
    expect(warnings).toHaveLength(1);
  });
});

describe('a dependents command', () => {
  function tool(root: string, script: string): string {
    const path = join(root, 'tool.sh');
    writeFileSync(path, `#!/bin/sh\n${script}\n`);
    chmodSync(path, 0o755);
    return path;
  }

  it('adds what the command prints, one target a line, given the changed files on stdin', async () => {
    const root = layout({});
    // A stand-in for `nx show projects --affected`: one target per changed top-level directory.
    const path = tool(root, 'cut -d/ -f1 | sort -u | sed "s/^/affected:/"');
    config(
      root,
      `rules:\n  - match: "**"\n    targets: [all-files]\ndependents:\n  command:\n    run: ["${path}"]\n`,
    );
    const { targets, impact } = await impacted(root, ['api/a.ts', 'web/b.ts', 'web/c.ts']);
    expect(targets).toEqual(['affected:api', 'affected:web', 'all-files']);
    expect([...(impact.targets.get('affected:api')?.via ?? [])]).toEqual([`command ${path}`]);
  });

  it('impacts everything when the command fails or does not finish in time', async () => {
    const root = layout({});
    const failing = tool(root, 'echo "nx: no project graph" >&2; exit 3');
    config(root, `unmatched: ignore\ndependents:\n  command:\n    run: ["${failing}"]\n`);
    const failed = await impacted(root, ['a.ts']);
    expect(failed.targets).toBe('ALL');
    expect(failed.impact.all?.reason).toContain('exited with code 3 (nx: no project graph)');

    config(
      root,
      `unmatched: ignore\ndependents:\n  command:\n    run: ["sleep", "5"]\n    timeout-seconds: 1\n`,
    );
    const slow = await impacted(root, ['a.ts']);
    expect(slow.impact.all?.reason).toContain('`sleep 5` did not finish within 1 s');
  });

  it("hands no program it runs the action's inputs (the token)", () => {
    // In a process of its own, with the variables a runner and the CLI set, as the action runs.
    const script = [
      "import { runCommand } from './src/core/operations/impacted-targets/compute/run-command.ts';",
      "const run = await runCommand('env', [], { cwd: '.', timeoutMs: 10000, maxOutputBytes: 1e6 });",
      "console.log(JSON.stringify(run.stdout.toString().split('\\n').filter((l) => /TOKEN/.test(l))));",
    ].join('\n');
    const output = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      env: {
        PATH: process.env.PATH,
        'INPUT_API-TOKEN': 'secret-1',
        MERGE_QUEUE_API_TOKEN: 'secret-2',
        OTHER_TOKEN: 'x',
      },
      encoding: 'utf8',
    });
    expect(JSON.parse(output)).toEqual(['OTHER_TOKEN=x']);
  });
});

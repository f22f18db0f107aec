// Workspaces read as their package managers read them: manifests with a byte-order mark, pnpm's
// package.json5 and package.yaml, the root as a package, each manager's glob semantics, dependencies by
// directory (file:, link:, portal:, workspace:<path>), the lockfile where it decides a range, and the
// config's implicit dependents, test files and docs preset. Layouts are written to disk and read the way a
// run reads a checkout.
import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseTargetsConfig } from '../../src/core/operations/impacted-targets/compute/config.js';
import { impactOf } from '../../src/core/operations/impacted-targets/compute/impact.js';
import {
  buildWorkspace,
  readWorkspace,
} from '../../src/core/operations/impacted-targets/compute/workspace.js';
import { CheckoutTree } from '../../src/core/operations/impacted-targets/compute/workspace-tree.js';
import { tempDir } from '../helpers/git-repo.js';

const temp = tempDir('mqa-wsm-');
afterAll(temp.cleanup);

let layouts = 0;
function layout(files: Record<string, unknown>): string {
  const root = join(temp.dir, `layout-${++layouts}`);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
  return root;
}

const pkg = (name: string, dependencies: Record<string, string> = {}) => ({
  name,
  version: '1.0.0',
  dependencies,
});
const BOM = '\uFEFF';

async function targets(root: string, changed: string[], yaml = '') {
  const config = await parseTargetsConfig(
    `dependents:\n  workspaces:\n    root: root\n${yaml}unmatched: ignore\n`,
    'targets.yml',
  );
  const workspace = await readWorkspace(root, config.workspaces!);
  const impact = impactOf(
    config,
    changed.map((path) => ({ path, deleted: false })),
    {
      workspace,
      isMergeQueueTestRun: false,
    },
  );
  return { all: impact.all, targets: [...impact.targets.keys()].sort(), impact };
}

describe('manifests as the package managers read them', () => {
  it('accepts a package.json that starts with a byte-order mark (npm, yarn and pnpm strip it)', async () => {
    const root = layout({
      'pnpm-workspace.yaml': `${BOM}# the packages\npackages:\n  - packages/* # each one\n`,
      'package.json': pkg('root'),
      'packages/core/package.json': BOM + JSON.stringify(pkg('core')),
      'packages/app/package.json': pkg('app', { core: 'workspace:*' }),
    });
    const { all, targets: found } = await targets(root, ['README.md', 'packages/core/index.js']);
    expect(all).toBeUndefined();
    expect(found).toEqual(['app', 'core', 'root']);
  });

  it("reads pnpm's package.json5 (comments, trailing commas) and package.yaml, in a pnpm workspace only", async () => {
    const files = {
      'package.json': pkg('root'),
      'packages/core/package.json5': "// the core\n{ name: 'core', version: '1.0.0', }\n",
      'packages/app/package.yaml': '# the app\nname: app\ndependencies:\n  core: workspace:*\n',
    };
    const pnpm = layout({ ...files, 'pnpm-workspace.yaml': 'packages: [packages/*]\n' });
    expect((await targets(pnpm, ['packages/core/a.js'])).targets).toEqual(['app', 'core']);
    const npm = layout({ ...files, 'package.json': { name: 'root', workspaces: ['packages/*'] } });
    expect((await targets(npm, ['packages/core/a.js'])).targets).toEqual(['root']);
  });

  it('refuses a manifest over 1 MiB, naming it', async () => {
    const root = layout({
      'pnpm-workspace.yaml': 'packages: [packages/*]\n',
      'packages/core/package.json': { ...pkg('core'), description: 'x'.repeat(1024 * 1024) },
    });
    await expect(targets(root, ['x'])).rejects.toThrow(
      /^packages\/core\/package\.json is over 1048576 bytes$/,
    );
  });

  it('says which manifest is broken and how, and then impacts all (the compute fails safe)', async () => {
    const root = layout({
      'pnpm-workspace.yaml': 'packages: [packages/*]\n',
      'packages/core/package.json': '{ "name": "core", // no comments in JSON\n}',
    });
    await expect(targets(root, ['x'])).rejects.toThrow(/^packages\/core\/package\.json is not valid JSON \(/);
  });
});

describe('symlinks the checkout may hold (its author controls them)', () => {
  const outsideManifest = () => {
    const dir = join(temp.dir, `outside-${++layouts}`);
    mkdirSync(join(dir, 'evil'), { recursive: true });
    writeFileSync(join(dir, 'evil', 'package.json'), JSON.stringify(pkg('evil')));
    return dir;
  };

  it('refuses a manifest that is a symlink out of the checkout, and reads one that stays inside', async () => {
    const outside = outsideManifest();
    const root = layout({
      'pnpm-workspace.yaml': 'packages: [packages/*]\n',
      'packages/core/package.json': pkg('core'),
      'manifests/app.json': pkg('app', { core: 'workspace:*' }),
    });
    mkdirSync(join(root, 'packages', 'app'));
    symlinkSync('../../manifests/app.json', join(root, 'packages', 'app', 'package.json'));
    expect((await targets(root, ['packages/core/a.js'])).targets).toEqual(['app', 'core']);

    mkdirSync(join(root, 'packages', 'evil'));
    symlinkSync(join(outside, 'evil', 'package.json'), join(root, 'packages', 'evil', 'package.json'));
    await expect(targets(root, ['packages/core/a.js'])).rejects.toThrow(
      /^packages\/evil\/package\.json leads outside the working directory/,
    );
  });

  it('does not enter a package directory that is a symlink; refuses a workspace base that leads out', async () => {
    const outside = outsideManifest();
    const root = layout({
      'pnpm-workspace.yaml': 'packages: [packages/*]\n',
      'packages/core/package.json': pkg('core'),
    });
    symlinkSync(join(outside, 'evil'), join(root, 'packages', 'evil'));
    expect((await targets(root, ['packages/evil/a.js'])).targets).toEqual([]);

    const linkedBase = layout({ 'pnpm-workspace.yaml': 'packages: [packages/*]\n' });
    symlinkSync(outside, join(linkedBase, 'packages'));
    await expect(targets(linkedBase, ['packages/evil/a.js'])).rejects.toThrow(
      /^the workspace directory packages leads outside the working directory/,
    );
  });

  // Issue 41, item 7: what lies outside is not the PR's to show, not even a directory's name.
  it('names no directory outside the checkout: a base that leads out, or a glob that climbs out with ..', async () => {
    const outside = outsideManifest();
    const linkedBase = layout({ 'pnpm-workspace.yaml': 'packages: [packages/*]\n' });
    symlinkSync(outside, join(linkedBase, 'packages'));
    const climbing = layout({ 'pnpm-workspace.yaml': 'packages: ["../*", "../outside-*/*"]\n' });
    for (const root of [linkedBase, climbing]) {
      const refused = await targets(root, ['a.js']).then(
        () => 'read',
        (error: Error) => error.message,
      );
      expect(refused).toMatch(/leads outside the working directory/);
      expect(refused).not.toMatch(/evil|layout-|outside-/);
    }
  });

  it('reads a workspace base that is a symlink inside the checkout', async () => {
    const root = layout({
      'pnpm-workspace.yaml': 'packages: [packages/*]\n',
      'real/core/package.json': pkg('core'),
      'real/app/package.json': pkg('app', { core: 'workspace:*' }),
    });
    symlinkSync('real', join(root, 'packages'));
    expect((await targets(root, ['packages/core/a.js'])).targets).toEqual(['app', 'core']);
  });
});

describe('the root and the globs, by each manager', () => {
  it('makes the root a package that depends on what its manifest lists', async () => {
    const root = layout({
      'pnpm-workspace.yaml': 'packages: [packages/*]\n',
      'package.json': { name: 'monorepo', devDependencies: { vite: 'workspace:*' } },
      'packages/vite/package.json': pkg('vite'),
    });
    const { targets: found, impact } = await targets(root, ['packages/vite/src/index.ts']);
    expect(found).toEqual(['root', 'vite']);
    expect([...(impact.targets.get('root')?.via ?? [])]).toEqual([
      'package monorepo depends on vite: devDependencies "vite": "workspace:*" (workspace: protocol)',
    ]);
  });

  it('takes dir/** to include dir itself in pnpm and npm, not in yarn berry; a project under tests/ is one', async () => {
    const files = {
      'playground/package.json': pkg('playground'),
      'playground/css/package.json': pkg('css'),
      'playground/tests/fixture/package.json': pkg('fixture'),
    };
    // pnpm's workspace search skips node_modules and bower_components only (sveltejs/kit lists its test
    // apps, under test/, in pnpm-workspace.yaml, and pnpm 11 selects them).
    const pnpm = layout({ ...files, 'pnpm-workspace.yaml': 'packages: ["playground/**"]\n' });
    expect(
      (await targets(pnpm, ['playground/vitest.config.ts', 'playground/tests/fixture/a.js'])).targets,
    ).toEqual(['fixture', 'playground']);
    const npm = layout({ ...files, 'package.json': { name: 'r', workspaces: ['playground/**'] } });
    expect(
      (await targets(npm, ['playground/vitest.config.ts', 'playground/tests/fixture/a.js'])).targets,
    ).toEqual(['fixture', 'playground']);
    const berry = layout({
      ...files,
      'package.json': { name: 'r', workspaces: ['playground/**'] },
      '.yarnrc.yml': 'nodeLinker: node-modules\n',
    });
    expect((await targets(berry, ['playground/vitest.config.ts'])).targets).toEqual(['root']);
  });

  it('keeps two projects of one name apart, each its own target, as pnpm lists both', async () => {
    // sveltejs/kit has two copies of a test app named alike; a change to the core reaches both.
    const root = layout({
      'pnpm-workspace.yaml': 'packages: ["packages/*", "packages/kit/fixtures/*"]\n',
      'packages/kit/package.json': pkg('kit'),
      'packages/kit/fixtures/first/package.json': pkg('fragment', { kit: 'workspace:^' }),
      'packages/kit/fixtures/copy/package.json': pkg('fragment', { kit: 'workspace:^' }),
    });
    const { targets: found } = await targets(
      root,
      ['packages/kit/src/index.js'],
      '    target: "dir:{dir}"\n',
    );
    expect(found).toEqual([
      'dir:packages/kit',
      'dir:packages/kit/fixtures/copy',
      'dir:packages/kit/fixtures/first',
    ]);
  });
});

describe('which dependency links which package', () => {
  const files = {
    'pnpm-workspace.yaml': 'packages: [packages/*, tools/*]\n',
    'packages/core/package.json': pkg('@acme/core'),
    'tools/a/package.json': pkg('a', { 'core-copy': 'file:../../packages/core' }),
    'tools/b/package.json': pkg('b', { anything: 'link:../../packages/core' }),
    'tools/c/package.json': pkg('c', { x: 'portal:../../packages/core' }),
    'tools/d/package.json': pkg('d', { core: 'workspace:../../packages/core' }),
    'tools/e/package.json': pkg('e', { alias: 'workspace:@acme/core@*' }),
    'tools/f/package.json': pkg('f', { '@acme/core': 'npm:@acme/core@^1.0.0' }),
    'tools/g/package.json': pkg('g', { '@acme/core': 'github:acme/core' }),
    'tools/h/package.json': pkg('h', { '@acme/core': '^1.0.0' }),
  };

  it('follows file:, link:, portal: and workspace:<path> by directory whatever the name; npm: and git specs install from elsewhere', async () => {
    const { targets: found, impact } = await targets(layout(files), ['packages/core/index.js']);
    // A plain range links nothing in pnpm 9 and later unless link-workspace-packages says so.
    expect(found).toEqual(['@acme/core', 'a', 'b', 'c', 'd', 'e']);
    expect([...(impact.targets.get('a')?.via ?? [])]).toEqual([
      'package a depends on @acme/core: dependencies "core-copy": "file:../../packages/core" (file: dependency, by directory)',
    ]);
  });

  it('lets pnpm-lock.yaml decide a plain range: a registry copy there is no link', async () => {
    const lock = [
      "lockfileVersion: '9.0'",
      '',
      'importers:',
      '',
      '  tools/h:',
      '    dependencies:',
      "      '@acme/core':",
      '        specifier: ^1.0.0',
      '        version: 1.0.0',
      '',
      'packages: {}',
    ].join('\n');
    const linking = { ...files, '.npmrc': 'link-workspace-packages=true\n' };
    const { targets: found } = await targets(layout({ ...linking, 'pnpm-lock.yaml': lock }), [
      'packages/core/index.js',
    ]);
    expect(found).not.toContain('h');
    const linked = lock.replace('version: 1.0.0', 'version: link:../../packages/core');
    const { impact } = await targets(layout({ ...linking, 'pnpm-lock.yaml': linked }), [
      'packages/core/index.js',
    ]);
    expect([...(impact.targets.get('h')?.via ?? [])][0]).toMatch(/\(same name; pnpm-lock\.yaml links it\)$/);
  });
});

describe("npm's lockfile", () => {
  it('decides a plain range: a copy installed in the project (the workspace does not satisfy it) is no link', async () => {
    const lock = (packages: Record<string, unknown>) => JSON.stringify({ lockfileVersion: 3, packages });
    const files = {
      'package.json': { name: 'root', workspaces: ['packages/*'] },
      'packages/core/package.json': { name: 'core', version: '7.0.0' },
      'packages/old/package.json': pkg('old', { core: '^6.0.0' }),
      'packages/new/package.json': pkg('new', { core: '^7.0.0' }),
    };
    const locked = layout({
      ...files,
      'package-lock.json': lock({
        'node_modules/core': { resolved: 'packages/core', link: true },
        'packages/old/node_modules/core': { version: '6.4.0' },
      }),
    });
    const { targets: found, impact } = await targets(locked, ['packages/core/index.js']);
    expect(found).toEqual(['core', 'new']);
    expect([...(impact.targets.get('new')?.via ?? [])][0]).toMatch(
      /\(same name; package-lock\.json links it\)$/,
    );
    // Without a lockfile, the workspace's version decides, as npm's own install would.
    expect((await targets(layout(files), ['packages/core/index.js'])).targets).toEqual(['core', 'new']);
  });
});

describe('what the config adds', () => {
  const files = {
    'pnpm-workspace.yaml': 'packages: [packages/*, examples/*]\n',
    'packages/lib/package.json': pkg('lib'),
    'packages/cli/package.json': pkg('cli', { lib: 'workspace:^' }),
    'examples/basic/package.json': pkg('example-basic'),
    'examples/ssr/package.json': pkg('example-ssr'),
  };

  it('adds implicit dependents, by directory or name', async () => {
    const yaml = '    implicit:\n      lib: ["examples/*"]\n';
    const { targets: found, impact } = await targets(layout(files), ['packages/lib/src/a.ts'], yaml);
    expect(found).toEqual(['cli', 'example-basic', 'example-ssr', 'lib']);
    expect([...(impact.targets.get('example-ssr')?.via ?? [])]).toEqual([
      'package example-ssr depends on lib: an implicit dependent (dependents.workspaces.implicit)',
    ]);
  });

  it("lets a changed test impact its own package, not its dependents (pnpm's testPattern)", async () => {
    const yaml = '    tests: ["**/__tests__/**", "**/*.test.ts"]\n';
    const root = layout(files);
    expect((await targets(root, ['packages/lib/src/a.test.ts'], yaml)).targets).toEqual(['lib']);
    expect(
      (await targets(root, ['packages/lib/src/a.test.ts', 'packages/lib/src/a.ts'], yaml)).targets,
    ).toEqual(['cli', 'lib']);
  });

  it('claims docs with the docs preset: no impact, or a docs target', async () => {
    const root = layout(files);
    const changed = ['README.md', 'packages/lib/README.md', 'docs/guide/config.ts'];
    expect((await targets(root, changed, 'docs: ignore\n')).targets).toEqual([]);
    expect((await targets(root, changed, 'docs: { target: docs }\n')).targets).toEqual(['docs']);
    expect((await targets(root, [...changed, 'packages/lib/a.ts'], 'docs: ignore\n')).targets).toEqual([
      'cli',
      'lib',
    ]);
  });
});

// Issue 41, item 7: a PR writes the workspace's globs, up to a megabyte of them.
describe('what the globs a pull request writes may cost', () => {
  /** The checkout on disk, counting the directories its walks hand out. */
  class CountingTree extends CheckoutTree {
    handedOut = 0;
    override directories(...args: Parameters<CheckoutTree['directories']>): string[] {
      const found = super.directories(...args);
      this.handedOut += found.length;
      return found;
    }
  }

  const manyPackages = (count: number, globs: string[]) => {
    const files: Record<string, unknown> = {
      'pnpm-workspace.yaml': `packages:\n${globs.map((g) => `  - '${g}'\n`).join('')}`,
    };
    for (let i = 0; i < count; i++) files[`packages/p${i}/package.json`] = pkg(`p${i}`);
    return layout(files);
  };

  it('walks the checkout once for 2,000 **/pN globs, each directory handed out once', async () => {
    const globs = Array.from({ length: 2000 }, (_, i) => `**/p${i}`);
    const root = manyPackages(50, globs);
    const tree = new CountingTree(root);
    const workspace = await buildWorkspace(tree, root, { target: '{name}' });
    expect(workspace.size).toBe(50);
    // The root, packages/ and the 50 packages.
    expect(tree.handedOut).toBe(52);
  });

  it('stops 20,000 wildcard globs (330 kB) at a bound, with one line naming the file', async () => {
    const globs = Array.from({ length: 20_000 }, (_, i) => `**/x*${i}`);
    const root = manyPackages(100, globs);
    for (let i = 0; i < 100; i++) mkdirSync(join(root, `packages/p${i}/src`));
    const refused = await targets(root, ['packages/p1/a.js']).then(
      () => 'read',
      (error: Error) => error.message,
    );
    expect(refused).toMatch(
      /^pnpm-workspace\.yaml: its globs take more than [\d,]+ matches against the 202 directories they reach; list fewer globs/,
    );
    expect(refused).not.toContain('\n');
  });
});

// Lockfile changes given to the packages whose resolved dependencies they changed, as each manager's own
// change filter (or turbo) gives them: a pull request's checkout with git's base and head, the lockfile at
// both, and what the compute says. Then the package managers' settings that change the graph, and
// lockfiles written to hurt: each is refused in one line and the config's fallback decides.
import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { computeImpact } from '../../src/core/operations/impacted-targets/compute/compute.js';
import { parseTargetsConfig } from '../../src/core/operations/impacted-targets/compute/config.js';
import { parseLog } from '../../src/core/operations/impacted-targets/compute/git-history.js';
import { impactOf } from '../../src/core/operations/impacted-targets/compute/impact.js';
import { attributeLockfile } from '../../src/core/operations/impacted-targets/compute/lockfile-attribution.js';
import { readWorkspace } from '../../src/core/operations/impacted-targets/compute/workspace.js';
import { pullRequestCheckout, tempDir } from '../helpers/git-repo.js';
import { contextOf } from '../helpers/prepare.js';
import { say } from '../../src/core/words.js';

const temp = tempDir('mqa-lock-');
afterAll(temp.cleanup);

const json = (value: unknown) => JSON.stringify(value, null, 2);
const manifest = (name: string, dependencies: Record<string, string> = {}, extra: object = {}) =>
  json({ name, version: '1.0.0', dependencies, ...extra });

/** An npm workspace: web uses lodash and ui; api uses express; ui uses nothing outside. */
const NPM_FILES = {
  'package.json': json({ name: 'root', private: true, workspaces: ['packages/*'] }),
  'packages/ui/package.json': manifest('ui'),
  'packages/web/package.json': manifest('web', { lodash: '^4.17.0', ui: '*' }),
  'packages/api/package.json': manifest('api', { express: '^4.0.0' }),
};

function npmLock(lodash: string, extra: Record<string, unknown> = {}) {
  return json({
    name: 'root',
    lockfileVersion: 3,
    requires: true,
    packages: {
      '': { name: 'root', workspaces: ['packages/*'] },
      'node_modules/ui': { resolved: 'packages/ui', link: true },
      'node_modules/lodash': { version: lodash, resolved: `https://r/lodash-${lodash}.tgz` },
      'node_modules/express': { version: '4.19.0', dependencies: { qs: '^6.0.0' } },
      'node_modules/qs': { version: '6.11.0' },
      'packages/ui': { name: 'ui', version: '1.0.0' },
      'packages/web': { name: 'web', version: '1.0.0', dependencies: { lodash: '^4.17.0', ui: '*' } },
      'packages/api': { name: 'api', version: '1.0.0', dependencies: { express: '^4.0.0' } },
      ...extra,
    },
  });
}

const CONFIG = 'dependents:\n  workspaces:\n    target: "{name}"\n';

/** The compute over a real PR checkout: git finds the base, the lockfile is read at both sides. */
async function computed(base: Record<string, string>, changed: Record<string, string>, config = CONFIG) {
  const dir = pullRequestCheckout(temp.dir, { ...base, 'targets.yml': config }, changed);
  const warnings: string[] = [];
  const result = await computeImpact({
    settings: {
      config: 'targets.yml',
      source: 'git',
      workingDirectory: dir,
      deepenAttempts: 0,
      onComputeError: 'all',
    },
    context: contextOf({ targetBranch: 'main' }),
    timeoutMs: 20_000,
    log: { info: () => undefined, warning: (line) => warnings.push(say(line)) },
  });
  const { impact } = result;
  const targets = impact.all ? 'ALL' : [...impact.targets.keys()].sort();
  return { targets, impact, warnings };
}

describe('package-lock.json, as turbo attributes it', () => {
  it('impacts the package whose resolved dependency changed, and says which and how', async () => {
    const base = { ...NPM_FILES, 'package-lock.json': npmLock('4.17.20') };
    const { targets, impact } = await computed(base, { 'package-lock.json': npmLock('4.17.21') });
    expect(targets).toEqual(['web']);
    expect([...(impact.targets.get('web')?.via ?? [])]).toEqual([
      'package web: package-lock.json changed its resolved dependencies (lodash 4.17.20 → 4.17.21)',
    ]);
  });

  it('follows a package several levels down, and leaves a change of download address alone', async () => {
    const base = { ...NPM_FILES, 'package-lock.json': npmLock('4.17.20') };
    const deeper = npmLock('4.17.20', { 'node_modules/qs': { version: '6.12.0' } }).replace(
      'lodash-4.17.20.tgz',
      'mirror/lodash-4.17.20.tgz',
    );
    expect((await computed(base, { 'package-lock.json': deeper })).targets).toEqual(['api']);
  });

  it("leaves a project's own peerDependencies out, as turbo does (microsoft/teams.ts: a peer's bump selects nothing)", async () => {
    // ui asks its dependents for lodash (a peer) and installs it for its own tests: a dependency's bump
    // is ui's change, a peer's alone is not.
    const withPeer = (lodash: string, devToo: boolean) =>
      npmLock(lodash, {
        'packages/ui': {
          name: 'ui',
          version: '1.0.0',
          peerDependencies: { lodash: '^4.17.0' },
          ...(devToo && { devDependencies: { lodash: '^4.17.0' } }),
        },
      });
    const base = { ...NPM_FILES, 'package-lock.json': withPeer('4.17.20', false) };
    expect((await computed(base, { 'package-lock.json': withPeer('4.17.21', false) })).targets).toEqual([
      'web',
    ]);
    const dev = {
      ...NPM_FILES,
      'packages/ui/package.json': manifest('ui', {}, { devDependencies: { lodash: '^4.17.0' } }),
      'package-lock.json': withPeer('4.17.20', true),
    };
    expect((await computed(dev, { 'package-lock.json': withPeer('4.17.21', true) })).targets).toEqual([
      'ui',
      'web',
    ]);
  });

  it("reads a project's dependencies from its package.json, as turbo does (microsoft/teams.ts: a stale entry put right)", async () => {
    // web's package.json has named lodash all along; the base's lockfile entry for web had not caught up.
    const stale = JSON.parse(npmLock('4.17.20')) as { packages: Record<string, Record<string, unknown>> };
    stale.packages['packages/web']!.dependencies = { ui: '*' };
    const base = { ...NPM_FILES, 'package-lock.json': json(stale) };
    expect((await computed(base, { 'package-lock.json': npmLock('4.17.20') })).targets).toEqual([]);
    expect((await computed(base, { 'package-lock.json': npmLock('4.17.21') })).targets).toEqual(['web']);
  });

  it("impacts every package when the root's own dependencies or the lockfile's version change", async () => {
    const rootManifest = json({
      ...JSON.parse(NPM_FILES['package.json']),
      devDependencies: { express: '^4.0.0' },
    });
    const withRootExpress = (express: string) => {
      const lock = JSON.parse(npmLock('4.17.20')) as { packages: Record<string, Record<string, unknown>> };
      lock.packages['']!.devDependencies = { express: '^4.0.0' };
      lock.packages['node_modules/express']!.version = express;
      return json(lock);
    };
    // ui and web use no express: the root's does, and turbo puts the root under every package.
    const base = {
      ...NPM_FILES,
      'package.json': rootManifest,
      'package-lock.json': withRootExpress('4.19.0'),
    };
    const everyone = ['api', 'ui', 'web'];
    const { targets: bumped, impact: why } = await computed(base, {
      'package-lock.json': withRootExpress('4.20.0'),
    });
    expect(bumped).toEqual(everyone);
    expect([...(why.targets.get('ui')?.via ?? [])][0]).toContain("changed the root's resolved dependencies");
    const v2 = withRootExpress('4.19.0').replace('"lockfileVersion": 3', '"lockfileVersion": 2');
    const { targets, impact } = await computed(base, { 'package-lock.json': v2 });
    expect(targets).toEqual(everyone);
    expect([...(impact.targets.get('ui')?.via ?? [])][0]).toContain('settings changed (lockfileVersion 3');
  });

  it("reads the root's dependencies from its package.json when the root is no package, as turbo does (rocicorp/mono)", async () => {
    // The root's package.json named express all along; the base's lockfile entry for the root had not
    // caught up (express was there for api). Putting the entry right changes no resolution: turbo
    // selects nothing, where reading the root's entry made every package impacted.
    const rootManifest = json({
      ...JSON.parse(NPM_FILES['package.json']),
      devDependencies: { express: '^4.0.0' },
    });
    const caughtUp = JSON.parse(npmLock('4.17.20')) as { packages: Record<string, Record<string, unknown>> };
    caughtUp.packages['']!.devDependencies = { express: '^4.0.0' };
    const base = { ...NPM_FILES, 'package.json': rootManifest, 'package-lock.json': npmLock('4.17.20') };
    expect((await computed(base, { 'package-lock.json': json(caughtUp) })).targets).toEqual([]);
  });

  it("leaves a package's optional peers out, as turbo does (rocicorp/mono: vitest's optional peer uninstalled)", async () => {
    // lodash asks for a peer `p`; another package had it installed at the base, not at the head.
    const lodashWithPeer = (optional: boolean, installed: boolean) =>
      npmLock('4.17.20', {
        'node_modules/lodash': {
          version: '4.17.20',
          peerDependencies: { p: '*' },
          ...(optional && { peerDependenciesMeta: { p: { optional: true } } }),
        },
        ...(installed && { 'node_modules/p': { version: '1.0.0' } }),
      });
    const optional = { ...NPM_FILES, 'package-lock.json': lodashWithPeer(true, true) };
    expect((await computed(optional, { 'package-lock.json': lodashWithPeer(true, false) })).targets).toEqual(
      [],
    );
    const required = { ...NPM_FILES, 'package-lock.json': lodashWithPeer(false, true) };
    expect((await computed(required, { 'package-lock.json': lodashWithPeer(false, false) })).targets).toEqual(
      ['web'],
    );
  });

  it('falls back to unmatched, with the reason, when a side cannot be read', async () => {
    const base = { ...NPM_FILES, 'package-lock.json': npmLock('4.17.20') };
    const { targets, impact } = await computed(base, { 'package-lock.json': '{"lockfileVersion": 3,' });
    expect(targets).toBe('ALL');
    expect(impact.all?.reason).toMatch(
      /^"package-lock\.json" is claimed by no rule \(unmatched: all\); its change could not be given to packages: the head's package-lock\.json cannot be read: it is not valid JSON/,
    );
    const ignoring = await computed(
      base,
      { 'package-lock.json': '[]' },
      `${CONFIG}unmatched: { target: everything }\n`,
    );
    expect(ignoring.targets).toEqual(['everything']);
    expect([...(ignoring.impact.targets.get('everything')?.via ?? [])][0]).toMatch(
      /^unmatched files \(package-lock\.json: the head's package-lock\.json cannot be read: it has no "packages" map/,
    );
  });

  it('says there is no base to compare with when the changed files come as a list', async () => {
    const dir = pullRequestCheckout(
      temp.dir,
      { ...NPM_FILES, 'package-lock.json': npmLock('1.0.0'), 'targets.yml': CONFIG },
      {},
    );
    writeFileSync(join(dir, 'changed.txt'), 'package-lock.json\n');
    const result = await computeImpact({
      settings: {
        config: 'targets.yml',
        source: 'file',
        changedFilesFile: 'changed.txt',
        workingDirectory: dir,
        deepenAttempts: 0,
        onComputeError: 'all',
      },
      context: contextOf({ targetBranch: 'main' }),
      timeoutMs: 10_000,
      log: { info: () => undefined, warning: () => undefined },
    });
    expect(result.impact.all?.reason).toContain(
      'its change could not be given to packages: the changed files came from changed.txt, which names no base commit to compare package-lock.json with',
    );
  });
});

/** A yarn berry workspace: app depends on lib (workspace:) and react; lib on left-pad. */
const BERRY_FILES = {
  'package.json': json({
    name: 'root',
    private: true,
    workspaces: ['packages/*'],
    packageManager: 'yarn@4.4.1',
  }),
  '.yarnrc.yml': 'nodeLinker: node-modules\n',
  'packages/lib/package.json': manifest('lib', { 'left-pad': '^1.0.0' }),
  'packages/app/package.json': manifest('app', { lib: 'workspace:^', react: '^18.0.0' }),
};

function berryLock(react: string) {
  return [
    '__metadata:',
    '  version: 8',
    '  cacheKey: 10c0',
    '',
    '"app@workspace:packages/app":',
    '  version: 0.0.0-use.local',
    '  resolution: "app@workspace:packages/app"',
    '  dependencies:',
    '    lib: "workspace:^"',
    '    react: "npm:^18.0.0"',
    '  languageName: unknown',
    '  linkType: soft',
    '',
    '"left-pad@npm:^1.0.0":',
    '  version: 1.3.0',
    '  resolution: "left-pad@npm:1.3.0"',
    '  languageName: node',
    '  linkType: hard',
    '',
    '"lib@workspace:^, lib@workspace:packages/lib":',
    '  version: 0.0.0-use.local',
    '  resolution: "lib@workspace:packages/lib"',
    '  dependencies:',
    '    left-pad: "npm:^1.0.0"',
    '  languageName: unknown',
    '  linkType: soft',
    '',
    '"react@npm:^18.0.0":',
    `  version: ${react}`,
    `  resolution: "react@npm:${react}"`,
    '  checksum: 10c0/abc',
    '  languageName: node',
    '  linkType: hard',
    '',
  ].join('\n');
}

describe('yarn.lock', () => {
  it("leaves yarn berry's lockfile and cache out by default, as yarn's --since does, and never goes to ALL", async () => {
    const base = { ...BERRY_FILES, 'yarn.lock': berryLock('18.2.0') };
    const changed = { 'yarn.lock': berryLock('18.3.1'), '.yarn/cache/react-npm-18.3.1.zip': 'zip' };
    const { targets, impact } = await computed(base, changed);
    expect(targets).toEqual([]);
    expect(impact.inertCount).toBe(2);
  });

  it('gives a berry lockfile change to the workspaces whose resolution changed with lockfile: resolved', async () => {
    const base = { ...BERRY_FILES, 'yarn.lock': berryLock('18.2.0') };
    const config = `${CONFIG}    lockfile: resolved\n`;
    const { targets, impact } = await computed(base, { 'yarn.lock': berryLock('18.3.1') }, config);
    expect(targets).toEqual(['app']);
    expect([...(impact.targets.get('app')?.via ?? [])][0]).toBe(
      'package app: yarn.lock changed its resolved dependencies (react npm:18.2.0 → npm:18.3.1)',
    );
  });

  it("reads yarn classic's lockfile with the manifests' ranges, as turbo does", async () => {
    const files = {
      'package.json': json({ name: 'root', private: true, workspaces: ['packages/*'] }),
      'packages/a/package.json': manifest('a', { chalk: '^4.0.0' }),
      'packages/b/package.json': manifest('b', { ms: '^2.0.0' }),
    };
    const lock = (chalk: string) =>
      [
        '# yarn lockfile v1',
        '',
        'chalk@^4.0.0:',
        `  version "${chalk}"`,
        '  dependencies:',
        '    supports-color "^7.1.0"',
        '',
        'ms@^2.0.0:',
        '  version "2.1.3"',
        '',
        '"supports-color@^7.1.0":',
        '  version "7.2.0"',
        '',
      ].join('\n');
    const { targets } = await computed(
      { ...files, 'yarn.lock': lock('4.1.0') },
      { 'yarn.lock': lock('4.1.2') },
    );
    expect(targets).toEqual(['a']);
  });
});

describe('pnpm-lock.yaml', () => {
  const files = {
    'pnpm-workspace.yaml': 'packages:\n  - packages/*\n',
    'package.json': json({ name: 'root', private: true, packageManager: 'pnpm@9.15.0' }),
    'packages/a/package.json': manifest('a', { zod: '^3.0.0' }),
    'packages/b/package.json': manifest('b', { a: 'workspace:*' }),
    'packages/c/package.json': manifest('c'),
  };
  const lock = (zod: string) =>
    [
      "lockfileVersion: '9.0'",
      '',
      'importers:',
      '',
      '  .: {}',
      '',
      '  packages/a:',
      '    dependencies:',
      '      zod:',
      '        specifier: ^3.0.0',
      `        version: ${zod}`,
      '',
      '  packages/b:',
      '    dependencies:',
      '      a:',
      '        specifier: workspace:*',
      '        version: link:../a',
      '',
      '  packages/c: {}',
      '',
      'packages:',
      '',
      `  zod@${zod}:`,
      '    resolution: {integrity: sha512-x}',
      '',
      'snapshots:',
      '',
      `  zod@${zod}: {}`,
      '',
    ].join('\n');

  it("gives it to the root, as pnpm's change filter does; with lockfile: resolved, to the importer and its dependents", async () => {
    const rooted = `dependents:\n  workspaces:\n    target: "{name}"\n    root: root\n`;
    const base = { ...files, 'pnpm-lock.yaml': lock('3.22.0') };
    expect((await computed(base, { 'pnpm-lock.yaml': lock('3.23.8') }, rooted)).targets).toEqual(['root']);
    const resolved = `${rooted}    lockfile: resolved\n`;
    const { targets, impact } = await computed(base, { 'pnpm-lock.yaml': lock('3.23.8') }, resolved);
    expect(targets).toEqual(['a', 'b']);
    expect([...(impact.targets.get('a')?.via ?? [])][0]).toContain('(zod 3.22.0 → 3.23.8)');
  });
});

describe("the package managers' settings that change the graph", () => {
  async function targets(files: Record<string, string>, changed: string[], rules = '') {
    const dir = join(temp.dir, `settings-${Math.random().toString(36).slice(2)}`);
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), content);
    }
    const config = await parseTargetsConfig(`${CONFIG}${rules}unmatched: ignore\n`, 'targets.yml');
    const workspace = await readWorkspace(dir, config.workspaces!);
    const impact = impactOf(
      config,
      changed.map((path) => ({ path, deleted: false })),
      { workspace, isMergeQueueTestRun: false },
    );
    return { targets: [...impact.targets.keys()].sort(), impact };
  }

  const berry = (yarnrc: string) => ({
    'package.json': json({ name: 'root', workspaces: ['packages/*'], packageManager: 'yarn@4.4.1' }),
    '.yarnrc.yml': yarnrc,
    'packages/core/package.json': manifest('core'),
    'packages/plain/package.json': manifest('plain', { core: '^1.0.0' }),
    'packages/proto/package.json': manifest('proto', { core: 'workspace:^' }),
    'packages/peer/package.json': manifest('peer', {}, { peerDependencies: { core: 'workspace:^' } }),
  });

  it("links a plain range only where yarn berry's enableTransparentWorkspaces lets it, and names the setting", async () => {
    const transparent = await targets(berry('nodeLinker: pnp\n'), ['packages/core/a.js']);
    expect(transparent.targets).toEqual(['core', 'plain', 'proto']);
    expect([...(transparent.impact.targets.get('plain')?.via ?? [])][0]).toContain(
      'enableTransparentWorkspaces: true (.yarnrc.yml)',
    );
    const opaque = await targets(berry('enableTransparentWorkspaces: false\n'), ['packages/core/a.js']);
    expect(opaque.targets).toEqual(['core', 'proto']);
  });

  it("links a plain range under yarn only to a workspace whose version satisfies it, as yarn's transparent workspaces do", async () => {
    // core is at 2.0.0: plain's ^1.0.0 is a copy yarn installs from the registry, next's ^2.0.0 the workspace.
    const files = {
      ...berry(''),
      'packages/core/package.json': json({ name: 'core', version: '2.0.0' }),
      'packages/next/package.json': manifest('next', { core: '^2.0.0' }),
    };
    expect((await targets(files, ['packages/core/a.js'])).targets).toEqual(['core', 'next', 'proto']);
  });

  it('leaves peerDependencies out under yarn (and turbo), follows them with peers: follow', async () => {
    const followed = await targets(berry(''), ['packages/core/a.js'], '    peers: follow\n');
    expect(followed.targets).toEqual(['core', 'peer', 'plain', 'proto']);
  });

  it('links a plain range in pnpm only with link-workspace-packages, from .npmrc or pnpm-workspace.yaml; an injected package stays linked', async () => {
    const pnpm = (workspaceYaml: string, extra: Record<string, string> = {}) => ({
      'pnpm-workspace.yaml': `packages:\n  - packages/*\n${workspaceYaml}`,
      'package.json': json({ name: 'root', packageManager: 'pnpm@9.15.0' }),
      'packages/core/package.json': manifest('core'),
      'packages/plain/package.json': manifest('plain', { core: '^1.0.0' }),
      ...extra,
    });
    expect((await targets(pnpm(''), ['packages/core/a.js'])).targets).toEqual(['core']);
    expect((await targets(pnpm('linkWorkspacePackages: true\n'), ['packages/core/a.js'])).targets).toEqual([
      'core',
      'plain',
    ]);
    const npmrc = { '.npmrc': 'link-workspace-packages=true\n' };
    const injected = [
      "lockfileVersion: '9.0'",
      'importers:',
      '  packages/plain:',
      '    dependencies:',
      '      core:',
      '        specifier: ^1.0.0',
      '        version: file:packages/core',
      '',
    ].join('\n');
    const withInjected = await targets(pnpm('', { ...npmrc, 'pnpm-lock.yaml': injected }), [
      'packages/core/a.js',
    ]);
    expect(withInjected.targets).toEqual(['core', 'plain']);
  });
});

describe('a rename, as the managers count it', () => {
  const files = {
    'pnpm-workspace.yaml': 'packages:\n  - packages/*\n',
    'package.json': json({ name: 'root' }),
    'packages/a/package.json': manifest('a'),
    'packages/b/package.json': manifest('b'),
    'packages/c/package.json': manifest('c', { a: 'workspace:*' }),
  };
  const moved = [
    { path: 'packages/a/util.js', deleted: true, renamedTo: 'packages/b/util.js' },
    { path: 'packages/b/util.js', deleted: false },
  ];

  async function impacted(rules: string) {
    const dir = join(temp.dir, `renames-${Math.random().toString(36).slice(2)}`);
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), content);
    }
    const config = await parseTargetsConfig(`${CONFIG}${rules}`, 'targets.yml');
    const workspace = await readWorkspace(dir, config.workspaces!);
    const impact = impactOf(config, moved, { workspace, isMergeQueueTestRun: false });
    return { all: impact.all, targets: [...impact.targets.keys()].sort() };
  }

  it('claims only the new path by default, as the filters of pnpm, yarn and turbo see it, and never ALL', async () => {
    expect(await impacted('')).toEqual({ all: undefined, targets: ['b'] });
  });

  it('claims the old path too with renames: both, and its dependents', async () => {
    expect(await impacted('    renames: both\n')).toEqual({ all: undefined, targets: ['a', 'b', 'c'] });
  });

  it('marks the old side of a rename in git log, for the history replay', () => {
    const sha = 'a'.repeat(40);
    const log = `\u0001${sha}\u0002${'d'.repeat(40)}\0\nR100\0packages/a/util.js\0packages/b/util.js\0`;
    expect(parseLog(log)[0]?.files).toEqual([
      { path: 'packages/a/util.js', deleted: true, renamedTo: 'packages/b/util.js' },
      { path: 'packages/b/util.js', deleted: false },
    ]);
  });
});

describe('lockfiles written to hurt', () => {
  const workspaceOf = async (files: Record<string, string>) => {
    const dir = join(temp.dir, `hostile-${Math.random().toString(36).slice(2)}`);
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), content);
    }
    return readWorkspace(dir, { target: '{name}' });
  };

  it('refuses a package nested past 64 node_modules, in one line', async () => {
    const workspace = await workspaceOf(NPM_FILES);
    const deep = `${'node_modules/a/'.repeat(70)}node_modules/b`;
    const attribution = attributeLockfile(
      workspace,
      'package-lock.json',
      npmLock('1.0.0'),
      npmLock('1.0.0', { [deep]: { version: '1.0.0' } }),
    );
    expect(attribution).toEqual({
      reason: expect.stringMatching(
        /^the head's package-lock\.json cannot be read: ".*…" is nested too deep$/,
      ),
    });
  });

  it('reads a chain of 60,000 packages under 1,000 projects in linear work: every project, once', async () => {
    const projects = Object.fromEntries(
      Array.from({ length: 1000 }, (_, i) => [
        `packages/p${i}`,
        { version: '1.0.0', dependencies: { c0: '*' } },
      ]),
    );
    const chain = (last: string) =>
      Object.fromEntries(
        Array.from({ length: 60_000 }, (_, i) => [
          `node_modules/c${i}`,
          { version: i === 59_999 ? last : '1.0.0', dependencies: i < 59_999 ? { [`c${i + 1}`]: '*' } : {} },
        ]),
      );
    const lock = (last: string) =>
      JSON.stringify({ lockfileVersion: 3, packages: { ...projects, ...chain(last) } });
    const files: Record<string, string> = {
      'package.json': json({ name: 'root', workspaces: ['packages/*'] }),
    };
    for (let i = 0; i < 1000; i++) files[`packages/p${i}/package.json`] = manifest(`p${i}`, { c0: '*' });
    const workspace = await workspaceOf(files);
    const attribution = attributeLockfile(workspace, 'package-lock.json', lock('1.0.0'), lock('2.0.0'));
    expect('packages' in attribution && attribution.packages.size).toBe(1000);
  });

  it('refuses a lockfile over 32 MiB at either side, and falls back with that reason', async () => {
    const huge = `{"lockfileVersion": 3, "packages": {}, "pad": "${'x'.repeat(33 * 1024 * 1024)}"}`;
    const base = { ...NPM_FILES, 'package-lock.json': npmLock('1.0.0') };
    const { impact } = await computed(base, { 'package-lock.json': huge });
    expect(impact.all?.reason).toMatch(
      /could not be given to packages: package-lock\.json at \w+ is \d+ bytes, more than 33554432$/,
    );
  });

  it('reads a yarn.lock of garbage as a lockfile that decides nothing, and a pnpm lockfile of an unknown format as unreadable', async () => {
    const workspace = await workspaceOf({ ...BERRY_FILES });
    const garbage = attributeLockfile(workspace, 'yarn.lock', '  indented first\n', berryLock('1'));
    expect(garbage).toEqual({
      reason: "the base's yarn.lock cannot be read: it has an indented line before its first entry",
    });
    const pnpm = attributeLockfile(workspace, 'pnpm-lock.yaml', "lockfileVersion: '5.4'\n", 'x: 1\n');
    expect(pnpm).toEqual({
      reason: "the base's pnpm-lock.yaml cannot be read: its lockfileVersion is 5.4 (6.0 to 9.0 are read)",
    });
  });
});

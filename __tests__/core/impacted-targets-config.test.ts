// The targets config: what a user writes and what the PR then impacts. Errors name the file, line and
// column and what to write instead; rules, captures, excludes, barriers, inert files, unmatched files,
// groups, the merge-queue target and max-targets behave as docs/impacted-targets.md says.
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { parseTargetsConfig } from '../../src/core/operations/impacted-targets/compute/config.js';
import {
  expandGroups,
  impactOf,
  knownTargets,
  type ChangedFile,
} from '../../src/core/operations/impacted-targets/compute/impact.js';

const changed = (...paths: string[]): ChangedFile[] => paths.map((path) => ({ path, deleted: false }));

async function impacted(yaml: string, files: ChangedFile[], isMergeQueueTestRun = false) {
  const config = await parseTargetsConfig(yaml, 'targets.yml');
  const impact = impactOf(config, files, { isMergeQueueTestRun });
  expandGroups(config, impact, () =>
    knownTargets(
      config,
      files.map((f) => f.path),
    ),
  );
  return impact.all ? 'ALL' : [...impact.targets.keys()].sort();
}

async function configError(yaml: string): Promise<string> {
  try {
    await parseTargetsConfig(yaml, 'targets.yml');
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the config was accepted');
}

describe('config errors', () => {
  it('names an unknown key with its line and column, the keys allowed there and the closest one', async () => {
    const message = await configError(
      ['rules:', '  - match: "src/**"', '    targets: [app]', '    exlude: "x"'].join('\n'),
    );
    expect(message).toContain('targets.yml:4:5: unknown key "exlude" in rules[0]');
    expect(message).toContain('Did you mean "exclude"?');
    expect(message).toContain('Allowed keys: name, match, exclude, targets');
    expect(message.startsWith('Input "targets-config"')).toBe(true);
  });

  it('names an unknown top-level key with the top-level keys', async () => {
    const message = await configError('rules: []\nbarrier:\n  - "x"\n');
    expect(message).toContain('targets.yml:2:1: unknown key "barrier"');
    expect(message).toContain('Did you mean "barriers"?');
    expect(message).toContain('merge-queue-target');
  });

  it('says what type was expected and what was found, at the value', async () => {
    expect(await configError('rules:\n  - match: 3\n    targets: [a]\n')).toContain(
      'targets.yml:2:12: rules[0].match is the number 3, expected a glob or a list of globs',
    );
    expect(await configError('max-targets: lots\n')).toContain(
      'targets.yml:1:14: max-targets is the string "lots", expected a whole number of at least 1',
    );
    expect(await configError('unmatched: everything\n')).toContain(
      'expected all, ignore, or { target: <name> }',
    );
  });

  it('says which key a rule is missing', async () => {
    expect(await configError('rules:\n  - match: "src/**"\n')).toContain(
      'targets.yml:2:5: rules[0] has no "targets"',
    );
  });

  it('points at YAML syntax errors and duplicate keys', async () => {
    expect(await configError('rules: [\n')).toMatch(/^Input "targets-config": targets\.yml:\d+:\d+: /);
    expect(await configError('unmatched: all\nunmatched: ignore\n')).toContain(
      'targets.yml:2:1: a key appears twice in the same mapping',
    );
  });

  it('refuses a target that uses a capture its glob does not have, and bad globs', async () => {
    expect(
      await configError('rules:\n  - match: "services/{name}/**"\n    targets: ["svc:{nme}"]\n'),
    ).toContain(
      'targets.yml:3:15: target "svc:{nme}" uses {nme}, which the match glob "services/{name}/**" does not capture',
    );
    expect(await configError('rules:\n  - match: "/src/**"\n    targets: [a]\n')).toContain(
      'targets.yml:2:12: "/src/**" starts with "/"',
    );
    expect(await configError('rules:\n  - match: "**/{name}/x"\n    targets: ["{name}"]\n')).toContain(
      'a capture must come before any "**"',
    );
  });
});

describe('rules', () => {
  const services = [
    'rules:',
    '  - name: services',
    '    match: "services/{name}/**"',
    '    exclude: "services/*/docs/**"',
    '    targets: ["svc:{name}", "svc:{name}:test"]',
    '  - match: ["libs/{lib}/src/**", "libs/{lib}/package.json"]',
    '    targets: ["lib:{lib}"]',
    '  - match: "{tools,scripts}/*.sh"',
    '    targets: [tooling]',
    '  - match: "**"',
    '    targets: [catch-all]',
  ].join('\n');

  it('makes dynamic targets from named captures', async () => {
    expect(await impacted(services, changed('services/api/main.ts', 'libs/ui/src/button.tsx'))).toEqual([
      'lib:ui',
      'svc:api',
      'svc:api:test',
    ]);
  });

  it('gives a file to the first rule that matches; an excluded file falls through to the next', async () => {
    expect(await impacted(services, changed('services/api/docs/guide.md'))).toEqual(['catch-all']);
    expect(await impacted(services, changed('services/api/README.md'))).toEqual(['svc:api', 'svc:api:test']);
  });

  it('keeps * inside one segment, expands braces, and is case-sensitive', async () => {
    expect(await impacted(services, changed('tools/build.sh'))).toEqual(['tooling']);
    expect(await impacted(services, changed('scripts/ci/build.sh'))).toEqual(['catch-all']);
    expect(await impacted(services, changed('Services/api/main.ts'))).toEqual(['catch-all']);
  });
});

describe('barriers, inert files and unmatched files', () => {
  const base = [
    'rules:',
    '  - match: "app/**"',
    '    targets: [app]',
    'barriers: ["package-lock.json", ".github/workflows/**"]',
    'inert: ["**/*.md", "docs/**"]',
  ].join('\n');

  it('impacts everything when a barrier is touched, whatever else changed', async () => {
    const config = await parseTargetsConfig(base, 'targets.yml');
    const impact = impactOf(config, changed('app/a.ts', '.github/workflows/ci.yml'), {
      isMergeQueueTestRun: false,
    });
    expect(impact.all).toEqual({
      reason: '".github/workflows/ci.yml" matches the barrier ".github/workflows/**"',
      barrierFile: '.github/workflows/ci.yml',
    });
  });

  it('impacts nothing for a docs-only PR, or the inert target when one is set', async () => {
    expect(await impacted(base, changed('README.md', 'docs/setup.txt', 'app/NOTES.md'))).toEqual([]);
    expect(await impacted(`${base}\ninert-target: docs`, changed('README.md'))).toEqual(['docs']);
  });

  it('impacts everything for a file no rule claims by default, and as configured otherwise', async () => {
    expect(await impacted(base, changed('app/a.ts', 'Makefile'))).toBe('ALL');
    expect(await impacted(`${base}\nunmatched: ignore`, changed('app/a.ts', 'Makefile'))).toEqual(['app']);
    expect(await impacted(`${base}\nunmatched: { target: misc }`, changed('Makefile'))).toEqual(['misc']);
  });

  it('widens a deleted file that no rule claims to everything when asked', async () => {
    const ignoring = `${base}\nunmatched: ignore\ndeleted-unmatched: all`;
    expect(await impacted(ignoring, changed('Makefile'))).toEqual([]);
    expect(await impacted(ignoring, [{ path: 'Makefile', deleted: true }])).toBe('ALL');
    expect(await impacted(ignoring, [{ path: 'app/old.ts', deleted: true }])).toEqual(['app']);
  });
});

describe('groups and the merge-queue target', () => {
  const config = [
    'rules:',
    '  - match: "services/{name}/**"',
    '    targets: ["svc:{name}"]',
    '  - match: "core/**"',
    '    targets: [core]',
    'groups:',
    '  core: ["svc:*", platform]',
    '  platform: [infra]',
    'merge-queue-target: merge-queue',
  ].join('\n');

  it('expands a group against the known targets, and groups within groups', async () => {
    const config2 = await parseTargetsConfig(config, 'targets.yml');
    const impact = impactOf(config2, changed('core/x.ts'), { isMergeQueueTestRun: false });
    expandGroups(config2, impact, () =>
      knownTargets(config2, ['services/api/a.ts', 'services/web/b.ts', 'core/x.ts', 'README']),
    );
    expect([...impact.targets.keys()].sort()).toEqual(['core', 'infra', 'platform', 'svc:api', 'svc:web']);
    expect([...(impact.targets.get('svc:web')?.via ?? [])]).toEqual(['group core']);
  });

  it('adds the merge-queue target on merge-queue test runs only', async () => {
    expect(await impacted(config, changed('services/api/a.ts'), true)).toEqual(['merge-queue', 'svc:api']);
    expect(await impacted(config, changed('services/api/a.ts'), false)).toEqual(['svc:api']);
  });
});

describe('the example configs', () => {
  it.each(['pnpm-monorepo.yml', 'services-monorepo.yml'])(
    'examples/impacted-targets/%s is valid',
    async (name) => {
      const yaml = readFileSync(`examples/impacted-targets/${name}`, 'utf8');
      await expect(parseTargetsConfig(yaml, name)).resolves.toBeDefined();
    },
  );

  it('the services example maps a PR the way its comments say', async () => {
    const yaml = readFileSync('examples/impacted-targets/services-monorepo.yml', 'utf8');
    expect(
      await impacted(yaml, changed('services/billing/main.go', 'services/billing/deploy/prod.yaml'), true),
    ).toEqual(['deploy:billing', 'e2e', 'svc:billing', 'svc:billing:integration']);
    expect(await impacted(yaml, changed('services/billing/README.md'))).toEqual([]);
    expect(await impacted(yaml, changed('scripts/release.sh'))).toBe('ALL');
  });
});

// package-lock.json compared at two commits, over generated lockfiles: the projects the comparison says
// changed are exactly those whose resolved closure differs between the two sides, worked out here the
// plain way (every project's closure walked whole at each side, and the two compared). The comparison
// itself walks backwards from the entries that differ, with one index for both sides: this checks that
// shortcut against the definition, links, nesting and a project's manifest names included.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { LockfileBudget } from '../../src/core/operations/impacted-targets/compute/lockfile-graph.js';
import { npmChangedImporters } from '../../src/core/operations/impacted-targets/compute/lockfile-npm.js';

type Entry = { version?: string; link?: boolean; dependencies?: object; peerDependencies?: object };
type Packages = Record<string, Entry>;

const NAMES = ['a', 'b', 'c', 'd'];
const PROJECTS = ['packages/p0', 'packages/p1'];
const PLACES = ['', ...PROJECTS, 'node_modules/a', 'node_modules/b'];

const names = fc.subarray(NAMES);
const asDeps = (list: string[]) => Object.fromEntries(list.map((name) => [name, '*']));
const packageEntry = fc.oneof(
  { weight: 5, arbitrary: fc.record({ version: fc.constantFrom('1.0.0', '2.0.0'), d: names, p: names }) },
  { weight: 1, arbitrary: fc.constant('link' as const) },
);

/** One side: a package entry (or none) for each name at each place, the projects' lockfile names. */
const side = fc
  .record({
    installed: fc.array(fc.option(packageEntry, { nil: undefined }), {
      minLength: PLACES.length * NAMES.length,
      maxLength: PLACES.length * NAMES.length,
    }),
    listed: fc.array(names, { minLength: PROJECTS.length + 1, maxLength: PROJECTS.length + 1 }),
  })
  .map(({ installed, listed }) => {
    const packages: Packages = { '': { dependencies: asDeps(listed[0] ?? []) } };
    PROJECTS.forEach(
      (dir, i) => (packages[dir] = { version: '0.0.0', dependencies: asDeps(listed[i + 1] ?? []) }),
    );
    PLACES.forEach((place, p) =>
      NAMES.forEach((name, n) => {
        const entry = installed[p * NAMES.length + n];
        const key = `${place ? `${place}/` : ''}node_modules/${name}`;
        if (entry === 'link') packages[key] = { link: true };
        else if (entry) {
          packages[key] = {
            version: entry.version,
            dependencies: asDeps(entry.d),
            peerDependencies: asDeps(entry.p),
          };
        }
      }),
    );
    return packages;
  });

/** What a node is at one side: its version and what its dependencies resolve to. */
function closureOf(packages: Packages, project: string, manifest: string[] | undefined): Set<string> {
  const isNode = (key: string) =>
    !!packages[key] && (!key.includes('node_modules/') || !!packages[key].version);
  const resolve = (from: string, name: string): string | undefined => {
    for (let at = from; ;) {
      const key = at ? `${at}/node_modules/${name}` : `node_modules/${name}`;
      if (isNode(key)) return key;
      if (packages[key] || !at) return undefined;
      const last = at.lastIndexOf('node_modules/');
      at = last < 0 ? '' : at.slice(0, Math.max(0, last - 1));
    }
  };
  const namesOf = (key: string) => {
    const entry = packages[key] as Entry;
    if (!key.includes('node_modules/')) return manifest ?? Object.keys(entry.dependencies ?? {});
    return [...Object.keys(entry.dependencies ?? {}), ...Object.keys(entry.peerDependencies ?? {})];
  };
  const seen = new Set<string>();
  const described = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const deps = namesOf(key)
      .map((name) => resolve(key, name))
      .filter((dep): dep is string => dep !== undefined);
    described.add(`${key}@${packages[key]?.version ?? ''} -> ${[...new Set(deps)].sort().join(',')}`);
    deps.forEach(visit);
  };
  visit(project);
  return described;
}

describe('package-lock.json compared at two commits', () => {
  it('says a project changed exactly when its resolved closure differs between the sides', () => {
    const manifests = fc.array(names, { minLength: PROJECTS.length, maxLength: PROJECTS.length });
    fc.assert(
      fc.property(side, side, manifests, (base, head, declared) => {
        const byDir = new Map(
          PROJECTS.map((dir, i) => [dir, (declared[i] ?? []).map((n) => [n, '*'] as [string, string])]),
        );
        const text = (packages: Packages) => JSON.stringify({ lockfileVersion: 3, requires: true, packages });
        const result = npmChangedImporters(text(base), text(head), new LockfileBudget(), byDir);
        if (!('changed' in result)) throw new Error('the settings did not change');
        const expected = ['', ...PROJECTS].filter((dir) => {
          const manifest = byDir.get(dir)?.map(([name]) => name);
          const before = closureOf(base, dir, manifest);
          const after = closureOf(head, dir, manifest);
          return before.size !== after.size || [...after].some((node) => !before.has(node));
        });
        expect([...result.changed.keys()].sort()).toEqual(expected.sort());
      }),
      { numRuns: 300 },
    );
  });
});

// Real history of real monorepos, each commit against its first parent, next to the package manager's
// own change filter run on the same commit (recorded by scripts/record-workspace-history.ts, so that
// this test needs no network, git or package manager): vitejs/vite (pnpm), jestjs/jest (yarn berry) and
// npm/cli (npm workspaces; npm has no change filter, so its answer is its own dependency graph, read by
// `npm query` from the lockfile, closed over the changed files).
// The config is the minimal one (each workspace package a target, the root a package, dependents at any
// depth). Where we answer differently on purpose (docs/impacted-targets.md says why), the difference is
// named; anything else fails.
// Then three more, each with the config docs/impacted-targets.md recommends for its manager, against the
// manager's own answer on 100 recent commits, lockfile changes included: reduxjs/redux-toolkit (yarn
// 4.4.1, its checked-in release, enableTransparentWorkspaces: false), vuejs/core (pnpm 10) and
// documenso/documenso (npm workspaces, against turbo 2.11, whose answer attributes package-lock.json);
// and sveltejs/kit (pnpm 11.19, linkWorkspacePackages: true, test apps listed under test/, two of them
// with one name); Shopify/hydrogen (pnpm 10, catalogs and overrides) and graphql/graphiql (yarn 4.16, its
// checked-in release; yarn.lock changed in 51 of the 100 commits) and MetaMask/core (yarn 4.16 as its
// packageManager names it, 110 workspaces; yarn.lock changed in 34).
import { describe, expect, it } from '@jest/globals';
import { join, resolve } from 'node:path';
import { readHistory } from '../helpers/recorded-workspace.js';
import { compareHistory, type Comparison, type ReplayConfig } from '../helpers/replay-agreement.js';

const FIXTURES = resolve('__tests__/fixtures/workspace-history');

/** Each difference we keep on purpose, by its cause in our explanation of the extra dependent. */
function explainedDifference(comparison: Comparison): string | undefined {
  if (comparison.onlyTheirs.length > 0) return undefined;
  const causes = new Set(
    comparison.onlyOurs.map((dir) => {
      const via = comparison.via.get(dir)?.join(' | ') ?? '';
      if (via.includes('(link: dependency, by directory)')) return 'link: dependency';
      if (via.includes('pnpm-lock.yaml links it')) return 'the lockfile links a range pnpm ignores';
      if (via.includes('"latest"') || via.includes('"next"')) return 'a tag pnpm ignores';
      return 'unexplained';
    }),
  );
  return causes.has('unexplained') ? undefined : [...causes].join(', ');
}

describe.each([
  ['vite.json', 'pnpm', {}],
  ['jest.json', 'yarn', {}],
  // npm's own graph follows peers, and gives the lockfile to the root that holds it.
  ['npm-cli.json', "npm's own graph", { workspaces: ['peers: follow', 'lockfile: root'] }],
])('the history in %s against %s', (fixture, _manager, options) => {
  it('selects what the package manager selects on at least 95% of commits, every other one explained', async () => {
    const history = readHistory(join(FIXTURES, fixture));
    const comparisons = await compareHistory(history, options);
    expect(comparisons.length).toBeGreaterThanOrEqual(60);
    const same = comparisons.filter((c) => c.onlyOurs.length === 0 && c.onlyTheirs.length === 0);
    const different = comparisons.filter((c) => !same.includes(c));
    const unexplained = different
      .filter((c) => explainedDifference(c) === undefined)
      .map(
        (c) =>
          `${c.commit.sha.slice(0, 10)}: only ours ${c.onlyOurs.join(' ')}; only theirs ${c.onlyTheirs.join(' ')}`,
      );
    expect(unexplained).toEqual([]);
    expect(same.length / comparisons.length).toBeGreaterThanOrEqual(0.95);
  });
});

/** The configs docs/impacted-targets.md recommends, as the replay writes them. */
const RECOMMENDED: Record<string, ReplayConfig> = {
  pnpm: { unmatched: 'all' },
  'yarn berry': { unmatched: 'all' },
  // turbo selects no root package and no root file, except its own global files.
  turbo: { root: false, top: ['barriers: [turbo.json]'], unmatched: 'ignore' },
};

describe.each([
  ['redux-toolkit.json', 'yarn berry'],
  ['vue-core.json', 'pnpm'],
  ['documenso.json', 'turbo'],
  ['svelte-kit.json', 'pnpm'],
  ['hydrogen.json', 'pnpm'],
  ['graphiql.json', 'yarn berry'],
  ['metamask-core.json', 'yarn berry'],
])('the history in %s against %s, with the recommended config', (fixture, manager) => {
  it('agrees with the package manager on at least 97 of 100 commits', async () => {
    const history = readHistory(join(FIXTURES, fixture));
    const comparisons = await compareHistory(history, RECOMMENDED[manager]);
    expect(comparisons).toHaveLength(100);
    const differing = comparisons
      .filter((c) => c.onlyOurs.length > 0 || c.onlyTheirs.length > 0)
      .map(
        (c) =>
          `${c.commit.sha.slice(0, 10)}: only ours ${c.onlyOurs.join(' ')}; only theirs ${c.onlyTheirs.join(' ')}`,
      );
    expect(differing.length).toBeLessThanOrEqual(3);
  });
});

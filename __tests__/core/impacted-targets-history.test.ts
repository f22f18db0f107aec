// Real history of real monorepos, each commit against its first parent, next to the package manager's
// own change filter run on the same commit (recorded by scripts/record-workspace-history.ts, so that
// this test needs no network, git or package manager): vitejs/vite (pnpm), jestjs/jest (yarn berry) and
// npm/cli (npm workspaces; npm has no change filter, so its answer is its own dependency graph, read by
// `npm query` from the lockfile, closed over the changed files).
// The config is the minimal one (each workspace package a target, the root a package, dependents at any
// depth). Where we answer differently on purpose (docs/impacted-targets.md says why), the difference is
// named; anything else fails.
import { describe, expect, it } from '@jest/globals';
import { join, resolve } from 'node:path';
import { readHistory } from '../helpers/recorded-workspace.js';
import { compareHistory, type Comparison } from '../helpers/replay-agreement.js';

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
  ['vite.json', 'pnpm'],
  ['jest.json', 'yarn'],
  ['npm-cli.json', "npm's own graph"],
])('the history in %s against %s', (fixture) => {
  it('selects what the package manager selects on at least 95% of commits, every other one explained', async () => {
    const history = readHistory(join(FIXTURES, fixture));
    const comparisons = await compareHistory(history);
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

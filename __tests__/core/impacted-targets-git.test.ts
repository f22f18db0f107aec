// Changed files from real git repositories made here: a feature branch off main with edits, a rename and
// a deletion; a main that moved on after the branch was cut; a shallow clone that must be deepened to
// reach the merge base; a base branch missing from the clone. When the changes cannot be found, the PR
// impacts everything with the reason, or the step fails when on-compute-error is fail.
import { afterAll, describe, expect, it, jest } from '@jest/globals';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { computeImpact } from '../../src/core/operations/impacted-targets/compute/compute.js';
import type { ComputeSettings } from '../../src/core/operations/impacted-targets/compute/inputs.js';
import { parseNameStatus } from '../../src/core/operations/impacted-targets/compute/git-changes.js';
import { cloneOf, newRepo, tempDir, type GitRepo } from '../helpers/git-repo.js';
import { contextOf } from '../helpers/prepare.js';
import { say } from '../../src/core/words.js';

// Each test runs a few dozen git processes; on a loaded machine that takes a while.
jest.setTimeout(120_000);

const temp = tempDir('mqa-git-');
afterAll(temp.cleanup);

const CONFIG = [
  'rules:',
  '  - match: "services/{name}/**"',
  '    targets: ["svc:{name}"]',
  '  - match: "libs/**"',
  '    targets: [libs]',
  'inert: ["**/*.md"]',
  'unmatched: ignore',
].join('\n');

let repos = 0;
/** An origin repository: main with three services, then a feature branch, then main moves on. */
function origin(config = CONFIG): { repo: GitRepo; feature: string } {
  const repo = newRepo(join(temp.dir, `origin-${++repos}`), {
    '.github/impacted-targets.yml': config,
    'services/api/main.ts': 'api',
    'services/web/main.ts': 'web',
    'services/jobs/main.ts': 'jobs',
    'libs/util.ts': 'util',
    'README.md': 'readme',
  });
  for (let i = 0; i < 2; i++) repo.commit(`main ${i}`, { [`libs/history-${i}.ts`]: `${i}` });
  repo.git('checkout', '--quiet', '-b', 'feature');
  repo.commit('feature: edit api, rename web, delete jobs', {
    'services/api/main.ts': 'api v2',
    'README.md': 'readme v2',
  });
  mkdirSync(join(repo.dir, 'services/website'));
  repo.git('mv', 'services/web/main.ts', 'services/website/main.ts');
  repo.git('rm', '--quiet', 'services/jobs/main.ts');
  repo.commit('rename and delete');
  const feature = repo.head();
  repo.git('checkout', '--quiet', 'main');
  // main moves on: these changes are not the PR's (and a clone of depth 1 lacks the merge base).
  for (let i = 0; i < 3; i++) repo.commit(`main after ${i}`, { [`libs/later-${i}.ts`]: `${i}` });
  return { repo, feature };
}

function settings(workingDirectory: string, overrides: Partial<ComputeSettings> = {}): ComputeSettings {
  return {
    config: '.github/impacted-targets.yml',
    source: 'auto',
    workingDirectory,
    deepenAttempts: 5,
    onComputeError: 'all',
    ...overrides,
  };
}

async function compute(workingDirectory: string, headSha: string, overrides: Partial<ComputeSettings> = {}) {
  const infos: string[] = [];
  const warnings: string[] = [];
  const computed = await computeImpact({
    settings: settings(workingDirectory, overrides),
    context: contextOf({ targetBranch: 'main', headSha, prNumber: 7 }),
    timeoutMs: 30_000,
    log: { info: (l) => infos.push(l), warning: (l) => warnings.push(say(l)) },
  });
  const { impact } = computed;
  return {
    targets: impact.all ? 'ALL' : [...impact.targets.keys()].sort(),
    reason: impact.all?.reason ?? '',
    changedCount: impact.changedCount,
    infos,
    warnings,
  };
}

describe('changed files from git', () => {
  it('diffs the head against its merge base with main, counting both sides of a rename and deletions', async () => {
    const { repo, feature } = origin();
    const clone = cloneOf(repo, join(temp.dir, `clone-${repos}`));
    clone.git('checkout', '--quiet', feature);
    const result = await compute(clone.dir, feature);
    // api edited, web renamed to website (both count), jobs deleted; README is inert; main's later
    // commits to libs/ are not the PR's.
    expect(result.targets).toEqual(['svc:api', 'svc:jobs', 'svc:web', 'svc:website']);
    expect(result.changedCount).toBe(5);
    expect(result.warnings).toEqual([]);
  });

  it('takes the remote-tracking target branch before a local one, and a local one when it is all there is', async () => {
    const { repo, feature } = origin();
    const clone = cloneOf(repo, join(temp.dir, `local-${repos}`));
    clone.git('checkout', '--quiet', feature);
    // A local main at the head would make the PR change nothing; origin/main is the one that counts.
    clone.git('branch', '--force', 'main', feature);
    const result = await compute(clone.dir, feature);
    expect(result.targets).toEqual(['svc:api', 'svc:jobs', 'svc:web', 'svc:website']);

    repo.git('checkout', '--quiet', feature);
    const local = await compute(repo.dir, feature);
    expect(local.targets).toEqual(['svc:api', 'svc:jobs', 'svc:web', 'svc:website']);
    expect(local.infos.some((l) => l.includes('fetching'))).toBe(false);
  });

  it("reads which ref the clone has from its files: a packed remote ref before a loose local one, a worktree's", async () => {
    const { repo, feature } = origin();
    const clone = cloneOf(repo, join(temp.dir, `packed-${repos}`));
    clone.git('checkout', '--quiet', feature);
    clone.git('pack-refs', '--all');
    // A loose local main at the head, written after origin/main was packed: origin/main still counts.
    clone.git('branch', '--force', 'main', feature);
    const everyChange = ['svc:api', 'svc:jobs', 'svc:web', 'svc:website'];
    expect((await compute(clone.dir, feature)).targets).toEqual(everyChange);
    // A worktree's .git is a file: git is asked about both refs, as before.
    const worktree = join(temp.dir, `worktree-${repos}`);
    clone.git('worktree', 'add', '--quiet', '--detach', worktree, feature);
    expect((await compute(worktree, feature)).targets).toEqual(everyChange);
  });

  it('deepens a shallow clone until the merge base is in it, a bounded number of times', async () => {
    const { repo, feature } = origin();
    const clone = cloneOf(repo, join(temp.dir, `shallow-${repos}`), { depth: 1 });
    clone.git('fetch', '--quiet', '--depth=1', 'origin', feature);
    clone.git('checkout', '--quiet', feature);
    const result = await compute(clone.dir, feature);
    expect(result.targets).toEqual(['svc:api', 'svc:jobs', 'svc:web', 'svc:website']);
    expect(result.infos.some((l) => l.includes('deepening it by 50 commits'))).toBe(true);

    const again = cloneOf(repo, join(temp.dir, `shallow-none-${repos}`), { depth: 1 });
    again.git('fetch', '--quiet', '--depth=1', 'origin', feature);
    again.git('checkout', '--quiet', feature);
    const refused = await compute(again.dir, feature, { deepenAttempts: 0 });
    expect(refused.targets).toBe('ALL');
    expect(refused.reason).toContain('no merge base');
    expect(refused.reason).toContain('fetch-depth: 0');
    expect(refused.warnings[0]).toContain('Impacting ALL targets');
  });

  it('fetches a target branch missing from the clone once', async () => {
    const { repo, feature } = origin();
    const clone = cloneOf(repo, join(temp.dir, `single-${repos}`), { branch: 'feature' });
    expect(() => clone.git('rev-parse', '--verify', 'origin/main')).toThrow();
    const result = await compute(clone.dir, feature);
    expect(result.targets).toEqual(['svc:api', 'svc:jobs', 'svc:web', 'svc:website']);
    expect(result.infos.some((l) => l.includes('fetched the target branch main'))).toBe(true);
  });

  it('names the fix when the target branch exists nowhere; fails instead of ALL when asked', async () => {
    const { repo, feature } = origin();
    const clone = cloneOf(repo, join(temp.dir, `nobranch-${repos}`));
    clone.git('checkout', '--quiet', feature);
    const infos: string[] = [];
    const computed = await computeImpact({
      settings: settings(clone.dir),
      context: contextOf({ targetBranch: 'release/9', headSha: feature }),
      timeoutMs: 30_000,
      log: { info: (l) => infos.push(l), warning: () => undefined },
    });
    expect(computed.impact.all?.reason).toContain('the target branch "release/9" is not in this clone');
    expect(computed.impact.all?.reason).toContain('fetch-depth: 0');

    await expect(
      computeImpact({
        settings: settings(clone.dir, { onComputeError: 'fail' }),
        context: contextOf({ targetBranch: 'release/9', headSha: feature }),
        timeoutMs: 30_000,
        log: { info: () => undefined, warning: () => undefined },
      }),
    ).rejects.toThrow(
      /^The impacted targets could not be computed: .*release\/9.*\(on-compute-error: fail\)\.$/,
    );
  });

  it('is ALL past max-targets', async () => {
    const { repo, feature } = origin(`${CONFIG}\nmax-targets: 3`);
    const clone = cloneOf(repo, join(temp.dir, `max-${repos}`));
    clone.git('checkout', '--quiet', feature);
    const result = await compute(clone.dir, feature);
    expect(result.targets).toBe('ALL');
    expect(result.reason).toBe('4 targets are impacted, more than max-targets (3)');
  });

  it('still fails on a bad config, whatever on-compute-error says', async () => {
    const { repo, feature } = origin('rules:\n  - match: "x/**"\n    target: [x]\n');
    const clone = cloneOf(repo, join(temp.dir, `bad-${repos}`));
    await expect(compute(clone.dir, feature)).rejects.toThrow(
      /\.github\/impacted-targets\.yml:3:5: unknown key "target" in rules\[0\]/,
    );
  });
});

describe('git diff --name-status -z', () => {
  it('reads renames, copies and deletions', () => {
    const out = Buffer.from(
      ['M', 'a.ts', 'R087', 'old.ts', 'new.ts', 'D', 'gone.ts', 'C75', 'src.ts', 'copy.ts', ''].join('\0'),
    );
    expect(parseNameStatus(out)).toEqual([
      { path: 'a.ts', deleted: false },
      { path: 'old.ts', deleted: true, renamedTo: 'new.ts' },
      { path: 'new.ts', deleted: false },
      { path: 'gone.ts', deleted: true },
      { path: 'copy.ts', deleted: false },
    ]);
  });
});

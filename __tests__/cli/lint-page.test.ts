// lint-impacted-targets-config's page on a real repository's files (vuejs/core's 705 tracked paths, in a
// checkout made of empty files): which part of the config claims how many files with examples, what
// nothing claims, the globs that match nothing; and it agrees with compute-impacted-targets, file by file,
// about what each part impacts (the docs preset claims nothing in both, and --strict does not fail on
// Markdown the preset covers).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runCli } from '../helpers/cli-runner.js';

const TRACKED = readFileSync('__tests__/fixtures/tracked-files/vue-core.txt', 'utf8')
  .split('\n')
  .filter((line) => line && !line.startsWith('#'));

const CONFIG = `version: 1
docs: ignore
rules:
  - name: packages
    match: packages/{name}/**
    targets: ['{name}']
  - name: private packages
    match: packages-private/{name}/**
    targets: ['private-{name}']
  - name: workflows
    match: .github/workflows/**
    targets: [ci]
  - name: typo
    match: pakages/**
    targets: [never]
`;

/** Everything claimed: Markdown only by the docs preset, as the catch-all excludes it. */
const STRICT_CONFIG = `version: 1
docs: ignore
rules:
  - name: packages
    match: packages/{name}/**
    targets: ['{name}']
  - name: the rest
    match: '**'
    exclude: '**/*.md'
    targets: [root]
`;

let checkout: string;
const env = { MERGE_QUEUE_TARGET_BRANCH: 'main' };

beforeAll(() => {
  checkout = mkdtempSync(join(tmpdir(), 'lint-page-'));
  for (const path of TRACKED) {
    mkdirSync(dirname(join(checkout, path)), { recursive: true });
    writeFileSync(join(checkout, path), '');
  }
  writeFileSync(join(checkout, 'targets.yml'), CONFIG);
  writeFileSync(join(checkout, 'strict.yml'), STRICT_CONFIG);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: checkout, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('remote', 'add', 'origin', 'https://github.com/vuejs/core.git');
  git('add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'tree');
});
afterAll(() => rmSync(checkout, { recursive: true, force: true }));

const lint = (...args: string[]) =>
  runCli(['lint-impacted-targets-config', '--targets-config', 'targets.yml', ...args], {
    cwd: checkout,
    env,
  });

/** The rows of a table of the page, by its title, as cells split on two or more spaces. */
function tableRows(page: string, title: RegExp): string[][] {
  const lines = page.split('\n');
  const start = lines.findIndex((line) => title.test(line));
  expect(start).toBeGreaterThanOrEqual(0);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('  ') || line.startsWith('  …')) break;
    rows.push(line.trim().split(/ {2,}/));
  }
  return rows;
}

describe('the page', () => {
  it('says which part of the config claims how many files, with examples, in compute order', async () => {
    const run = await lint();
    expect(run.exitCode).toBe(0);
    const rows = tableRows(run.stdout, /^What claims what$/);
    const byName = new Map(rows.map(([by, impacts, count, examples]) => [by, { impacts, count, examples }]));
    expect([...byName.keys()]).toEqual([
      'docs preset',
      'rule packages',
      'rule private packages',
      'rule workflows',
      'rule typo',
    ]);
    const markdown = TRACKED.filter((path) => path.endsWith('.md'));
    const docs = byName.get('docs preset')!;
    expect(docs.impacts).toBe('nothing (docs: ignore)');
    expect(Number(docs.count)).toBeGreaterThanOrEqual(markdown.length);
    const packages = byName.get('rule packages')!;
    expect(packages.impacts).toBe('{name}');
    // packages/global.d.ts is in no package: {name} is a directory.
    const packageCode = TRACKED.filter((p) => /^packages\/[^/]+\//.test(p) && !/(\.md|\/LICENSE)$/.test(p));
    expect(Number(packages.count)).toBe(packageCode.length);
    expect(packages.examples!.split(', ').every((path) => path.startsWith('packages/'))).toBe(true);
    expect(byName.get('rule workflows')).toMatchObject({ impacts: 'ci', count: '9' });
    expect(byName.get('rule typo')).toMatchObject({ count: '0' });
  });

  it('lists what nothing claims (no Markdown), and the glob that matches nothing', async () => {
    const run = await lint();
    expect(run.stdout.split('\n')[0]).toMatch(
      /^targets\.yml: \d+ files claimed by no rule, 1 glob matching no file$/,
    );
    expect(run.stdout).toMatch(/Claimed by none +\d+, each impacting ALL \(unmatched: all\)/);
    const shown = tableRows(run.stdout, /^Claimed by nothing \(\d+\)$/).map(([path]) => path);
    expect(shown.length).toBeGreaterThan(0);
    const json = await lint('--json');
    const unclaimed = JSON.parse(json.stdout).outputs['unclaimed-files'] as string[];
    expect(unclaimed.slice(0, shown.length)).toEqual(shown);
    expect(unclaimed).toEqual(expect.arrayContaining(['package.json', 'pnpm-lock.yaml', 'scripts/build.js']));
    expect(unclaimed.filter((path) => /\.md$|LICENSE$/.test(path))).toEqual([]);
    expect(tableRows(run.stdout, /^Globs that match no tracked file/)).toEqual([
      ['rules[3] (typo) match: "pakages/**"'],
    ]);
  });
});

describe('agreement with compute-impacted-targets', () => {
  it('each example file impacts in compute what the page says its claimant impacts', async () => {
    const rows = tableRows((await lint()).stdout, /^What claims what$/).filter(
      ([, , count]) => count !== '0',
    );
    for (const [by, impacts, , examples] of rows) {
      const file = examples!.split(', ')[0]!;
      const computed = await runCli(
        [
          'compute-impacted-targets',
          '--targets-config',
          'targets.yml',
          '--changed-files-from',
          'file',
          '--changed-files-file',
          '-',
          '--json',
        ],
        { cwd: checkout, env, stdin: `${file}\n` },
      );
      expect(computed.exitCode).toBe(0);
      const targets = JSON.parse(computed.stdout).outputs['impacted-targets'] as string[];
      const expected =
        impacts === 'nothing (docs: ignore)' ? [] : [impacts!.replace('{name}', file.split('/')[1]!)];
      expect({ by, file, targets }).toEqual({ by, file, targets: expected });
    }
  });

  it('--strict passes when only the docs preset claims the Markdown', async () => {
    const run = await runCli(['lint-impacted-targets-config', '--targets-config', 'strict.yml', '--strict'], {
      cwd: checkout,
      env,
    });
    expect(`exit ${run.exitCode}\n${run.stderr}`).toMatch(/^exit 0\n/);
    expect(run.stdout.split('\n')[0]).toBe('strict.yml: every file claimed, every glob used');
  });
});

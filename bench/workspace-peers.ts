// compute-impacted-targets beside each package manager's own change filter, on public monorepos
// recorded in __tests__/fixtures/workspace-history (redux-toolkit: yarn berry; vuejs/core and
// Shopify/hydrogen: pnpm; documenso: npm workspaces against turbo). Not graphql/graphiql: its recorded
// manifests carry no versions (recorded before the recorder kept them), which yarn's transparent
// workspaces need to link a plain range. For each, the recorded commit that changes the most
// files among those that change the lockfile is written into a git repository: its parent on `main`, the
// commit on `feature` (the manifests as recorded, documenso's package-lock.json rebuilt from its recorded
// lines, every other changed file with stand-in content), and the config docs/impacted-targets.md
// recommends for that manager.
// The figure: `node dist/index.js` with compute-impacted-targets (git merge base and diff, the workspace,
// the lockfile at both sides where the rules attribute it, outputs and summary). The peers, in the same
// interleaved rounds with the same environment: `pnpm ls -r --filter "...[main]"`, `yarn workspaces list
// --since=main -R` (yarn's own release, @yarnpkg/cli-dist) and `turbo ls --filter "...[main...feature]"`,
// each installed from npm, pinned, into a bench-only prefix at run time (--quick skips them unless
// --peers). Goals (issue 46): faster than pnpm and yarn, at most 1.2x turbo. Floor: `git diff
// --name-only main...feature`; beside it a bare Node start (`node -e 0`) and the action's start (Node
// and the bundle, up to its first file read), the floors of any answer from this action, which turbo
// (a native binary) does not pay. Each run's answer is checked against the peer's: the same packages.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { readHistory, replay, type RecordedCommit } from '../__tests__/helpers/recorded-workspace.js';
import { interleave, median, round, timeProcess, type Env } from './lib/measure.js';
import { emitResults, progress, QUICK, ratioOf, type BenchResult } from './lib/result.js';
import { REPO_ROOT } from './lib/servers.js';
import { stepEnvironment } from './lib/step-env.js';

const RUNS = QUICK ? 2 : 7;
const PEERS = { pnpm: '10.34.9', '@yarnpkg/cli-dist': '4.4.1', turbo: '2.11.11' };
const PREFIX = join(tmpdir(), `merge-queue-bench-managers-${Object.values(PEERS).join('-')}`);
const FIXTURES = join(REPO_ROOT, '__tests__', 'fixtures', 'workspace-history');
const WITH_PEERS = !QUICK || process.argv.includes('--peers');

interface Case {
  fixture: string;
  manager: 'pnpm' | 'yarn' | 'turbo';
  lockfile: string;
  config: string;
  goal: (ours: number, peer: number) => boolean;
  goalText: string;
}

const ROOTED = 'dependents:\n  workspaces:\n    target: "dir:{dir}"\n    root: "dir:"\n';
const CASES: Case[] = [
  {
    fixture: 'vue-core.json',
    manager: 'pnpm',
    lockfile: 'pnpm-lock.yaml',
    config: ROOTED,
    goal: (ours, peer) => ours < peer,
    goalText: 'faster than pnpm',
  },
  {
    fixture: 'redux-toolkit.json',
    manager: 'yarn',
    lockfile: 'yarn.lock',
    config: ROOTED,
    goal: (ours, peer) => ours < peer,
    goalText: 'faster than yarn',
  },
  {
    fixture: 'hydrogen.json',
    manager: 'pnpm',
    lockfile: 'pnpm-lock.yaml',
    config: ROOTED,
    goal: (ours, peer) => ours < peer,
    goalText: 'faster than pnpm',
  },
  {
    fixture: 'documenso.json',
    manager: 'turbo',
    lockfile: 'package-lock.json',
    config:
      'dependents:\n  workspaces:\n    target: "dir:{dir}"\nbarriers: [turbo.json]\nunmatched: ignore\n',
    goal: (ours, peer) => ours <= 1.2 * peer,
    goalText: 'at most 1.2x turbo',
  },
];

/** The recorded commit to measure, with the files at its parent and at itself. */
function pickCommit(fixture: string, lockfile: string) {
  const history = readHistory(join(FIXTURES, fixture));
  let best: { commit: RecordedCommit; before: Map<string, string>; after: Map<string, string> } | undefined;
  let before = new Map<string, string>();
  for (const [commit, tree, lockfiles] of replay(history)) {
    const after = new Map<string, string>();
    for (const path of tree.paths()) after.set(path, tree.read(path) as string);
    if (lockfiles) {
      before.set('package-lock.json', lockfiles.base);
      after.set('package-lock.json', lockfiles.head);
    }
    const touches = commit.changed.includes(lockfile);
    if (touches && (!best || commit.changed.length > best.commit.changed.length)) {
      best = { commit, before, after };
    }
    before = after;
  }
  if (!best) throw new Error(`${fixture} has no commit that changes ${lockfile}`);
  return { repository: history.repository, ...best };
}

function writeFiles(dir: string, files: Map<string, string>): void {
  for (const [path, content] of files) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
}

/** The repository: the parent on main, the commit on feature, checked out at feature. */
function buildRepository(dir: string, kase: Case): { head: string; repository: string; expected: number } {
  const { repository, commit, before, after } = pickCommit(kase.fixture, kase.lockfile);
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', ...args], {
      cwd: dir,
      encoding: 'utf8',
    }).trim();
  mkdirSync(dir, { recursive: true });
  git('init', '--quiet', '-b', 'main');
  const config = '.github/impacted-targets.yml';
  const base = new Map(before);
  const head = new Map(after);
  base.set(config, kase.config);
  head.set(config, kase.config);
  if (kase.manager === 'turbo') {
    const turbo = '{"$schema":"https://turbo.build/schema.json","tasks":{"build":{}}}\n';
    base.set('turbo.json', turbo);
    head.set('turbo.json', turbo);
  }
  for (const path of commit.changed) {
    if (head.has(path) && base.has(path)) continue;
    if (!commit.deleted.includes(path)) head.set(path, standIn(path, 'head'));
    if (!base.has(path)) base.set(path, standIn(path, 'base'));
  }
  for (const path of commit.deleted) head.delete(path);
  writeFiles(dir, base);
  git('add', '-A');
  git('commit', '--quiet', '-m', 'base');
  git('checkout', '--quiet', '-b', 'feature');
  for (const path of commit.deleted) rmSync(join(dir, path), { force: true });
  writeFiles(dir, head);
  git('add', '-A');
  git('commit', '--quiet', '--allow-empty', '-m', 'change');
  const expected = git('diff', '--name-only', 'main...feature').split('\n').filter(Boolean).length;
  return { head: git('rev-parse', 'HEAD'), repository, expected };
}

/** Content for a changed file the fixture does not record; a lockfile the manager parses stays valid. */
function standIn(path: string, side: string): string {
  if (path === 'yarn.lock') return `# ${side}\n__metadata:\n  version: 8\n  cacheKey: 10c0\n`;
  if (path === 'pnpm-lock.yaml') return `# ${side}\nlockfileVersion: '9.0'\n`;
  return `${path} at the ${side}\n`;
}

function installPeers(): string {
  const modules = join(PREFIX, 'node_modules');
  if (existsSync(join(modules, '.bin', 'turbo')) && existsSync(join(modules, '.bin', 'pnpm'))) return modules;
  progress(
    `installing ${Object.entries(PEERS)
      .map(([n, v]) => `${n}@${v}`)
      .join(', ')} into ${PREFIX} (bench only)...`,
  );
  mkdirSync(PREFIX, { recursive: true });
  const packages = Object.entries(PEERS).map(([name, version]) => `${name}@${version}`);
  execFileSync('npm', ['install', '--prefix', PREFIX, '--no-audit', '--no-fund', ...packages], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return modules;
}

/** The peer's command, and how its answer reads as project directories. */
function peerCommand(kase: Case, modules: string): { args: string[]; dirs: (stdout: string) => string[] } {
  if (kase.manager === 'pnpm') {
    return {
      args: [join(modules, '.bin', 'pnpm'), 'ls', '-r', '--filter', '...[main]', '--depth', '-1', '--json'],
      dirs: (out) => (JSON.parse(out || '[]') as { path: string }[]).map((p) => p.path),
    };
  }
  if (kase.manager === 'yarn') {
    const yarn = join(modules, '@yarnpkg', 'cli-dist', 'bin', 'yarn.js');
    return {
      args: [process.execPath, yarn, 'workspaces', 'list', '--since=main', '--recursive', '--json'],
      dirs: (out) =>
        out
          .split('\n')
          .filter((line) => line.trim())
          .map((line) => (JSON.parse(line) as { location: string }).location),
    };
  }
  return {
    args: [join(modules, '.bin', 'turbo'), 'ls', '--filter', '...[main...feature]', '--output', 'json'],
    dirs: (out) =>
      (JSON.parse(out) as { packages: { items: { path: string }[] } }).packages.items.map((i) => i.path),
  };
}

function peerEnvironment(dir: string): Env {
  const home = join(dir, 'home');
  mkdirSync(home, { recursive: true });
  return {
    HOME: home,
    TURBO_TELEMETRY_DISABLED: '1',
    TURBO_NO_UPDATE_NOTIFIER: '1',
    YARN_ENABLE_TELEMETRY: '0',
    YARN_IGNORE_PATH: '1',
    npm_config_manage_package_manager_versions: 'false',
    COREPACK_ENABLE_STRICT: '0',
  };
}

/**
 * The action up to its first file read: told to take the changed files from a list and to read a
 * config that is not there, it starts no git and stops with exit code 2.
 */
function startSubject(step: ReturnType<typeof stepEnvironment>, ours: Env) {
  return {
    name: 'start',
    run: async () => {
      step.reset();
      const result = await timeProcess(process.execPath, [join(REPO_ROOT, 'dist/index.js')], {
        cwd: REPO_ROOT,
        env: {
          ...ours,
          'INPUT_TARGETS-CONFIG': 'no-such-config.yml',
          'INPUT_CHANGED-FILES-FILE': 'no-such-list.txt',
        },
      });
      if (result.exitCode !== 2) throw new Error(`the action's start exited ${result.exitCode}, not 2`);
      return result.ms;
    },
  };
}

function resultOf(
  kase: Case,
  repository: string,
  samples: Map<string, number[]>,
  counts: { peerRan: boolean; ourCount: number; peerCount: number },
): BenchResult {
  const figure = round(median(samples.get('ours') ?? []));
  const floor = round(median(samples.get('floor') ?? []));
  const peerMs = counts.peerRan ? round(median(samples.get('peer') ?? [])) : undefined;
  const nodeMs = round(median(samples.get('node') ?? []));
  const startMs = round(median(samples.get('start') ?? []));
  const met = peerMs === undefined ? null : kase.goal(figure, peerMs);
  const peerName =
    kase.manager === 'yarn' ? `yarn ${PEERS['@yarnpkg/cli-dist']}` : `${kase.manager} ${PEERS[kase.manager]}`;
  return {
    name: `Lockfile change vs ${peerName} (${repository})`,
    figure,
    unit: 'ms',
    floor,
    ratio: ratioOf(figure, floor),
    goal: kase.goalText,
    met,
    runs: RUNS,
    command: 'node dist/index.js (compute-impacted-targets, git changed files, the recommended config)',
    floorCommand: 'git diff --name-only main...feature',
    notes:
      peerMs === undefined
        ? 'peers not run (--quick without --peers)'
        : `${peerName}: ${peerMs} ms (ours ${round(figure / peerMs, 2)}x); ${counts.ourCount} targets, the peer ${counts.peerCount} packages. Ours is a Node start and the bundle's load, git's merge base and diff, the manifests and, for turbo's rules, the lockfile at both sides (one more git process). ${nodeFloor({ nodeMs, startMs, figure }, peerMs, kase)}`,
  };
}

async function measureCase(kase: Case, dir: string, modules: string | undefined): Promise<BenchResult> {
  const repo = join(dir, kase.fixture.replace(/\.json$/, ''));
  const { head, repository, expected } = buildRepository(repo, kase);
  const step = stepEnvironment(dir, {
    eventName: 'workflow_dispatch',
    payload: {},
    repository: 'bench/managers',
  });
  const ours: Env = {
    ...step.env,
    INPUT_OPERATION: 'compute-impacted-targets',
    'INPUT_WORKING-DIRECTORY': repo,
    'INPUT_TARGET-BRANCH': 'main',
    'INPUT_PR-SHA': head,
  };
  const peerEnv = peerEnvironment(dir);
  let ourCount = -1;
  let peerCount = -1;
  const run = async (what: string, args: string[], env: Env, cwd: string) => {
    step.reset();
    const result = await timeProcess(args[0] as string, args.slice(1), { cwd, env });
    if (result.exitCode !== 0) {
      const said = (result.stdout + result.stderr).trim().split('\n').slice(0, 3).join(' | ');
      throw new Error(`${what} did not do its job (exit ${result.exitCode}): ${said}`);
    }
    return result;
  };
  const subjects = [
    {
      name: 'ours',
      run: async () => {
        const result = await run(
          'compute-impacted-targets',
          [process.execPath, join(REPO_ROOT, 'dist/index.js')],
          ours,
          REPO_ROOT,
        );
        const outputs = readFileSync(step.files.output, 'utf8');
        const all = /^impacts-all<<.+\ntrue$/m.test(outputs);
        const count = /^impacted-targets-count<<.+\n(\d+)$/m.exec(outputs);
        const files = /^changed-files-count<<.+\n(\d+)$/m.exec(outputs);
        if (all || Number(files?.[1]) !== expected)
          throw new Error(`compute-impacted-targets answered ${all ? 'ALL' : files?.[1]}`);
        ourCount = Number(count?.[1] ?? 0);
        return result.ms;
      },
    },
    {
      name: 'floor',
      run: async () =>
        (await run('git diff', ['git', '-C', repo, 'diff', '--name-only', 'main...feature'], {}, repo)).ms,
    },
    {
      // What any answer from Node costs before it reads a byte: the floor under the goal against turbo.
      name: 'node',
      run: async () => (await run('node -e 0', [process.execPath, '-e', '0'], {}, repo)).ms,
    },
    startSubject(step, ours),
  ];
  const peer = modules ? peerCommand(kase, modules) : undefined;
  if (peer) {
    subjects.push({
      name: 'peer',
      run: async () => {
        const result = await run(kase.manager, peer.args, peerEnv, repo);
        peerCount = peer.dirs(result.stdout).length;
        return result.ms;
      },
    });
  }
  progress(`${kase.manager}: ${repository}, ${expected} changed files; ${RUNS} interleaved rounds...`);
  const samples = await interleave(subjects, RUNS);
  return resultOf(kase, repository, samples, { peerRan: peer !== undefined, ourCount, peerCount });
}

/** The Node floors beside the peer; against turbo, a native binary, what they leave of the goal. */
function nodeFloor(
  { nodeMs, startMs, figure }: { nodeMs: number; startMs: number; figure: number },
  peerMs: number,
  kase: Case,
): string {
  const said = `Floors of the same rounds: a bare Node start (node -e 0) ${nodeMs} ms, ${round(nodeMs / peerMs, 2)}x the peer; the action's start (Node and the bundle, up to its first file read) ${startMs} ms, ${round(startMs / peerMs, 2)}x`;
  if (kase.manager !== 'turbo') return `${said}.`;
  const goal = round(1.2 * peerMs);
  const work = round(figure - startMs);
  return goal > startMs
    ? `${said}. 1.2x turbo (${goal} ms) leaves ${round(goal - startMs)} ms over the action's start for git, the manifests and both lockfiles, which take ${work} ms here.`
    : `${said}. 1.2x turbo (${goal} ms) is below the action's start alone: out of reach for a Node action that loads this bundle, whatever the work after it (${work} ms here).`;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-managers-'));
  try {
    const modules = WITH_PEERS ? installPeers() : undefined;
    const results: BenchResult[] = [];
    for (const kase of CASES) results.push(await measureCase(kase, dir, modules));
    emitResults(results);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();

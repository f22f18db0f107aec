// compute-impacted-targets end to end on a synthetic monorepo: 100,000 tracked files, 10,000 of them
// changed by the PR, a config of 500 rules, and a pnpm workspace of 2,000 packages whose dependents are
// followed at any depth. The figure: `node dist/index.js` with compute-impacted-targets (git merge base,
// diff, workspace read, rules, dependents, outputs and summary). Against the peers, tools that answer
// the same question on the same repository: `turbo ls --affected` and `nx show projects --affected`
// (each finds the changed packages and their dependents), and a paths-filter step, picomatch with one
// filter per rule of the config (bench/lib/paths-filter.mjs). Goal: at most 0.5x the fastest peer. The
// floor: `git diff --name-only <base>...<head>`, the least any tool must do to know what changed. Two
// more floors in the same rounds say what the goal leaves room for: the action's own start (Node and
// the bundle, up to its first file read: a run told to read a config that is not there), and the git
// processes and manifest reads the action does, done the cheapest way in plain Node
// (lib/compute-io-floor.mjs).
// Every subject runs in the same interleaved rounds, under GNU time for its peak RSS, with one
// environment (lib/measure.ts: PATH and what each needs). turbo and nx are not dependencies of the
// project (about 120 MB with their native binaries): they are installed from npm, pinned, into a
// bench-only prefix in the temp directory at run time (kept for the next run); --quick skips them
// unless --peers is given.
// The repository is written once with `git fast-import` and checked out (the workspace's package.json
// files are read from the work tree); its root holds what turbo and nx need (turbo.json, nx.json, the
// packageManager field), committed at the base.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { interleave, median, round, timeProcess, type Env } from './lib/measure.js';
import { emitResults, progress, QUICK, ratioOf, type BenchResult } from './lib/result.js';
import { REPO_ROOT } from './lib/servers.js';
import { stepEnvironment } from './lib/step-env.js';

const RUNS = QUICK ? 2 : 7;
/**
 * `--entry <after>/index.js --vs <before>/index.js`: a speed change measured against the bundle before it,
 * in the same interleaved rounds (turbo and nx are then not run); the medians are printed on stderr.
 */
const argAfter = (flag: string) => {
  const i = process.argv.indexOf(flag);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const ENTRY = argAfter('--entry') ?? 'dist/index.js';
const VS = argAfter('--vs');
const SCALE = QUICK ? 10 : 1;
const PACKAGES = 2000 / SCALE;
const FILES_PER_PACKAGE = 40;
const SERVICES = Math.floor(496 / SCALE);
const FILES_PER_SERVICE = 40;
const CHANGE_EVERY = 10;
const GOAL_PEER_RATIO = 0.5;
const PEER_VERSIONS = { turbo: '2.11.11', nx: '24.0.6' };
const PEER_PREFIX = join(
  tmpdir(),
  `merge-queue-bench-peers-turbo-${PEER_VERSIONS.turbo}-nx-${PEER_VERSIONS.nx}`,
);
const GNU_TIME = '/usr/bin/time';
const NODE = process.execPath;

if (!existsSync(GNU_TIME))
  throw new Error(`${GNU_TIME} (GNU time) is needed for peak memory; install it (apt-get install time)`);

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** 496 literal service rules, a capture rule for packages, a tools rule and a catch-all: 500 rules. */
function config(): string {
  const lines = ['version: 1', 'barriers: [pnpm-lock.yaml]', 'inert: ["**/*.md"]', 'rules:'];
  for (let s = 0; s < SERVICES; s++) {
    lines.push(`  - match: "services/svc-${pad(s, 3)}/**"`, `    targets: ["svc-${pad(s, 3)}"]`);
  }
  lines.push(
    '  - match: "packages/{pkg}/src/**"',
    '    targets: ["src:{pkg}"]',
    '  - match: "tools/**"',
    '    targets: [tools]',
    '  - match: "{a,b}/**"',
    '    targets: [ab]',
    '  - match: "config/*.json"',
    '    targets: [config]',
    'dependents:',
    '  workspaces:',
    '    target: "pkg:{name}"',
    '    depth: all',
    'unmatched: ignore',
  );
  return `${lines.join('\n')}\n`;
}

/** The config's rules as paths-filter filters: one per rule, named by its targets, with its glob. */
function pathsFilters(): Record<string, string[]> {
  const filters: Record<string, string[]> = {};
  for (let s = 0; s < SERVICES; s++) filters[`svc-${pad(s, 3)}`] = [`services/svc-${pad(s, 3)}/**`];
  Object.assign(filters, {
    packages: ['packages/*/src/**'],
    tools: ['tools/**'],
    ab: ['{a,b}/**'],
    config: ['config/*.json'],
  });
  return filters;
}

/** The bin directory of turbo and nx, installed from npm into a bench-only prefix when missing. */
function peersBin(): string {
  const bin = join(PEER_PREFIX, 'node_modules', '.bin');
  if (existsSync(join(bin, 'turbo')) && existsSync(join(bin, 'nx'))) return bin;
  progress(
    `installing turbo@${PEER_VERSIONS.turbo} and nx@${PEER_VERSIONS.nx} into ${PEER_PREFIX} (bench only)...`,
  );
  mkdirSync(PEER_PREFIX, { recursive: true });
  const packages = Object.entries(PEER_VERSIONS).map(([name, version]) => `${name}@${version}`);
  execFileSync('npm', ['install', '--prefix', PEER_PREFIX, '--no-audit', '--no-fund', ...packages], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return bin;
}

/** Every tracked path with its content at the base; `changed` says which the PR modifies. */
function* repositoryFiles(): Generator<{ path: string; content: string; changed: boolean }> {
  let index = 0;
  const next = () => index++ % CHANGE_EVERY === 0;
  yield { path: '.github/impacted-targets.yml', content: config(), changed: false };
  yield { path: 'pnpm-workspace.yaml', content: 'packages:\n  - "packages/*"\n', changed: false };
  yield {
    path: 'package.json',
    content: '{"name":"root","private":true,"packageManager":"pnpm@9.15.0"}\n',
    changed: false,
  };
  yield { path: 'turbo.json', content: '{"tasks":{}}\n', changed: false };
  yield { path: 'nx.json', content: '{"defaultBase":"main"}\n', changed: false };
  yield { path: '.gitignore', content: '.nx/\n.turbo/\nnode_modules/\n', changed: false };
  for (let p = 0; p < PACKAGES; p++) {
    // Each package depends on two lower-numbered ones: a deep graph, as real monorepos have.
    const deps = [p - 1, Math.floor(p / 2)].filter((d) => d >= 0 && d !== p);
    const manifest = {
      name: `@bench/pkg-${pad(p, 4)}`,
      version: '1.0.0',
      dependencies: Object.fromEntries(deps.map((d) => [`@bench/pkg-${pad(d, 4)}`, 'workspace:*'])),
    };
    yield {
      path: `packages/pkg-${pad(p, 4)}/package.json`,
      content: `${JSON.stringify(manifest)}\n`,
      changed: false,
    };
    for (let f = 1; f < FILES_PER_PACKAGE; f++) {
      yield {
        path: `packages/pkg-${pad(p, 4)}/src/module-${f}.ts`,
        content: `export const v${f} = ${p};\n`,
        changed: next(),
      };
    }
    yield { path: `packages/pkg-${pad(p, 4)}/README.md`, content: `# pkg ${p}\n`, changed: false };
  }
  for (let s = 0; s < SERVICES; s++) {
    for (let f = 0; f < FILES_PER_SERVICE; f++) {
      yield {
        path: `services/svc-${pad(s, 3)}/src/handler-${f}.go`,
        content: `package svc // ${s} ${f}\n`,
        changed: next(),
      };
    }
  }
}

/** A fast-import stream: the base commit on main, then the PR's commit on feature changing every 10th file. */
function fastImportStream(): { stream: Buffer; tracked: number; changed: number } {
  const parts: string[] = [];
  const modify = (path: string, content: string) =>
    parts.push(`M 100644 inline ${path}\ndata ${Buffer.byteLength(content)}\n${content}\n`);
  const files = [...repositoryFiles()];
  parts.push(
    'commit refs/heads/main\nmark :1\ncommitter Bench <bench@example.com> 1700000000 +0000\ndata 4\nbase\n',
  );
  for (const file of files) modify(file.path, file.content);
  parts.push(
    '\ncommit refs/heads/feature\nmark :2\ncommitter Bench <bench@example.com> 1700000100 +0000\ndata 2\nPR\nfrom :1\n',
  );
  let changed = 0;
  for (const file of files) {
    if (!file.changed) continue;
    modify(file.path, `${file.content}// changed by the PR\n`);
    changed++;
  }
  parts.push('\n');
  return { stream: Buffer.from(parts.join('')), tracked: files.length, changed };
}

/** The after/before ratios of each round's pair, as medians, with the ranges of both builds. */
function pairedSaid(after: { ms: number; cpuMs: number }[], before: { ms: number; cpuMs: number }[]): string {
  const ratio = (field: 'ms' | 'cpuMs') => median(after.map((a, i) => a[field] / before[i]![field]));
  const range = (samples: { ms: number }[]) =>
    `${Math.min(...samples.map((s) => s.ms)).toFixed(0)}-${Math.max(...samples.map((s) => s.ms)).toFixed(0)} ms`;
  return `after/before paired ratios: wall ${ratio('ms').toFixed(3)}, CPU ${ratio('cpuMs').toFixed(3)}; ranges: after ${range(after)}, before ${range(before)}`;
}

const dir = mkdtempSync(join(tmpdir(), 'bench-compute-'));
try {
  const repo = join(dir, 'monorepo');
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: repo, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }).trim();
  execFileSync('git', ['init', '--quiet', '-b', 'main', repo]);
  const { stream, tracked, changed } = fastImportStream();
  progress(`writing a repository of ${tracked} files (${changed} changed by the PR) with git fast-import...`);
  const imported = spawnSync('git', ['fast-import', '--quiet'], { cwd: repo, input: stream });
  if (imported.status !== 0) throw new Error(`git fast-import failed: ${imported.stderr.toString()}`);
  git('checkout', '--quiet', '-f', 'feature');
  const head = git('rev-parse', 'HEAD');
  if (Number(git('ls-files').split('\n').length) !== tracked)
    throw new Error('the checkout does not hold every file');

  const step = stepEnvironment(dir, {
    eventName: 'workflow_dispatch',
    payload: {},
    repository: 'bench/monorepo',
  });
  const actionEnv = {
    ...step.env,
    INPUT_OPERATION: 'compute-impacted-targets',
    'INPUT_WORKING-DIRECTORY': repo,
    'INPUT_TARGET-BRANCH': 'main',
    'INPUT_PR-SHA': head,
  };
  // The action told to take the changed files from a list and to read a config that is not there: it
  // starts no git and stops at its first file read, with exit code 2.
  const startEnv = {
    ...actionEnv,
    'INPUT_TARGETS-CONFIG': 'no-such-config.yml',
    'INPUT_CHANGED-FILES-FILE': 'no-such-list.txt',
  };
  const floorArgs = ['-C', repo, 'diff', '--name-only', 'main...feature'];
  const expectedChanged = changed;

  interface Sample {
    ms: number;
    peakKiB: number;
    /** User and system CPU time of the process and its children (git): steadier than wall time under load. */
    cpuMs: number;
  }
  const measured = async (
    what: string,
    args: string[],
    env: Env,
    check: (stdout: string) => boolean,
    cwd = REPO_ROOT,
    exitCode = 0,
  ) => {
    step.reset();
    const result = await timeProcess(GNU_TIME, ['-f', 'cpu-s=%U+%S peak-rss-kib=%M', ...args], { cwd, env });
    const peak = /cpu-s=([\d.]+)\+([\d.]+) peak-rss-kib=(\d+)\s*$/.exec(result.stderr);
    if (result.exitCode !== exitCode || !peak || !check(result.stdout)) {
      const said = (result.stdout + result.stderr).trim().split('\n').slice(-3).join(' | ');
      throw new Error(`${what} did not do its job (exit ${result.exitCode}): ${said}`);
    }
    return {
      ms: result.ms,
      peakKiB: Number(peak[3]),
      cpuMs: (Number(peak[1]) + Number(peak[2])) * 1000,
    };
  };
  let targetsCount = 0;
  const computedEverything = () => {
    const outputs = readFileSync(step.files.output, 'utf8');
    const count = /^impacted-targets-count<<.+\n(\d+)$/m.exec(outputs);
    const files = /^changed-files-count<<.+\n(\d+)$/m.exec(outputs);
    targetsCount = Number(count?.[1] ?? 0);
    return (
      /^impacts-all<<.+\nfalse$/m.test(outputs) && Number(files?.[1]) === expectedChanged && targetsCount > 0
    );
  };

  const filtersFile = join(dir, 'filters.json');
  writeFileSync(filtersFile, JSON.stringify(pathsFilters()));
  const bin = (QUICK && !process.argv.includes('--peers')) || VS ? undefined : peersBin();
  // nx runs only from a workspace that holds it, as after an install: the prefix's node_modules, linked.
  if (bin) symlinkSync(join(PEER_PREFIX, 'node_modules'), join(repo, 'node_modules'));
  // What each peer found, for the notes: affected packages (turbo, nx), matched filters (paths-filter).
  const found = new Map<string, string>();
  const peerEnv = {
    HOME: join(dir, 'home'),
    TURBO_TELEMETRY_DISABLED: '1',
    TURBO_NO_UPDATE_NOTIFIER: '1',
    NX_DAEMON: 'false',
    NX_NO_CLOUD: 'true',
    NX_TUI: 'false',
  };
  mkdirSync(peerEnv.HOME, { recursive: true });
  const peers = [
    ...(bin
      ? [
          {
            name: 'turbo',
            run: () =>
              measured(
                'turbo ls --affected',
                [join(bin, 'turbo'), 'ls', '--affected', '--output=json'],
                { ...peerEnv, TURBO_SCM_BASE: 'main', TURBO_SCM_HEAD: 'feature' },
                (out) => {
                  const listed = (JSON.parse(out.slice(out.indexOf('{'))) as { packages: { count: number } })
                    .packages.count;
                  found.set('turbo', `${listed.toLocaleString('en-US')} packages`);
                  return listed > 0;
                },
                repo,
              ),
          },
          {
            name: 'nx',
            run: () => {
              // Cold, as in a fresh checkout: nx keeps its project graph in .nx/ of the workspace.
              rmSync(join(repo, '.nx'), { recursive: true, force: true });
              return measured(
                'nx show projects --affected',
                [
                  join(bin, 'nx'),
                  'show',
                  'projects',
                  '--affected',
                  '--base=main',
                  '--head=feature',
                  '--json',
                ],
                peerEnv,
                (out) => {
                  const listed = (JSON.parse(out.slice(out.indexOf('['))) as string[]).length;
                  found.set('nx', `${listed.toLocaleString('en-US')} projects`);
                  return listed > 0;
                },
                repo,
              );
            },
          },
        ]
      : []),
    {
      name: 'paths-filter',
      run: () =>
        measured(
          'node bench/lib/paths-filter.mjs',
          [NODE, 'bench/lib/paths-filter.mjs', repo, 'main...feature', filtersFile],
          {},
          (out) => {
            const matched = /(\d+) changed files, (\d+) filters matched/.exec(out);
            found.set('paths-filter', `${matched?.[2] ?? '?'} filters matched`);
            return Number(matched?.[1]) === expectedChanged;
          },
        ),
    },
  ];

  const samples = await interleave<Sample>(
    [
      ...peers,
      {
        name: 'action',
        run: () =>
          measured(`node ${ENTRY} (compute-impacted-targets)`, [NODE, ENTRY], actionEnv, computedEverything),
      },
      ...(VS
        ? [
            {
              name: 'before',
              run: () =>
                measured(`node ${VS} (compute-impacted-targets)`, [NODE, VS], actionEnv, computedEverything),
            },
          ]
        : []),
      {
        name: 'git',
        run: () =>
          measured(
            'git diff --name-only',
            ['git', ...floorArgs],
            {},
            (out) => out.trim().split('\n').length === expectedChanged,
          ),
      },
      {
        name: 'node',
        run: () => measured('node -e ""', [NODE, '-e', ''], {}, () => true),
      },
      {
        name: 'start',
        run: () =>
          measured(
            `node ${ENTRY} (up to its first file read)`,
            [NODE, ENTRY],
            startEnv,
            (out) => out.includes('targets-config'),
            REPO_ROOT,
            2,
          ),
      },
      {
        name: 'io',
        run: () =>
          measured(
            'node bench/lib/compute-io-floor.mjs',
            [NODE, 'bench/lib/compute-io-floor.mjs', repo, 'main', head, 'packages'],
            {},
            (out) => out.startsWith(`${expectedChanged} changed files, ${PACKAGES} manifests`),
          ),
      },
    ],
    RUNS,
    1,
  );
  const medianOf = (subject: string, field: keyof Sample) =>
    median(samples.get(subject)!.map((s) => s[field]));
  const actionMs = medianOf('action', 'ms');
  const gitMs = medianOf('git', 'ms');
  const nodeMs = medianOf('node', 'ms');
  const startMs = medianOf('start', 'ms');
  const ioMs = medianOf('io', 'ms');
  const actionMiB = medianOf('action', 'peakKiB') / 1024;
  const nodeMiB = medianOf('node', 'peakKiB') / 1024;
  const gitMiB = medianOf('git', 'peakKiB') / 1024;
  progress(
    `medians: ${[...samples.keys()].map((k) => `${k} ${medianOf(k, 'ms').toFixed(0)} ms (CPU ${medianOf(k, 'cpuMs').toFixed(0)} ms)`).join(', ')}`,
  );
  if (VS) progress(`--vs: ${pairedSaid(samples.get('action')!, samples.get('before')!)}`);
  const peerMedians = peers.map((peer) => ({ name: peer.name, ms: medianOf(peer.name, 'ms') }));
  const fastest = peerMedians.reduce((best, peer) => (peer.ms < best.ms ? peer : best));
  const peerCommands: Record<string, string> = {
    turbo: 'turbo ls --affected (TURBO_SCM_BASE=main, TURBO_SCM_HEAD=feature)',
    nx: 'nx show projects --affected --base=main --head=feature (no daemon, .nx/ removed before each run)',
    'paths-filter': 'node bench/lib/paths-filter.mjs (git diff, then picomatch, one filter per rule)',
  };
  const peerRatio = ratioOf(actionMs, fastest.ms);
  const goalMs = GOAL_PEER_RATIO * fastest.ms;
  const floorsSaid = `Floors of the same rounds: node -e "" ${round(nodeMs)} ms; the action's start (Node and the bundle, up to its first file read) ${round(startMs)} ms; the git processes and the ${PACKAGES.toLocaleString('en-US')} manifest reads the action does, in a bare Node script (bench/lib/compute-io-floor.mjs), ${round(ioMs)} ms, ${round(ioMs / fastest.ms, 2)}x of ${fastest.name}. ${goalMs > ioMs ? `The goal (${round(goalMs)} ms) leaves ${round(goalMs - ioMs)} ms over that floor` : `The goal (${round(goalMs)} ms) is below that floor, which leaves nothing`} for loading the bundle (${round(startMs - nodeMs)} ms here), the config, the rules, the dependents and the outputs, which take ${round(actionMs - ioMs)} ms here.`;
  const gitRatio = ratioOf(actionMs, gitMs);
  const scale = `${tracked.toLocaleString('en-US')} files, ${changed.toLocaleString('en-US')} changed, ${SERVICES + 4} rules, ${PACKAGES.toLocaleString('en-US')} packages`;
  const command =
    'node dist/index.js (compute-impacted-targets, git changed files, pnpm workspace dependents at any depth)';
  const peersSaid = peerMedians
    .map(
      (peer) =>
        `${peer.name} ${round(peer.ms)} ms (${round(actionMs / peer.ms, 2)}x; ${found.get(peer.name)})`,
    )
    .join(', ');
  const how = `The action starts git merge-base and git diff --no-renames <branch>...<head> (the floor's work, without rename detection) for the remote-tracking and the local target branch at once (the remote-tracking one wins when both exist; this repository has only the local one) before it reads the config, which it reads with js-yaml and checks in plain code (the yaml and schema libraries are loaded only to explain a bad config); it reads the ${PACKAGES.toLocaleString('en-US')} package.json files a few at a time while git works, taking git's output in between; it tests each changed file only against the rules whose fixed directory is one of its ancestors, dir/** and dir/{capture}/** globs with string operations, and gives a directory's answer again to its next files when the directory alone decides it.`;
  const results: BenchResult[] = [
    {
      name: `Compute impacted targets: ${scale}${QUICK ? ' (quick)' : ''}, against the fastest peer`,
      figure: round(actionMs, 1),
      unit: 'ms',
      floor: round(fastest.ms, 1),
      ratio: peerRatio === null ? null : round(peerRatio, 2),
      goal: `ratio <= ${GOAL_PEER_RATIO} (of the fastest of turbo, nx and paths-filter)`,
      met: bin ? peerRatio !== null && peerRatio <= GOAL_PEER_RATIO : null,
      runs: RUNS,
      command,
      floorCommand: `${peerCommands[fastest.name]}, the fastest peer`,
      notes: `${targetsCount.toLocaleString('en-US')} targets impacted. Peers, medians of the same rounds: ${peersSaid}${bin ? '' : ' (turbo and nx are not run with --quick or --vs)'}. ${floorsSaid} turbo and nx list the changed packages and their dependents; paths-filter only matches the changed files against the rules' globs (no dependents). Run-time installs from npm, not project dependencies: turbo@${PEER_VERSIONS.turbo} and nx@${PEER_VERSIONS.nx} with their native binaries (about 120 MB).`,
    },
    {
      name: `Compute impacted targets: ${scale}${QUICK ? ' (quick)' : ''}, against git diff alone`,
      figure: round(actionMs, 1),
      unit: 'ms',
      floor: round(gitMs, 1),
      ratio: gitRatio === null ? null : round(gitRatio, 2),
      goal: '',
      met: null,
      runs: RUNS,
      command,
      floorCommand: 'git diff --name-only main...feature (the same repository)',
      notes: `Node alone (node -e "") takes ${round(nodeMs)} ms of the figure. Peak RSS: the action ${round(actionMiB, 1)} MiB (${round(actionMiB - nodeMiB, 1)} MiB above node -e "" at ${round(nodeMiB, 1)} MiB), git diff ${round(gitMiB, 1)} MiB. ${how}`,
    },
  ];
  emitResults(results);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

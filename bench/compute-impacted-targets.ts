// compute-impacted-targets end to end on a synthetic monorepo: 100,000 tracked files, 10,000 of them
// changed by the PR, a config of 500 rules, and a pnpm workspace of 2,000 packages whose dependents are
// followed at any depth. The figure: `node dist/index.js` with compute-impacted-targets (git merge base,
// diff, workspace read, rules, dependents, outputs and summary). The floor: `git diff --name-only
// <base>...<head>` on the same repository, the least any tool must do to know what changed. Goal: at
// most 2x. Both run interleaved, under GNU time for their peak RSS. The repository is written once with
// `git fast-import` and checked out (the workspace's package.json files are read from the work tree).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { interleave, median, round, timeProcess } from './lib/measure.js';
import { emitResults, progress, QUICK, ratioOf, type BenchResult } from './lib/result.js';
import { REPO_ROOT } from './lib/servers.js';
import { stepEnvironment } from './lib/step-env.js';

const RUNS = QUICK ? 2 : 7;
const SCALE = QUICK ? 10 : 1;
const PACKAGES = 2000 / SCALE;
const FILES_PER_PACKAGE = 40;
const SERVICES = 496 / SCALE;
const FILES_PER_SERVICE = 40;
const CHANGE_EVERY = 10;
const GOAL_RATIO = 2;
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

/** Every tracked path with its content at the base; `changed` says which the PR modifies. */
function* repositoryFiles(): Generator<{ path: string; content: string; changed: boolean }> {
  let index = 0;
  const next = () => index++ % CHANGE_EVERY === 0;
  yield { path: '.github/impacted-targets.yml', content: config(), changed: false };
  yield { path: 'pnpm-workspace.yaml', content: 'packages:\n  - "packages/*"\n', changed: false };
  yield { path: 'package.json', content: '{"name":"root","private":true}\n', changed: false };
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
  const floorArgs = ['-C', repo, 'diff', '--name-only', 'main...feature'];
  const expectedChanged = changed;

  interface Sample {
    ms: number;
    peakKiB: number;
  }
  const measured = async (
    what: string,
    args: string[],
    env: NodeJS.ProcessEnv,
    check: (stdout: string) => boolean,
  ) => {
    step.reset();
    const result = await timeProcess(GNU_TIME, ['-f', 'peak-rss-kib=%M', ...args], { cwd: REPO_ROOT, env });
    const peak = /peak-rss-kib=(\d+)\s*$/.exec(result.stderr);
    if (result.exitCode !== 0 || !peak || !check(result.stdout)) {
      const said = (result.stdout + result.stderr).trim().split('\n').slice(-3).join(' | ');
      throw new Error(`${what} did not do its job (exit ${result.exitCode}): ${said}`);
    }
    return { ms: result.ms, peakKiB: Number(peak[1]) };
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

  const samples = await interleave<Sample>(
    [
      {
        name: 'action',
        run: () =>
          measured(
            'node dist/index.js (compute-impacted-targets)',
            [NODE, 'dist/index.js'],
            actionEnv,
            computedEverything,
          ),
      },
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
    ],
    RUNS,
    1,
  );
  const medianOf = (subject: string, field: keyof Sample) =>
    median(samples.get(subject)!.map((s) => s[field]));
  const actionMs = medianOf('action', 'ms');
  const gitMs = medianOf('git', 'ms');
  const nodeMs = medianOf('node', 'ms');
  const actionMiB = medianOf('action', 'peakKiB') / 1024;
  const nodeMiB = medianOf('node', 'peakKiB') / 1024;
  const gitMiB = medianOf('git', 'peakKiB') / 1024;
  progress(
    `medians: action ${actionMs.toFixed(0)} ms, git diff ${gitMs.toFixed(0)} ms, node -e "" ${nodeMs.toFixed(0)} ms`,
  );
  const ratio = ratioOf(actionMs, gitMs);
  const scale = `${tracked.toLocaleString('en-US')} files, ${changed.toLocaleString('en-US')} changed, ${SERVICES + 4} rules, ${PACKAGES.toLocaleString('en-US')} packages`;
  const results: BenchResult[] = [
    {
      name: `Compute impacted targets: ${scale}${QUICK ? ' (quick)' : ''}`,
      figure: round(actionMs, 1),
      unit: 'ms',
      floor: round(gitMs, 1),
      ratio: ratio === null ? null : round(ratio, 2),
      goal: `ratio <= ${GOAL_RATIO}`,
      met: ratio !== null && ratio <= GOAL_RATIO,
      runs: RUNS,
      command:
        'node dist/index.js (compute-impacted-targets, git changed files, pnpm workspace dependents at any depth)',
      floorCommand: 'git diff --name-only main...feature (the same repository)',
      notes: `${targetsCount.toLocaleString('en-US')} targets impacted. Node alone (node -e "") takes ${round(nodeMs)} ms of the figure. Peak RSS: the action ${round(actionMiB, 1)} MiB (${round(actionMiB - nodeMiB, 1)} MiB above node -e "" at ${round(nodeMiB, 1)} MiB), git diff ${round(gitMiB, 1)} MiB. The action starts git merge-base and git diff --no-renames <branch>...<head> (the floor's work, without rename detection) for the remote-tracking and the local target branch at once (the remote-tracking one wins when both exist; this repository has only the local one) before it reads the config, which it reads with js-yaml and checks in plain code (the yaml and schema libraries are loaded only to explain a bad config); it reads the 2,000 package.json files a few at a time while git works, taking git's output in between; it tests each changed file only against the rules whose fixed directory is one of its ancestors, dir/** and dir/{capture}/** globs with string operations, and gives a directory's answer again to its next files when the directory alone decides it.`,
    },
  ];
  emitResults(results);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

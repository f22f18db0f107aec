// Bundle: the JavaScript a run loads. The figures are the bytes of the files of dist/ that one
// get-submitted-pull-request run against the emulator loads (the entry and every chunk it imports,
// recorded by bench/lib/record-loads.mjs), for the action (dist/index.js, which imports the one bundle,
// dist/cli/) and for the CLI (dist/cli/index.js), against a floor built the same way in the same run: bench/lib/minimal-action.mjs,
// the smallest action of its kind (@actions/core + @actions/http-client, one POST), all of which its run
// loads. Both are built with the flags of `npm run bundle`, read from package.json. The notes say what
// each file of dist/ holds, from ncc's webpack stats of that fresh build, by the innermost
// node_modules/<package> of each module; the fresh build must come out the size of dist/cli/, or
// dist/ is stale.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { loadedFiles, prepareGetSubmittedRun, type LoadedFiles } from './lib/get-submitted-run.js';
import { emitResults, progress, QUICK, ratioOf } from './lib/result.js';
import { REPO_ROOT } from './lib/servers.js';

const GOAL_LOADED_BYTES = 700_000;
const TOKEN = 'bench-token';
const NCC = join(REPO_ROOT, 'node_modules/@vercel/ncc/dist/ncc/cli.js');
const run = promisify(execFile);

interface Build {
  /** Bytes of each .js file the build wrote, index.js first. */
  files: [string, number][];
  /** Per output file: module source bytes (before minifying) per package, largest first. */
  packages: Map<string, [string, number][]>;
}

interface StatsModule {
  name: string;
  size: number;
  chunks?: (number | string)[];
  modules?: StatsModule[];
}

interface Stats {
  modules: StatsModule[];
  chunks: { id: number | string; files: string[] }[];
}

/** The entry and ncc flags of `npm run bundle` (package.json), without its output directory. */
function bundleBuild(): { entry: string; flags: string[] } {
  const scripts = (
    JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
  ).scripts;
  const build = /ncc build (\S+)((?:\s+(?!&&)\S+)*)/.exec(scripts.bundle ?? '');
  if (!build) throw new Error('package.json: the bundle script is not an `ncc build` command');
  const words = build[2]!.trim().split(/\s+/).filter(Boolean);
  const out = words.findIndex((w) => w === '-o' || w === '--out');
  if (out >= 0) words.splice(out, 2);
  return { entry: build[1]!, flags: words };
}

const totalBytes = (build: Build) => build.files.reduce((sum, [, bytes]) => sum + bytes, 0);

async function nccBuild(entry: string, flags: string[]): Promise<Build> {
  const out = mkdtempSync(join(tmpdir(), 'bench-bundle-'));
  try {
    const statsFile = join(out, 'stats.json');
    await run(process.execPath, [NCC, 'build', entry, '-o', out, '-q', '--stats-out', statsFile, ...flags], {
      cwd: REPO_ROOT,
      maxBuffer: 64 * 1024 * 1024,
    });
    // As `npm run bundle` does: the lazily loaded chunks minified too.
    await run(process.execPath, [join(REPO_ROOT, 'scripts/minify-chunks.mjs'), out], { cwd: REPO_ROOT });
    const stats = JSON.parse(readFileSync(statsFile, 'utf8')) as Stats;
    return { files: jsFiles(out), packages: attribute(stats) };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** The .js files of a build directory and their sizes, index.js first. */
function jsFiles(dir: string): [string, number][] {
  return readdirSync(dir)
    .filter((name) => /\.m?js$/.test(name))
    .map((name): [string, number] => [name, statSync(join(dir, name)).size])
    .sort(([a], [b]) => (a.startsWith('index.') ? -1 : b.startsWith('index.') ? 1 : a.localeCompare(b)));
}

/** Sums module sizes per package, per output file (a concatenated module's parts share its chunk). */
function attribute(stats: Stats): Map<string, [string, number][]> {
  const fileOfChunk = new Map(stats.chunks.map((chunk) => [chunk.id, chunk.files[0] ?? String(chunk.id)]));
  const totals = new Map<string, Map<string, number>>();
  const add = (module: StatsModule, file: string) => {
    if (module.modules) return module.modules.forEach((inner) => add(inner, file));
    const path = module.name.replace(/ \+ \d+ modules$/, '');
    const inPackage = [...path.matchAll(/node_modules\/((?:@[^/]+\/)?[^/]+)/g)].at(-1)?.[1];
    const owner = inPackage ?? (path.startsWith('./') ? 'our source' : 'webpack runtime and Node built-ins');
    const perFile = totals.get(file) ?? new Map<string, number>();
    perFile.set(owner, (perFile.get(owner) ?? 0) + module.size);
    totals.set(file, perFile);
  };
  // A module without a chunk was concatenated into another one, and is counted there.
  for (const module of stats.modules) {
    const chunk = module.chunks?.[0];
    if (chunk !== undefined) add(module, fileOfChunk.get(chunk) ?? String(chunk));
  }
  return new Map([...totals].map(([file, perFile]) => [file, [...perFile].sort((a, b) => b[1] - a[1])]));
}

function shares(packages: [string, number][], top: number): string {
  const total = packages.reduce((sum, [, bytes]) => sum + bytes, 0);
  return packages
    .slice(0, top)
    .map(([name, bytes]) => `${name} ${Math.round((100 * bytes) / total)}%`)
    .join(', ');
}

const kb = (bytes: number) => `${Math.round(bytes / 1000)} kB`;

let distFiles: [string, number][];
try {
  distFiles = jsFiles(join(REPO_ROOT, 'dist/cli'));
} catch {
  distFiles = [];
}
if (!distFiles.some(([name]) => name === 'index.js')) {
  progress('bench/bundle.ts: dist/cli/index.js does not exist; run `npm run bundle` first.');
  process.exit(1);
}
const distBytes = distFiles.reduce((sum, [, bytes]) => sum + bytes, 0);
const { entry, flags } = bundleBuild();
const minifies = flags.includes('-m') || flags.includes('--minify');

progress(`bundle: building ${entry} with ncc ${flags.join(' ')} for its stats...`);
const ours = await nccBuild(entry, flags);
progress('bundle: building the floor, bench/lib/minimal-action.mjs, the same way...');
const floorFlags = flags.filter((flag, i) => flag !== '--license' && flags[i - 1] !== '--license');
const floor = await nccBuild('bench/lib/minimal-action.mjs', floorFlags);
// The other side of --minify is worth knowing; it costs another full build, so not in --quick.
const otherFlags = minifies ? flags.filter((f) => f !== '-m' && f !== '--minify') : [...flags, '--minify'];
const other = QUICK ? undefined : await nccBuild(entry, otherFlags);

progress('bundle: one get-submitted-pull-request run of the action and one of the CLI, loads recorded...');
const dir = mkdtempSync(join(tmpdir(), 'bench-bundle-run-'));
let actionLoads: LoadedFiles;
let cliLoads: LoadedFiles;
const lookup = await prepareGetSubmittedRun(dir, TOKEN);
try {
  lookup.freshFiles();
  actionLoads = await loadedFiles(dir, ['dist/index.js'], lookup.actionEnv, () => lookup.actionAnswered());
  cliLoads = await loadedFiles(dir, lookup.cliArgs, lookup.cliEnv, (run) => lookup.cliAnswered(run.stdout));
} finally {
  await lookup.emulator.stop();
  rmSync(dir, { recursive: true, force: true });
}

const loadedByAction = new Set(actionLoads.files.map(([name]) => name));
const parts = distFiles.map(([name, bytes]) => {
  const what = shares(ours.packages.get(name) ?? [], 4);
  const role = loadedByAction.has(`dist/cli/${name}`)
    ? "loaded by the action's run"
    : 'loaded only when needed';
  return `${name} ${kb(bytes)} (${role}; by module source before minifying: ${what})`;
});
const listed = (loads: LoadedFiles) => loads.files.map(([name, bytes]) => `${name} ${kb(bytes)}`).join(', ');
const notes = [
  `The action's run loads ${listed(actionLoads)}; the CLI's ${listed(cliLoads)}.`,
  `The bundle's dist/cli/*.js (the action's, the CLI's and the MCP server's), ${kb(distBytes)} in all: ${parts.join('; ')}.`,
  `The floor: ${floor.files.map(([name, bytes]) => `${name} ${kb(bytes)}`).join(', ')} ` +
    `(${shares(floor.packages.get(floor.files[0]?.[0] ?? '') ?? [], 3)}).`,
];
if (other) {
  notes.push(
    `Built ${minifies ? 'without' : 'with'} --minify, dist/cli/*.js would be ${kb(totalBytes(other))}.`,
  );
}
if (totalBytes(ours) !== distBytes) {
  notes.push(
    `dist/cli/ (${distBytes} B of JavaScript) is not what the source builds now (${totalBytes(ours)} B): ` +
      'run `npm run bundle`.',
  );
}
const overGoal = (loads: LoadedFiles) =>
  loads.bytes > GOAL_LOADED_BYTES
    ? ` Over the goal: the largest file it loads is ${[...loads.files].sort((a, b) => b[1] - a[1])[0]?.[0]}.`
    : '';

const floorBytes = totalBytes(floor);
const floorCommand = `ncc build bench/lib/minimal-action.mjs ${floorFlags.join(' ')}`.trim();
emitResults([
  {
    name: 'Bundle loaded by a run: the action, get-submitted-pull-request',
    figure: actionLoads.bytes,
    unit: 'B',
    floor: floorBytes,
    ratio: ratioOf(actionLoads.bytes, floorBytes),
    goal: `<= ${GOAL_LOADED_BYTES / 1000} kB`,
    met: actionLoads.bytes <= GOAL_LOADED_BYTES,
    runs: 1,
    command: `node --import ./bench/lib/record-loads.mjs dist/index.js (npm run bundle: ncc build ${entry} ${flags.join(' ')})`,
    floorCommand,
    notes: notes.join(' ') + overGoal(actionLoads),
  },
  {
    name: 'Bundle loaded by a run: the CLI, get-submitted-pull-request',
    figure: cliLoads.bytes,
    unit: 'B',
    floor: floorBytes,
    ratio: ratioOf(cliLoads.bytes, floorBytes),
    goal: `<= ${GOAL_LOADED_BYTES / 1000} kB`,
    met: cliLoads.bytes <= GOAL_LOADED_BYTES,
    runs: 1,
    command:
      'node --import ./bench/lib/record-loads.mjs dist/cli/index.js get-submitted-pull-request --json ... (generic host)',
    floorCommand,
    notes: `It loads ${listed(cliLoads)}; the action's run ${kb(actionLoads.bytes)}.` + overGoal(cliLoads),
  },
]);

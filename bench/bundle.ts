// Bundle: the size of the JavaScript in dist/ (index.js, loaded by every run, plus the chunks it loads
// lazily) and which dependencies dominate it, against a floor built the same way in the same run:
// bench/lib/minimal-action.mjs, the smallest action of its kind (@actions/core + @actions/http-client,
// one POST). Both are built with the flags of `npm run bundle`, read from package.json. Attribution comes
// from ncc's webpack stats of that fresh build, by the innermost node_modules/<package> of each module;
// the fresh build must come out the size of dist/, or dist/ is stale.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { emitResults, progress, QUICK, ratioOf } from './lib/result.js';
import { REPO_ROOT } from './lib/servers.js';

const GOAL_BYTES = 1_000_000;
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

/** The ncc flags of `npm run bundle` (package.json), without its output directory. */
function bundleFlags(): string[] {
  const scripts = (
    JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
  ).scripts;
  const build = /ncc build (\S+)((?:\s+(?!&&)\S+)*)/.exec(scripts.bundle ?? '');
  if (!build) throw new Error('package.json: the bundle script is not an `ncc build` command');
  const words = build[2]!.trim().split(/\s+/).filter(Boolean);
  const out = words.findIndex((w) => w === '-o' || w === '--out');
  if (out >= 0) words.splice(out, 2);
  return words;
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
  distFiles = jsFiles(join(REPO_ROOT, 'dist'));
} catch {
  distFiles = [];
}
if (!distFiles.some(([name]) => name === 'index.js')) {
  progress('bench/bundle.ts: dist/index.js does not exist; run `npm run bundle` first.');
  process.exit(1);
}
const distBytes = distFiles.reduce((sum, [, bytes]) => sum + bytes, 0);
const flags = bundleFlags();
const minifies = flags.includes('-m') || flags.includes('--minify');

progress(`bundle: building src/github-action/index.ts with ncc ${flags.join(' ')} for its stats...`);
const ours = await nccBuild('src/github-action/index.ts', flags);
progress('bundle: building the floor, bench/lib/minimal-action.mjs, the same way...');
const floorFlags = flags.filter((flag, i) => flag !== '--license' && flags[i - 1] !== '--license');
const floor = await nccBuild('bench/lib/minimal-action.mjs', floorFlags);
// The other side of --minify is worth knowing; it costs another full build, so not in --quick.
const otherFlags = minifies ? flags.filter((f) => f !== '-m' && f !== '--minify') : [...flags, '--minify'];
const other = QUICK ? undefined : await nccBuild('src/github-action/index.ts', otherFlags);

const parts = distFiles.map(([name, bytes]) => {
  const what = shares(ours.packages.get(name) ?? [], 4);
  const role = name === 'index.js' ? 'loaded by every run' : 'loaded only when needed';
  return `${name} ${kb(bytes)} (${role}; by module source before minifying: ${what})`;
});
const notes = [
  `${parts.join('; ')}.`,
  `The floor: ${floor.files.map(([name, bytes]) => `${name} ${kb(bytes)}`).join(', ')} ` +
    `(${shares(floor.packages.get(floor.files[0]?.[0] ?? '') ?? [], 3)}).`,
];
if (other) {
  notes.push(`Built ${minifies ? 'without' : 'with'} --minify, it would be ${kb(totalBytes(other))}.`);
}
if (totalBytes(ours) !== distBytes) {
  notes.push(
    `dist/ (${distBytes} B of JavaScript) is not what the source builds now (${totalBytes(ours)} B): ` +
      'run `npm run bundle`.',
  );
}
if (distBytes > GOAL_BYTES) {
  const [biggest] = ours.packages.get('index.js') ?? [];
  notes.push(
    `Over the goal: the largest part of index.js is ${biggest?.[0]}; the floor, which only imports ` +
      `@actions/core and @actions/http-client, is already ${kb(totalBytes(floor))}.`,
  );
}

emitResults({
  name: 'Bundle: dist/*.js',
  figure: distBytes,
  unit: 'B',
  floor: totalBytes(floor),
  ratio: ratioOf(distBytes, totalBytes(floor)),
  goal: '<= 1 MB',
  met: distBytes <= GOAL_BYTES,
  runs: 1,
  command: `npm run bundle (ncc build src/github-action/index.ts ${flags.join(' ')})`,
  floorCommand: `ncc build bench/lib/minimal-action.mjs ${floorFlags.join(' ')}`.trim(),
  notes: notes.join(' '),
});

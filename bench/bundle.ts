// Bundle: the size of dist/index.js and which dependencies dominate it, against a floor built the same
// way in the same run (bench/lib/minimal-action.mjs: @actions/core + @actions/http-client, one POST).
// Attribution comes from ncc's webpack stats of a fresh build of src/index.ts with the flags of
// `npm run bundle`; the stats build must come out the size of dist/index.js, or dist/ is stale.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { emitResults, progress, QUICK, ratioOf } from './lib/result.js';
import { REPO_ROOT } from './lib/servers.js';

const GOAL_BYTES = 1_000_000;
const NCC = join(REPO_ROOT, 'node_modules/@vercel/ncc/dist/ncc/cli.js');
const run = promisify(execFile);

interface Build {
  bytes: number;
  /** Bytes of module source per npm package (or `our source`), largest first. */
  packages: [string, number][];
}

interface StatsModule {
  name: string;
  size: number;
  modules?: StatsModule[];
}

async function nccBuild(entry: string, flags: string[] = []): Promise<Build> {
  const out = mkdtempSync(join(tmpdir(), 'bench-bundle-'));
  try {
    const stats = join(out, 'stats.json');
    await run(process.execPath, [NCC, 'build', entry, '-o', out, '-q', '--stats-out', stats, ...flags], {
      cwd: REPO_ROOT,
      maxBuffer: 64 * 1024 * 1024,
    });
    const bundle = ['index.js', 'index.mjs'].map((f) => join(out, f)).find((f) => exists(f));
    if (!bundle) throw new Error(`ncc built no index.js from ${entry}`);
    const modules = (JSON.parse(readFileSync(stats, 'utf8')) as { modules: StatsModule[] }).modules;
    return { bytes: statSync(bundle).size, packages: attribute(modules) };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

function exists(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Sums module sizes per package: the innermost node_modules/<pkg> of each module's path. */
function attribute(modules: StatsModule[]): [string, number][] {
  const totals = new Map<string, number>();
  const add = (module: StatsModule) => {
    if (module.modules) return module.modules.forEach(add);
    const path = module.name.replace(/ \+ \d+ modules$/, '');
    const inPackage = [...path.matchAll(/node_modules\/((?:@[^/]+\/)?[^/]+)/g)].at(-1)?.[1];
    const owner = inPackage ?? (path.startsWith('./') ? 'our source' : 'webpack runtime and Node built-ins');
    totals.set(owner, (totals.get(owner) ?? 0) + module.size);
  };
  modules.forEach(add);
  return [...totals].sort((a, b) => b[1] - a[1]);
}

function shares(build: Build, top: number): string {
  const total = build.packages.reduce((sum, [, bytes]) => sum + bytes, 0);
  return build.packages
    .slice(0, top)
    .map(([name, bytes]) => `${name} ${Math.round((100 * bytes) / total)}% (${kb(bytes)})`)
    .join(', ');
}

const kb = (bytes: number) => `${Math.round(bytes / 1000)} kB`;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;

const distFile = join(REPO_ROOT, 'dist/index.js');
if (!exists(distFile)) {
  progress('bench/bundle.ts: dist/index.js does not exist; run `npm run bundle` first.');
  process.exit(1);
}
const distBytes = statSync(distFile).size;

progress('bundle: building src/index.ts with ncc for its stats...');
const ours = await nccBuild('src/index.ts', ['--license', 'licenses.txt']);
progress('bundle: building the floor (bench/lib/minimal-action.mjs)...');
const floor = await nccBuild('bench/lib/minimal-action.mjs');
// The minified size is a fix worth knowing about; it costs another full build, so not in --quick.
const minified = QUICK ? undefined : await nccBuild('src/index.ts', ['--minify']);

const notes = [
  `Largest parts of dist/index.js (module source bytes before bundling): ${shares(ours, 6)}.`,
  `The floor's: ${shares(floor, 4)}.`,
];
if (ours.bytes !== distBytes) {
  notes.push(
    `dist/index.js (${distBytes} B) is not what the source builds now (${ours.bytes} B): run \`npm run bundle\`.`,
  );
}
if (minified) notes.push(`Built with \`ncc build --minify\` it would be ${mb(minified.bytes)}.`);
if (distBytes > GOAL_BYTES) {
  const [biggest] = ours.packages;
  notes.push(
    `Over the goal: ${biggest?.[0]} alone is ${kb(biggest?.[1] ?? 0)}, and the floor, ` +
      `which only imports @actions/core and @actions/http-client, is already ${mb(floor.bytes)}.`,
  );
}

emitResults({
  name: 'Bundle: dist/index.js',
  figure: distBytes,
  unit: 'B',
  floor: floor.bytes,
  ratio: ratioOf(distBytes, floor.bytes),
  goal: '<= 1 MB',
  met: distBytes <= GOAL_BYTES,
  runs: 1,
  command: 'npm run bundle (ncc build src/index.ts)',
  floorCommand: 'ncc build bench/lib/minimal-action.mjs',
  notes: notes.join(' '),
});

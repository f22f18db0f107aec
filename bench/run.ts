// The benchmark harness. `npm run bench` builds dist/ (npm run bundle), runs every benchmark in bench/
// one after another, and rewrites BENCHMARKS.md: each figure with its floor, ratio, goal, runs and
// command, plus the machine. `npm run bench -- --quick` (CI) runs each with few runs and short durations
// to prove that the harness and the benchmarks work: it enforces no thresholds, builds dist/ only when
// there is none, and prints the table instead of rewriting BENCHMARKS.md.
//
// The contract a benchmark follows (also in bench/README.md; the code is bench/lib/result.ts):
// - It is a file bench/<name>.ts. The harness runs it as `node --import tsx bench/<name>.ts [--quick]`
//   from the repository root; it must also run alone that way. Shared code lives in bench/lib/.
// - `--quick`: few runs, short durations, small inputs: prove that it works in seconds, not minutes.
// - It measures its floor in the same run, interleaved with the figure where that makes sense.
// - Progress goes to stderr. The LAST line of stdout is one JSON object, or an array of them:
//     { name, figure, unit, floor, ratio, goal, met, runs, command, floorCommand?, notes? }
//   (see BenchResult in bench/lib/result.ts; `emitResults` prints it). `notes` says what dominates the
//   cost, and is required when `met` is false.
// - Exit code 0 when it measured, whether or not the goal was met; non-zero when it could not measure.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { describeMachine, type Machine } from './lib/measure.js';
import { parseResults, type BenchResult } from './lib/result.js';
import { REPO_ROOT } from './lib/servers.js';
import { SPEED_TRICKS, type SpeedTrick } from './lib/speed-tricks.js';

/** The benchmarks the issues ask for, in the order they run; any other bench/*.ts runs after them. */
const EXPECTED: { file: string; about: string }[] = [
  { file: 'bundle.ts', about: 'issue 8, the bundle size' },
  { file: 'startup.ts', about: 'issues 8 and 12, the start-up of the action and the CLI' },
  { file: 'throughput.ts', about: 'issues 16 and 29, the emulator throughput' },
  { file: 'impacted-targets.ts', about: 'issue 3, a 20 MiB impacted-targets upload' },
  {
    file: 'compute-impacted-targets.ts',
    about: 'issue 13, compute-impacted-targets on a 100,000-file monorepo',
  },
  {
    file: 'workspace-peers.ts',
    about: 'issue 46, a lockfile change beside pnpm, yarn and turbo on recorded monorepos',
  },
  { file: 'flaky-report.ts', about: 'issue 5, the flaky-tests report over 10,000 tests' },
  { file: 'scheduler.ts', about: 'issue 6, one scheduling step with 100 to 10,000 PRs' },
  {
    file: 'check-test-results.ts',
    about: 'issue 15, the quarantine gate over 100 MB of JUnit XML and 10,000 quarantined tests',
  },
  {
    file: 'queue-planner.ts',
    about: 'issue 44, a replay per core, a year of a busy queue, the default plan over 45 days',
  },
];

interface Outcome {
  file: string;
  seconds: number;
  results: BenchResult[];
  /** One line when the benchmark could not measure or broke the contract. */
  failure?: string;
}

const USAGE = 'usage: npm run bench -- [--quick] [--no-build] [--only <name>]... [--out <file>]';

function readOptions() {
  try {
    const { values } = parseArgs({
      options: {
        quick: { type: 'boolean', default: false },
        'no-build': { type: 'boolean', default: false },
        only: { type: 'string', multiple: true },
        out: { type: 'string' },
      },
      strict: true,
    });
    return values;
  } catch (error) {
    console.error(`bench: ${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
}

/** Runs a command from the repository root; stderr passes through live, stdout is kept. */
function runChild(
  command: string,
  args: string[],
  timeoutMs: number,
): Promise<{ code: number | null; stdout: string; stderrTail: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM');
    }, timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-4000);
      process.stderr.write(chunk);
    });
    child.on('error', (error) => {
      stderr += error.message;
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const stderrTail = stderr.trim().split('\n').slice(-2).join(' | ');
      resolve({ code, stdout, stderrTail, timedOut });
    });
  });
}

async function runBenchmark(file: string, quick: boolean): Promise<Outcome> {
  const started = performance.now();
  const timeoutMs = (quick ? 3 : 20) * 60_000;
  const args = ['--import', 'tsx', join('bench', file), ...(quick ? ['--quick'] : [])];
  const { code, stdout, stderrTail, timedOut } = await runChild(process.execPath, args, timeoutMs);
  const seconds = (performance.now() - started) / 1000;
  if (timedOut)
    return { file, seconds, results: [], failure: `did not finish within ${timeoutMs / 60_000} min` };
  if (code !== 0) return { file, seconds, results: [], failure: `exited with code ${code}: ${stderrTail}` };
  try {
    const results = parseResults(stdout);
    const unexplained = results.find((r) => r.met === false && !r.notes);
    if (unexplained) throw new Error(`${unexplained.name} misses its goal and has no notes saying why`);
    return { file, seconds, results };
  } catch (error) {
    return { file, seconds, results: [], failure: (error as Error).message };
  }
}

// ---------------------------------------------------------------------------------------------------
// BENCHMARKS.md

function formatValue(value: number, unit: string): string {
  switch (unit) {
    case 'B':
      return value >= 1e6 ? `${(value / 1e6).toFixed(2)} MB` : `${(value / 1e3).toFixed(1)} kB`;
    case 'req/s':
      return `${Math.round(value).toLocaleString('en-US')} req/s`;
    default: {
      const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
      return `${value.toLocaleString('en-US', { maximumFractionDigits: digits })} ${unit}`;
    }
  }
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const code = (text: string) => `\`${text.replace(/`/g, "'")}\``;

function renderTable(outcomes: Outcome[]): string {
  const rows = outcomes.flatMap((o) =>
    o.results.map((r) =>
      [
        r.name,
        formatValue(r.figure, r.unit),
        r.floor === null ? '—' : formatValue(r.floor, r.unit),
        r.ratio === null ? '—' : `${r.ratio.toFixed(r.ratio >= 10 ? 1 : 2)}×`,
        r.goal || '—',
        r.met === null ? '—' : r.met ? 'yes' : '**no**',
        String(r.runs),
        code(r.command),
        code(`bench/${o.file}`),
      ].map(cell),
    ),
  );
  const header = ['Benchmark', 'Figure', 'Floor', 'Ratio', 'Goal', 'Met', 'Runs', 'Command', 'Script'];
  return [header, header.map(() => '---'), ...rows].map((row) => `| ${row.join(' | ')} |`).join('\n');
}

function renderNotes(outcomes: Outcome[]): string {
  return outcomes
    .flatMap((o) =>
      o.results
        .filter((r) => r.notes || r.floorCommand)
        .map((r) => {
          const floor = r.floorCommand ? ` Floor: ${r.floorCommand}.` : '';
          return `- **${r.name}**.${floor}${r.notes ? ` ${r.notes}` : ''}`;
        }),
    )
    .join('\n');
}

function renderSpeedTricks(): string {
  const line = (trick: SpeedTrick) => `- **${trick.what}** (${trick.files}). ${trick.figure}`;
  return [
    'Hand-tuned code stays only if it buys 3% or more of its benchmark (medians of at least 7 rounds alternating the builds with and without it) or a goal needs it (the list is bench/lib/speed-tricks.ts).',
    '',
    'Removed:',
    '',
    ...SPEED_TRICKS.filter((trick) => !trick.kept).map(line),
    '',
    'Kept:',
    '',
    ...SPEED_TRICKS.filter((trick) => trick.kept).map(line),
  ].join('\n');
}

function renderMachine(machine: Machine, loadAtEnd: number): string {
  return [
    `- Cores: ${machine.cores} (${machine.cpu})`,
    `- Memory: ${machine.memoryGiB} GiB (${machine.freeMemoryGiB} GiB free at the start)`,
    `- Node: ${machine.node} (the same binary runs each figure and its floor)`,
    `- OS: ${machine.os}`,
    `- Load average (1 min) at the start: ${machine.loadAverage}; at the end: ${loadAtEnd} (other work on the machine skews every figure, the figure and its floor alike: they run in the same rounds)`,
    `- Date: ${machine.date}`,
  ].join('\n');
}

function renderMissing(missing: string[], failed: Outcome[]): string {
  const lines = [
    ...failed.map((o) => `- \`bench/${o.file}\` failed: ${o.failure}`),
    ...missing.map((file) => {
      const about = EXPECTED.find((e) => e.file === file)?.about;
      return `- \`bench/${file}\` does not exist yet (${about}).`;
    }),
  ];
  return lines.join('\n');
}

function renderDocument(
  machine: Machine,
  outcomes: Outcome[],
  missing: string[],
  command: string,
  seconds: number,
): string {
  const measured = outcomes.filter((o) => !o.failure);
  const failed = outcomes.filter((o) => o.failure);
  const notes = renderNotes(measured);
  const gaps = renderMissing(missing, failed);
  return [
    '# Benchmarks',
    '',
    `Written by \`${command}\` (bench/run.ts) in ${Math.round(seconds)} s; do not edit by hand. ` +
      'Each figure is measured against a floor, the same job done the cheapest way, measured in the ' +
      'same run on the same machine; the ratio is figure / floor. The goals come from the issues; where ' +
      'a goal is missed, the notes say what dominates the cost. How each benchmark works is at the top ' +
      'of its script.',
    '',
    '## Machine',
    '',
    renderMachine(machine, describeMachine().loadAverage),
    '',
    '## Results',
    '',
    renderTable(measured),
    '',
    ...(notes ? ['## Notes', '', notes, ''] : []),
    '## Speed tricks, removed and kept',
    '',
    renderSpeedTricks(),
    '',
    ...(gaps ? ['## Not measured', '', gaps, ''] : []),
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------------

const options = readOptions();
const quick = options.quick ?? false;
const started = performance.now();
const machine = describeMachine();

// A quick run proves the harness works: it measures dist/ as it is (CI has just built it) unless
// there is none yet.
const build = quick ? !existsSync(join(REPO_ROOT, 'dist/index.js')) : !options['no-build'];
if (build) {
  console.error('bench: npm run bundle...');
  const built = await runChild('npm', ['run', '-s', 'bundle'], 10 * 60_000);
  if (built.code !== 0) {
    console.error(`bench: npm run bundle failed (${built.stderrTail}); fix the build, then rerun.`);
    process.exit(1);
  }
}

const present = readdirSync(join(REPO_ROOT, 'bench')).filter(
  (f) => f.endsWith('.ts') && !f.endsWith('.d.ts'),
);
const extra = present.filter((f) => f !== 'run.ts' && !EXPECTED.some((e) => e.file === f)).sort();
const wanted = (file: string) =>
  !options.only || options.only.some((name) => file === name || file === `${name}.ts`);
const known = [...EXPECTED.map((e) => e.file), ...extra];
const unknown = options.only?.filter((name) => !known.some((file) => file === name || file === `${name}.ts`));
if (unknown?.length) {
  const names = known.map((file) => file.replace(/\.ts$/, '')).join(', ');
  console.error(`bench: --only ${unknown.join(', ')}: no such benchmark; the benchmarks are ${names}.`);
  process.exit(2);
}
const toRun = known.filter(wanted);
const missing = toRun.filter((file) => !existsSync(join(REPO_ROOT, 'bench', file)));

const outcomes: Outcome[] = [];
for (const file of toRun.filter((f) => !missing.includes(f))) {
  console.error(`\nbench: bench/${file}${quick ? ' --quick' : ''}`);
  const outcome = await runBenchmark(file, quick);
  console.error(
    outcome.failure
      ? `bench: bench/${file} FAILED: ${outcome.failure}`
      : `bench: bench/${file} done in ${outcome.seconds.toFixed(1)} s`,
  );
  outcomes.push(outcome);
}
for (const file of missing) console.error(`bench: bench/${file} does not exist yet; skipped.`);

const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
const document = renderDocument(machine, outcomes, missing, command, (performance.now() - started) / 1000);
// Only a full run of everything rewrites BENCHMARKS.md; a quick or partial run prints its table.
const out = options.out ?? (quick || options.only ? undefined : 'BENCHMARKS.md');
if (out) {
  writeFileSync(resolve(REPO_ROOT, out), document);
  console.error(`\nbench: wrote ${out}`);
}
console.log(`\n${document}`);
if (outcomes.some((o) => o.failure)) process.exitCode = 1;

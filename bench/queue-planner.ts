// The queue planner (issue 44): one replay of a stable queue (PRs a second on one core), a year of a busy
// queue (110,000 PRs: time and peak memory, in a child process of its own), and the default plan over 45
// days at 300 PRs a day (backtest-sized candidates x 3 seeds, headroom runs), in a child process too.
// The floor of each is the same PRs through the cheapest queue there is, measured in the same run: each
// PR tested alone on the first free one of `concurrency` slots with the same CI draws (no engine, no
// predictive testing, no events), a sorted pass over the arrivals.
// Goals: >= 10,000 PRs/s a replay; a year in <= 15 s and <= 400 MB; the plan in <= 90 s and <= 512 MB.
// Run: node --import tsx bench/queue-planner.ts [--quick]
import { spawn } from 'node:child_process';
import { drawDuration, type DurationModel } from '../src/queue-model/distributions.js';
import { SeededRandom } from '../src/queue-model/random.js';
import { replay, type ReplayArrival } from '../src/queue-model/replay.js';
import { SampledCi } from '../src/queue-model/sampled-ci.js';
import { evaluate } from '../src/core/operations/planner/evaluate.js';
import type { PlanQueueSettings } from '../src/core/operations/planner/inputs.js';
import { replayCandidates, syntheticModel } from '../src/core/operations/planner/plan.js';
import { newQueueSettings } from '../src/core/operations/planner/settings.js';
import { benchEnv, median, round } from './lib/measure.js';
import { emitResults, progress, QUICK, type BenchResult } from './lib/result.js';

const DAY_MS = 86_400_000;
const START = Date.UTC(2026, 0, 5);
const CI: DurationModel = { kind: 'percentiles', p50Ms: 18 * 60_000, p90Ms: 31 * 60_000 };
const CONCURRENCY = 10;
const COMMAND = 'node --import tsx bench/queue-planner.ts';

/** `perDay` PRs a day, evenly spread: a busy queue that concurrency 10 keeps up with. */
function arrivalsOf(count: number, perDay: number): ReplayArrival[] {
  return Array.from({ length: count }, (_, i) => ({
    at: START + Math.round((i * DAY_MS) / perDay),
    prNumber: i + 1,
  }));
}

function replayOnce(arrivals: ReplayArrival[]) {
  return replay({
    settings: { concurrency: CONCURRENCY },
    arrivals,
    seed: 1,
    isCulprit: () => false,
    resubmitAfterMs: 15 * 60_000,
    ci: (clock) =>
      new SampledCi({
        random: new SeededRandom(3),
        duration: CI,
        flakeRate: 0.03,
        isCulprit: () => false,
        now: () => clock.now(),
      }),
  });
}

/** The floor: each PR on the first free slot, the same draws, one pass. Returns how many merged. */
function floorOnce(arrivals: ReplayArrival[]): number {
  const random = new SeededRandom(3);
  const free = new Array<number>(CONCURRENCY).fill(0);
  let merged = 0;
  for (const arrival of arrivals) {
    let slot = 0;
    for (let i = 1; i < free.length; i++) if (free[i]! < free[slot]!) slot = i;
    const start = Math.max(arrival.at, free[slot]!);
    free[slot] = start + drawDuration(CI, random);
    if (random.next() >= 0.03) merged++;
  }
  return merged;
}

/** CPU milliseconds the work took on this thread: another process's load on the machine does not count. */
function timed(work: () => unknown): number {
  const start = process.cpuUsage();
  work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** Replay throughput: interleaved rounds of the replay and the floor on the same arrivals. */
function throughput(): BenchResult {
  const count = QUICK ? 2_000 : 20_000;
  const rounds = QUICK ? 3 : 7;
  const arrivals = arrivalsOf(count, 300);
  const replays: number[] = [];
  const floors: number[] = [];
  for (let round = -1; round < rounds; round++) {
    const replayMs = timed(() => replayOnce(arrivals));
    const floorMs = timed(() => floorOnce(arrivals));
    if (round < 0) continue;
    replays.push(replayMs);
    floors.push(floorMs);
    progress(`replay of ${count} PRs: ${round + 1}/${rounds}`);
  }
  const figure = round((count / median(replays)) * 1000);
  const floor = round((count / median(floors)) * 1000);
  return {
    name: `Queue planner: one replay of a stable queue (${count.toLocaleString('en')} PRs)`,
    figure,
    unit: 'PRs/s',
    floor,
    ratio: round(floor / figure, 1),
    goal: '>= 10,000 PRs/s',
    met: figure >= 10_000,
    runs: rounds,
    command: `${COMMAND} (replay)`,
    floorCommand: 'the same PRs, each on the first free slot with the same CI draws, one sorted pass',
    notes:
      figure >= 10_000
        ? undefined
        : 'Each PR costs the engine a submission, a run started and ended through virtual-clock timers, a merge and the events that stream the metrics; ids and shas drawn for every run dominate after the scheduler passes.',
  };
}

/** Runs this script with `--child <what>` and reads its one JSON line (time and peak memory). */
function child(what: string): Promise<{ ms: number; maxRssMb: number; floorMs: number }> {
  return new Promise((resolve, reject) => {
    const args = [
      '--import',
      'tsx',
      'bench/queue-planner.ts',
      '--child',
      what,
      ...(QUICK ? ['--quick'] : []),
    ];
    const proc = spawn(process.execPath, args, { env: benchEnv(), stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    proc.on('error', reject);
    proc.on('close', (code) => {
      if (code !== 0) return reject(new Error(`--child ${what} exited ${code}`));
      resolve(JSON.parse(out.trim().split('\n').at(-1)!));
    });
  });
}

async function childFigures(what: 'year' | 'plan'): Promise<BenchResult[]> {
  const measured = await child(what);
  const year = what === 'year';
  const label = year
    ? `a year of a busy queue (${QUICK ? '11,000' : '110,000'} PRs)`
    : `the default plan, 45 days x 300 PRs a day${QUICK ? ' (quick: 5 days)' : ''}`;
  const limitMs = year ? 15_000 : 90_000;
  const limitMb = year ? 400 : 512;
  // A quick run measures a tenth of the input (a ninth of the days): it cannot meet or miss the goal.
  const judged = (met: boolean) => (QUICK ? null : met);
  return [
    {
      name: `Queue planner: ${label}, time`,
      figure: round(measured.ms),
      unit: 'ms',
      floor: round(measured.floorMs),
      ratio: round(measured.ms / measured.floorMs, 1),
      goal: `<= ${limitMs.toLocaleString('en')} ms`,
      met: judged(measured.ms <= limitMs),
      runs: 1,
      command: `${COMMAND} --child ${what}`,
      floorCommand: 'the same PRs through the one-pass floor (every replay of it, for the plan)',
      notes:
        measured.ms <= limitMs
          ? undefined
          : 'The engine per PR, as in the replay row, times the replays the plan asks for.',
    },
    {
      name: `Queue planner: ${label}, peak memory`,
      figure: round(measured.maxRssMb),
      unit: 'MB',
      floor: null,
      ratio: null,
      goal: `<= ${limitMb} MB`,
      met: judged(measured.maxRssMb <= limitMb),
      runs: 1,
      command: `${COMMAND} --child ${what} (process.resourceUsage().maxRSS)`,
      notes:
        measured.maxRssMb <= limitMb ? undefined : 'Resident set of the whole process, Node itself included.',
    },
  ];
}

/**
 * What a plan from 45 days of history replays: the backtest (the recorded settings, 3 seeds and the
 * headroom runs), then the default grid around them, each 3 seeds and 2 headroom runs. Returns the
 * number of replays.
 */
async function defaultPlan(prs: number): Promise<number> {
  const settings: PlanQueueSettings = {
    historyFiles: [],
    days: 45,
    vary: [],
    objective: 'p90',
    seeds: 3,
    runnerCap: undefined,
    ciMinutesBudget: { kind: 'share', share: 1.5 },
    grid: 'one-at-a-time',
    requireFit: false,
    synthetic: undefined,
  };
  const model = syntheticModel(
    { prs, arrivals: { kind: 'poisson', perHour: 12.5 }, ciDuration: CI, culpritRate: 0.03, flakeRate: 0.06 },
    undefined,
  );
  const current = { ...newQueueSettings(), concurrency: CONCURRENCY, bisectionConcurrency: CONCURRENCY };
  await evaluate(current, model, settings.seeds, settings.objective);
  const candidates = await replayCandidates(current, settings, model);
  return (candidates.total + 1) * (settings.seeds + 2);
}

/** In the child: one measurement, printed as JSON with the process's peak resident set. */
async function runChild(what: string): Promise<void> {
  let ms: number;
  let floorMs: number;
  if (what === 'year') {
    const arrivals = arrivalsOf(QUICK ? 11_000 : 110_000, 300);
    ms = timed(() => replayOnce(arrivals));
    floorMs = timed(() => floorOnce(arrivals));
  } else {
    const prs = (QUICK ? 5 : 45) * 300;
    const start = process.cpuUsage();
    const replays = await defaultPlan(prs);
    const used = process.cpuUsage(start);
    ms = (used.user + used.system) / 1000;
    const arrivals = arrivalsOf(prs, 300);
    floorMs = timed(() => {
      for (let i = 0; i < replays; i++) floorOnce(arrivals);
    });
  }
  process.stdout.write(
    `${JSON.stringify({ ms, floorMs, maxRssMb: process.resourceUsage().maxRSS / 1024 })}\n`,
  );
}

const childAt = process.argv.indexOf('--child');
if (childAt >= 0) await runChild(process.argv[childAt + 1]!);
else {
  const results = [throughput(), ...(await childFigures('year')), ...(await childFigures('plan'))];
  emitResults(results);
}

// One scheduling step of the emulator's merge queue with 100, 1,000 and 10,000 queued PRs in parallel
// mode, 100 impacted targets each (drawn from 10,000 target names, so lanes overlap heavily).
// Two figures per size: an idle step (nothing to start or merge: the cost of looking at the queue) and
// the step that follows a test run ending (a merge and a new run started on top of the PRs ahead).
// The floor is the least any step must do: one pass over every PR's targets.
// Goal (issue 6): growth no worse than n log n from 1,000 to 10,000 PRs, judged against the linear floor.
// Run: node --import tsx bench/scheduler.ts [--quick]
import { performance } from 'node:perf_hooks';
import type { Repo } from '../src/wire/index.js';
import { MergeQueueEngine, SeededRandom } from '../src/queue-model/index.js';
import { median, round } from './lib/measure.js';
import { emitResults, progress, QUICK, type BenchResult } from './lib/result.js';

const SIZES = QUICK ? [100, 1_000] : [100, 1_000, 10_000];
const RUNS = QUICK ? 3 : 15;
const TARGETS_PER_PR = 100;
const TARGET_NAMES = 10_000;
const CONCURRENCY = 10;
const repo: Repo = { host: 'github.com', owner: 'bench', name: 'monorepo' };
const COMMAND = 'node --import tsx bench/scheduler.ts';

interface Measured {
  size: number;
  idleMs: number;
  afterRunMs: number;
  floorMs: number;
  setupMs: number;
}

/** A parallel queue holding `size` ready PRs, CONCURRENCY of them testing. */
function queueWith(size: number): MergeQueueEngine {
  const engine = new MergeQueueEngine({ seed: 1 });
  const random = new SeededRandom(size);
  engine.createQueue(repo, 'main', 'parallel', CONCURRENCY);
  engine.scheduler.deferring(() => {
    for (let pr = 1; pr <= size; pr++) {
      const targets = new Set<string>();
      while (targets.size < TARGETS_PER_PR) targets.add(`//pkg${random.int(TARGET_NAMES)}:lib`);
      // Distinct durations, so that each clock advance ends exactly one run.
      engine.ci.set(`${repo.host}/${repo.owner}/${repo.name}`, pr, { durationMs: 60_000 * (5 + pr) });
      engine.setImpactedTargets(repo, pr, `sha-${pr}`, [...targets]);
      engine.submitPullRequest(repo, 'main', pr);
    }
  });
  return engine;
}

function timed(action: () => void): number {
  const start = performance.now();
  action();
  return performance.now() - start;
}

function measure(size: number): Measured {
  const setupStart = performance.now();
  const engine = queueWith(size);
  const setupMs = performance.now() - setupStart;
  const queue = engine.findQueue(repo, 'main')!;
  const idle: number[] = [];
  const afterRun: number[] = [];
  const floor: number[] = [];
  for (let run = -1; run < RUNS; run++) {
    const idleMs = timed(() => engine.scheduler.step(queue));
    const next = engine.clock.nextTimerAt()!;
    const afterRunMs = timed(() => engine.advance(next - engine.clock.now()));
    const floorMs = timed(() => {
      const seen = new Set<string>();
      for (const submission of queue.live) {
        const targets = engine.core.targetsOf(submission);
        if (targets !== 'ALL') for (const name of targets) seen.add(name);
      }
    });
    if (run < 0) continue; // warm-up
    idle.push(idleMs);
    afterRun.push(afterRunMs);
    floor.push(floorMs);
  }
  return { size, idleMs: median(idle), afterRunMs: median(afterRun), floorMs: median(floor), setupMs };
}

const measured: Measured[] = [];
for (const size of SIZES) {
  progress(`scheduler: ${size} PRs x ${TARGETS_PER_PR} targets...`);
  const result = measure(size);
  progress(
    `  idle step ${result.idleMs.toFixed(2)} ms, step after a run ${result.afterRunMs.toFixed(2)} ms, floor ${result.floorMs.toFixed(2)} ms (set-up ${result.setupMs.toFixed(0)} ms)`,
  );
  measured.push(result);
}

// n log n growth against the linear floor means the figure/floor ratio grows at most by the log factor.
// Judged from 1,000 PRs up: below that the target sets still fit in the CPU caches.
const logGrowth = (n: number, from: number) => Math.log2(n) / Math.log2(from);
const results: BenchResult[] = [];
for (const [index, m] of measured.entries()) {
  const previous = measured[index - 1];
  const judged = previous !== undefined && previous.size >= 1_000;
  for (const [label, pick] of [
    ['idle step', (x: Measured) => x.idleMs],
    ['step after a run ends', (x: Measured) => x.afterRunMs],
  ] as const) {
    const figure = pick(m);
    const ratio = figure / m.floorMs;
    const allowed = judged ? logGrowth(m.size, previous.size) : undefined;
    const ratioGrowth = previous ? ratio / (pick(previous) / previous.floorMs) : undefined;
    const rawGrowth = previous ? figure / pick(previous) : undefined;
    results.push({
      name: `Scheduler ${label}: ${m.size.toLocaleString('en-US')} PRs, parallel, ${TARGETS_PER_PR} targets each`,
      figure: round(figure, 3),
      unit: 'ms',
      floor: round(m.floorMs, 3),
      ratio: round(ratio, 2),
      goal: allowed
        ? `n log n: ratio grows <= ${allowed.toFixed(2)}x from ${previous!.size.toLocaleString('en-US')} PRs`
        : '',
      met: allowed && ratioGrowth ? ratioGrowth <= allowed : null,
      runs: RUNS,
      command: COMMAND,
      floorCommand: 'one pass adding every queued PR target to a Set (linear)',
      notes:
        `${CONCURRENCY} slots. ` +
        (previous
          ? `From ${previous.size.toLocaleString('en-US')} PRs: time x${rawGrowth!.toFixed(1)}, floor x${(m.floorMs / previous.floorMs).toFixed(1)}, ratio x${ratioGrowth!.toFixed(2)}. `
          : '') +
        'A step sorts the line (n log n) and passes over every PR target once to find lanes; a start also scans the PRs ahead of the new run.',
    });
  }
}
emitResults(results);

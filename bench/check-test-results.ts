// The quarantine gate at scale: check-test-results over 100 MB of JUnit XML (2,000 failures in 50,000 to
// 280,000 test cases, depending on the shape) against 10,000 quarantined tests in the emulator, for each
// shape of report users' test runners write (bench/lib/junit-shapes.ts: Maven Surefire, jest-junit,
// pytest, Bazel). The figure is the wall time of `node dist/index.js` as the runner starts it; the floor
// is the same parser library (sax) reading the same files in the same chunks, synchronously, and doing
// nothing else (bench/lib/sax-floor.mjs), run interleaved with it. Memory: the action's peak RSS above
// Node's own baseline (`node -e 0`), against half the reports' size. Both measured with /usr/bin/time (%e
// wall seconds, %M peak RSS in KiB). `--entry <entry>` measures another build than dist/index.js,
// `--vs <entry>` runs a second build in the same rounds and prints both medians and the paired ratios
// (time and peak RSS) on stderr, for a before/after; `--shape <id>` measures one shape only. A second
// emulator answers every request LATENCY_MS after it came in, as a service across a network does: the
// gate against it is a row of its own, against the longest chain of pages it must follow (the pages of
// a listing are asked one after another) or sax alone, whichever is longer. A third quarantines nothing:
// the gate against it does the reports' work with four one-page listings, the one-thread floor's part.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { example } from '../__tests__/helpers/webhook-examples.js';
import { JUNIT_SHAPES, type FailedTest, type JUnitShape } from './lib/junit-shapes.js';
import { median, timeProcess } from './lib/measure.js';
import {
  emitResults,
  ENTRY,
  optionValue,
  progress,
  QUICK,
  ratioOf,
  VERSUS,
  type BenchResult,
} from './lib/result.js';
import { launchEmulator, postJson, REPO_ROOT } from './lib/servers.js';
import { stepEnvironment } from './lib/step-env.js';

const TOKEN = 'bench-token';
const REPO = { host: 'github.com', owner: 'acme', name: 'storefront' };
const SCALE = QUICK ? 10 : 1;
const REPORT_BYTES = 100e6 / SCALE;
const QUARANTINED = 10_000 / SCALE;
const FAILURES = 2_000 / SCALE;
// The floor alone varies by half between runs on a shared 2-core machine, and a round in three can run
// slow throughout: medians of 9.
const RUNS = QUICK ? 1 : 9;
const GOAL_TIME = 1.5;
const GOAL_MEMORY = 0.5;
/** The distant service's latency, as the nightly report's benchmark has it. */
const LATENCY_MS = 20;
const PAGE_SIZE = 100;
/** One failure of a test the service does not know: the gate asks for every list, then fails the step. */
const SMALL_REPORT =
  '<testsuite name="small"><testcase classname="small" name="fails alone"><failure message="boom"/></testcase></testsuite>\n';

const SHAPE = optionValue('--shape');
if (SHAPE && !JUNIT_SHAPES.some((shape) => shape.id === SHAPE))
  throw new Error(`--shape ${SHAPE}: the shapes are ${JUNIT_SHAPES.map((shape) => shape.id).join(', ')}`);
// What dominates the cost above the floors, for the rows that miss their goal: from CPU profiles
// (--cpu-prof) of the surefire and pytest shapes (time), of the jest and pytest shapes and
// process.memoryUsage() with V8's heap spaces sampled every 5 ms (memory), in runs against the emulator
// and with api-url unreachable (no service at all).
const TIME_COST =
  "Above the floor, from CPU profiles of the bundled action (--cpu-prof, three runs each of the surefire and pytest shapes, ms of samples per run): while the reports are parsed, sax 650-690 ms (surefire) and 1,610-2,140 ms (pytest); the tag handlers and results.add (a fingerprint per passed case, the few other tests kept whole) 66-71 ms for surefire's 49,000 cases and 316-413 ms for pytest's 238,000; the service's 200 pages on the thread that parses 182-239 ms (the socket, JSON.parse, the check against the API schema) and 40-60 ms more indexing the 20,000 listed tests as bytes; garbage collection 83-98 ms (surefire) and 187-213 ms (pytest); the reads 28-54 ms, and 84-99 ms idle; loading the action before the first report 120-150 ms, and the outputs, summary and report file after the last 64-66 ms (surefire) to 169-232 ms (pytest's 2,676 failures).";
/** Why a second thread is no way round the one-thread floor here (bench/lib/speed-tricks.ts has the build). */
const SECOND_THREAD =
  "A second thread buys nothing here, measured: a build that parsed the reports in a worker thread while the main thread read the lists, 9 rounds alternating with the same build on one thread, was no faster (wall, paired: surefire 1.03x, pytest 1.07x, Bazel 0.96x) and peaked 4-18 MiB higher (paired 1.05-1.23x). Our reading, not measured apart: the machine's other core is busy answering the lists (the emulator) and reading them; and sax alone in a worker takes 940 ms and 67.6 MiB against 890 ms and 58.6 MiB on the main thread (surefire, 7 rounds).";
const MEMORY_COST =
  "Where it goes (sampled with process.memoryUsage() and V8's heap spaces every 2-50 ms, pytest shape, Node 20): node -e 0 37.5 MiB; loading the action and stopping at its first input check, 5 MiB more; the gate on one small report, asking the same service for its 20,000 listed tests, 24 MiB above node -e 0 (the client's sockets and answers, the listed tests as about 5 MB of bytes outside the heap, the code the run compiles). While the gate runs, V8's young generation is held at the size it has (young-generation.ts; before it, it doubled to 2 x 16 MiB over the parse, 20 MiB of the peak), and the report file is written a failure at a time (it was one 2 MB string, its redacted copy and its encoding at once, 8 MiB of the peak). sax alone on the same reports with its young generation held the same way peaks 18 MiB above node -e 0; with the gate on one small report, 42 MiB if both peaks fell at once, and the gate on pytest's reports peaks at 40 MiB (7 rounds): at that floor. The rest is the old generation (each failure kept with its message, what the smaller young generation promotes sooner) and the pages in flight.";

const dir = mkdtempSync(join(tmpdir(), 'bench-junit-'));
const emulator = await launchEmulator(TOKEN);
const distant = await launchEmulator(TOKEN);
const unlisted = await launchEmulator(TOKEN);
try {
  await seed(unlisted, []);
  const baseline = median(await Promise.all([0, 1, 2].map(() => timed(['-e', '0']).then((r) => r.rssBytes))));
  const results: BenchResult[] = [];
  for (const shape of JUNIT_SHAPES.filter((one) => !SHAPE || one.id === SHAPE))
    results.push(...(await measureShape(shape, baseline)));
  emitResults(results);
} finally {
  rmSync(dir, { recursive: true, force: true });
  await Promise.all([emulator.stop(), distant.stop(), unlisted.stop()]);
}

async function timed(args: string[], env?: Record<string, string | undefined>) {
  const run = await timeProcess('/usr/bin/time', ['-f', '%e %M', process.execPath, ...args], {
    cwd: REPO_ROOT,
    env,
  });
  const [seconds, kib] = run.stderr.trim().split('\n').pop()!.split(' ').map(Number);
  return { ms: Math.round(seconds! * 1000), rssBytes: kib! * 1024, run };
}

/**
 * The quarantine, in both emulators (the distant one with its latency): three failures in four, and other
 * tests up to QUARANTINED, replacing the last shape's.
 */
async function quarantine(failures: FailedTest[]): Promise<number> {
  const quarantinedFailures = failures
    .filter((_, index) => index % 4 !== 0)
    .map(({ name, classname }) => ({ name, classname }));
  const tests = [
    ...quarantinedFailures,
    ...Array.from({ length: QUARANTINED - quarantinedFailures.length }, (_, i) => ({
      name: `other test ${i}`,
      classname: `com.acme.other.Suite${i % 50}`,
    })),
  ].map((test) => ({ ...test, status: 'flaky', quarantine_override: 'ALWAYS_QUARANTINE' }));
  await seed(emulator, tests);
  await seed(distant, tests, { latency_ms: LATENCY_MS });
  return tests.length;
}

/** The repository's flaky tests in one emulator, replacing what it held. */
async function seed(service: typeof emulator, tests: object[], extra: object = {}): Promise<void> {
  const repositories = [{ repo: REPO, org_url_slug: 'acme', tests }];
  await postJson(`${new URL(service.url).origin}/_emulator/flaky-tests`, TOKEN, { repositories, ...extra });
}

/** One shape's reports written and gated RUNS times, interleaved with the floors; its three rows. */
async function measureShape(shape: JUnitShape, baseline: number): Promise<BenchResult[]> {
  const shapeDir = join(dir, shape.id);
  mkdirSync(shapeDir);
  const failureEvery = Math.max(1, Math.round(REPORT_BYTES / shape.bytesPerCase / FAILURES));
  const { failures, cases } = shape.write(shapeDir, REPORT_BYTES, failureEvery);
  const files = readdirSync(shapeDir, { recursive: true }).filter((name) => String(name).endsWith('.xml'));
  const bytes = files.reduce((sum, name) => sum + statSync(join(shapeDir, String(name))).size, 0);
  const quarantined = await quarantine(failures);
  progress(
    `${shape.id}: ${files.length} reports, ${(bytes / 1e6).toFixed(1)} MB, ${cases} cases, ${failures.length} failures; ${quarantined} quarantined`,
  );
  const unquarantined = failures.length - Math.floor(failures.length * 0.75);
  const runs = await measureRounds(shape, shapeDir, { all: failures.length, unquarantined }, quarantined);
  const about = `${shape.label}: ${(bytes / 1e6).toFixed(1)} MB of JUnit XML in ${files.length} files, ${cases} test cases, ${failures.length} failures, ${quarantined} quarantined tests in the emulator (${Math.ceil(quarantined / PAGE_SIZE)} pages).`;
  const chainMs = Math.ceil(quarantined / PAGE_SIZE) * LATENCY_MS;
  return rowsOf(shape, { ...runs, bytes, baseline, about, chainMs });
}

/** The gate, its floors and the runs that explain them, RUNS rounds after a warm-up. */
async function measureRounds(
  shape: JUnitShape,
  shapeDir: string,
  failures: { all: number; unquarantined: number },
  quarantined: number,
): Promise<RoundRuns> {
  const gate = gateRunner(shapeDir, shape.glob, failures.unquarantined);
  const gateAfar = gateRunner(shapeDir, shape.glob, failures.unquarantined, distant);
  const gateUnlisted = gateRunner(shapeDir, shape.glob, failures.all, unlisted);
  // The same service with one small report: what loading the action and asking for the lists cost alone.
  const small = gateRunner(smallReportDir(shape.id), 'small.xml', 1);
  const runs: RoundRuns = {
    action: [],
    afar: [],
    versus: [],
    versusAfar: [],
    floor: [],
    withLists: [],
    reportsOnly: [],
    service: [],
  };
  for (let round = -1; round < RUNS; round++) {
    const [measured, before] = await bothBuilds(gate, round);
    const [distantOne, distantBefore] = await bothBuilds(gateAfar, round);
    const parse = await timed([join(REPO_ROOT, 'bench/lib/sax-floor.mjs'), shapeDir]);
    if (parse.run.exitCode !== 0) throw new Error(`the floor failed: ${parse.run.stderr.slice(-300)}`);
    const alone = await small(ENTRY);
    const reportsOnly = await gateUnlisted(ENTRY);
    const both = await saxWithLists(shapeDir, quarantined);
    if (round >= 0) {
      runs.action.push(measured);
      runs.afar.push(distantOne);
      if (before) runs.versus.push(before);
      if (distantBefore) runs.versusAfar.push(distantBefore);
      runs.floor.push({ ms: parse.ms, rss: parse.rssBytes });
      runs.withLists.push(both);
      runs.reportsOnly.push(reportsOnly);
      runs.service.push(alone);
    }
    progress(
      `${shape.id} ${round < 0 ? 'warm-up' : `run ${round + 1}`}: action ${measured.ms} ms, ${mib(measured.rss)} MiB${before ? `; --vs ${before.ms} ms, ${mib(before.rss)} MiB` : ''}; ${LATENCY_MS} ms away ${distantOne.ms} ms, ${mib(distantOne.rss)} MiB${distantBefore ? `; --vs ${distantBefore.ms} ms, ${mib(distantBefore.rss)} MiB` : ''}; sax alone ${parse.ms} ms, ${mib(parse.rssBytes)} MiB; one small report ${alone.ms} ms, ${mib(alone.rss)} MiB; nothing quarantined ${reportsOnly.ms} ms; sax with the lists ${both.ms} ms`,
    );
  }
  if (VERSUS) {
    printVersus(shape.id, runs.action, runs.versus);
    printVersus(`${shape.id} ${LATENCY_MS} ms away`, runs.afar, runs.versusAfar);
  }
  return runs;
}

/** The build measured, and with `--vs` the other one; the two take turns going first, round by round. */
async function bothBuilds(gate: (entry: string) => Promise<Run>, round: number): Promise<[Run, Run?]> {
  if (!VERSUS) return [await gate(ENTRY)];
  if (round % 2) {
    const before = await gate(VERSUS);
    return [await gate(ENTRY), before];
  }
  const now = await gate(ENTRY);
  return [now, await gate(VERSUS)];
}

/** A directory holding SMALL_REPORT as small.xml. */
function smallReportDir(shapeId: string): string {
  const reportDir = join(dir, `${shapeId}-small`);
  mkdirSync(reportDir);
  writeFileSync(join(reportDir, 'small.xml'), SMALL_REPORT);
  return reportDir;
}

/**
 * The gate on the reports `glob` finds under `dir`, as the runner starts it, checked to have found
 * `unquarantined` failures.
 */
function gateRunner(dir: string, glob: string, unquarantined: number, service = emulator) {
  const step = stepEnvironment(dir, {
    eventName: 'workflow_dispatch',
    payload: example('workflow_dispatch'),
    repository: `${REPO.owner}/${REPO.name}`,
    inputs: {
      operation: 'check-test-results',
      'api-url': service.url,
      'api-token': TOKEN,
      'org-url-slug': 'acme',
      'junit-paths': glob,
      'checkout-dir': dir,
    },
  });
  return async (entry: string) => {
    step.reset();
    const run = await timed([resolve(REPO_ROOT, entry)], step.env);
    checkGate(run.run.stdout, readSummary(step.files.summary), unquarantined);
    return { ms: run.ms, rss: run.rssBytes };
  };
}

function mib(bytes: number): string {
  return (bytes / 2 ** 20).toFixed(0);
}

/** `--vs`: both builds' medians, ranges and the median of the paired ratios, for time and peak RSS. */
function printVersus(shape: string, now: Run[], before: Run[]) {
  for (const field of ['ms', 'rss'] as const) {
    const unit = field === 'ms' ? 'ms' : 'MiB';
    const show = (value: number) => (field === 'ms' ? value.toFixed(0) : mib(value));
    const of = (runs: typeof now) => {
      const values = runs.map((run) => run[field]);
      return `${show(median(values))} ${unit} (${show(Math.min(...values))}-${show(Math.max(...values))})`;
    };
    const pairs = now.map((run, i) => run[field] / before[i]![field]);
    progress(
      `--vs ${shape} ${field === 'ms' ? 'wall time' : 'peak RSS'}: ${ENTRY} ${of(now)}, ${VERSUS} ${of(before)}; median of paired ratios ${median(pairs).toFixed(3)} (${Math.min(...pairs).toFixed(2)}-${Math.max(...pairs).toFixed(2)})`,
    );
  }
}

/** One process: wall time and peak RSS. */
interface Run {
  ms: number;
  rss: number;
}

/** What the rounds measure, each a run per round. */
interface RoundRuns {
  action: Run[];
  /** The gate against the service LATENCY_MS away. */
  afar: Run[];
  /** `--vs`: the other build, against each service. */
  versus: Run[];
  versusAfar: Run[];
  floor: Run[];
  /** sax alone on the reports while a bare client reads the service's lists, in one process. */
  withLists: Run[];
  /** The gate on the same reports against a service that quarantines nothing (four one-page listings). */
  reportsOnly: Run[];
  /** The gate on one small report, asking the same service. */
  service: Run[];
}

interface ShapeRuns extends RoundRuns {
  bytes: number;
  /** node -e 0's peak RSS. */
  baseline: number;
  about: string;
  /** The longest chain of pages the gate follows, times the distant service's latency. */
  chainMs: number;
}

function rowsOf(shape: JUnitShape, runs: ShapeRuns): BenchResult[] {
  const { action, floor, withLists, reportsOnly, service, bytes, baseline, about } = runs;
  const figure = median(action.map((run) => run.ms));
  const floorMs = median(floor.map((run) => run.ms));
  const floorAbove = median(floor.map((run) => run.rss)) - baseline;
  const serviceMs = median(service.map((run) => run.ms));
  const serviceAbove = median(service.map((run) => run.rss)) - baseline;
  const ratio = ratioOf(figure, floorMs)!;
  const above = median(action.map((run) => run.rss)) - baseline;
  const memoryRatio = above / bytes;
  const command = `node dist/index.js (INPUT_OPERATION=check-test-results, junit-paths: ${shape.glob})`;
  const title = `Quarantine gate: ${(bytes / 1e6).toFixed(0)} MB of JUnit XML, ${shape.id}`;
  return [
    {
      name: `${title}, wall time`,
      figure,
      unit: 'ms',
      floor: floorMs,
      ratio,
      goal: `ratio <= ${GOAL_TIME}`,
      met: ratio <= GOAL_TIME,
      runs: RUNS,
      command,
      floorCommand:
        'node bench/lib/sax-floor.mjs <reports> (sax alone, same files, same options, same 32 KiB reads, read synchronously)',
      notes: `${about} Runs: ${action.map((run) => run.ms).join(', ')} ms; floor runs ${floor.map((run) => run.ms).join(', ')} ms. The service is asked from the first failure on, while the rest is parsed; the gate on one small report, asking the same service for its lists, takes ${serviceMs.toFixed(0)} ms in the same rounds. ${oneThreadFloor({ figure, floor, withLists, reportsOnly })}${ratio > GOAL_TIME ? ` ${SECOND_THREAD} ${TIME_COST}` : ''}`,
    },
    {
      name: `${title}, peak RSS above Node's baseline`,
      figure: Math.round(above / 2 ** 20),
      unit: 'MiB',
      floor: null,
      ratio: null,
      goal: `<= ${GOAL_MEMORY} x the reports' size (${Math.round((GOAL_MEMORY * bytes) / 2 ** 20)} MiB)`,
      met: memoryRatio <= GOAL_MEMORY,
      runs: RUNS,
      command,
      notes: `${about} Peak RSS ${mib(median(action.map((run) => run.rss)))} MiB, node -e 0 ${mib(baseline)} MiB: ${(memoryRatio * 100).toFixed(0)}% of the reports' size; sax alone on the same files peaks ${mib(floorAbove)} MiB above node -e 0 in the same rounds (${((floorAbove / bytes) * 100).toFixed(0)}%), and the gate on one small report, asking the same service, ${mib(serviceAbove)} MiB (loading the action and the service's lists, whatever the reports' size); the two together, ${mib(floorAbove + serviceAbove)} MiB or ${(((floorAbove + serviceAbove) / bytes) * 100).toFixed(0)}% of the reports' size, are roughly the floor of any gate that parses with sax while it asks for the same lists. Reports are read through one reused 32 KiB buffer. Of them the gate keeps each failed or skipped test whole (its identity as UTF-8 bytes outside the JS heap) and each passed case as an 8-byte fingerprint with the report it came from: a failed test whose fingerprint is there has those reports read again and compared in full, so a retry that passed is still told apart exactly. The service's listed tests (identity and link) are bytes outside the heap too.${memoryRatio > GOAL_MEMORY ? ` ${MEMORY_COST}` : ''}`,
    },
    afarRow(title, command, runs),
  ];
}

/**
 * The gate against the service LATENCY_MS away: each listing's pages come one after another, so the
 * longest chain times the latency is a floor of its own, and so is sax alone; the larger one is the row's.
 */
function afarRow(title: string, command: string, runs: ShapeRuns): BenchResult {
  const { afar, action, floor, chainMs, baseline, about } = runs;
  const figure = median(afar.map((run) => run.ms));
  const floorMs = median(floor.map((run) => run.ms));
  const floorNow = Math.max(floorMs, chainMs);
  const above = (of: Run[]) => mib(median(of.map((run) => run.rss)) - baseline);
  return {
    name: `${title}, against a service ${LATENCY_MS} ms away, wall time`,
    figure,
    unit: 'ms',
    floor: floorNow,
    ratio: ratioOf(figure, floorNow),
    goal: '—',
    met: null,
    runs: RUNS,
    command: `${command}, the emulator answering each request ${LATENCY_MS} ms after it came in`,
    floorCommand: `the longer of sax alone (node bench/lib/sax-floor.mjs, ${floorMs.toFixed(0)} ms) and the longest chain of pages (${chainMs / LATENCY_MS} pages of ${PAGE_SIZE}, one after another, x ${LATENCY_MS} ms: ${chainMs} ms)`,
    notes: `${about} Runs: ${afar.map((run) => run.ms).join(', ')} ms. The gate asks for the four listings from the first failure on and follows each page's token to the next; with the service this far, ${chainMs > floorMs ? 'the longest listing, not the parse, is the longer job' : 'the parse is still the longer job'}. Peak RSS ${above(afar)} MiB above node -e 0, against ${above(action)} MiB with the service at no distance: the service's pages are in flight for longer while the reports are parsed.`,
  };
}

/**
 * The least a gate that does the reports' work on one thread can take: that work (the same gate against a
 * service that quarantines nothing) plus what reading the lists adds to a parse the cheapest way (a bare
 * client while sax alone parses the same reports, sax-lists-floor.mjs, less sax alone), paired by round.
 */
function oneThreadFloor({
  figure,
  floor,
  withLists,
  reportsOnly,
}: Pick<ShapeRuns, 'floor' | 'withLists' | 'reportsOnly'> & { figure: number }): string {
  const floorMs = median(floor.map((run) => run.ms));
  const reportsMs = median(reportsOnly.map((run) => run.ms));
  const listsAdd = median(withLists.map((run, i) => run.ms - floor[i]!.ms));
  // Summed round by round, so that a round slow throughout adds one slow sum, not a slow part to a fast one.
  const bound = median(reportsOnly.map((run, i) => run.ms + withLists[i]!.ms - floor[i]!.ms));
  const boundRatio = bound / floorMs;
  const verdict =
    bound > figure
      ? `above the gate's own time in these rounds, so they were too uneven for it to bound anything: no verdict from this run`
      : boundRatio > GOAL_TIME
        ? `over the goal of ${GOAL_TIME}x on its own: out of reach on one thread for this shape`
        : `under the goal of ${GOAL_TIME}x by ${(GOAL_TIME * floorMs - bound).toFixed(0)} ms: the gate's own work on the lists beyond a bare client's (each answer checked against the API's schema, the tests indexed as bytes) would have to fit in that; it takes ${(figure - bound).toFixed(0)} ms here`;
  return `The one-thread floor, in the same rounds: the gate's work on the reports, the same gate against a service that quarantines nothing (four one-page listings), ${reportsMs.toFixed(0)} ms, ${(reportsMs / floorMs).toFixed(2)}x sax alone; plus what the lists add to a parse when read the cheapest way, a bare client reading the four listings page by page while sax parses the same reports (node bench/lib/sax-lists-floor.mjs, ${median(withLists.map((run) => run.ms)).toFixed(0)} ms, less sax alone, paired by round), ${listsAdd.toFixed(0)} ms; summed round by round, ${bound.toFixed(0)} ms, ${boundRatio.toFixed(2)}x sax alone, ${verdict}.`;
}

/** sax alone on `shapeDir` while a bare client reads every page of the four listings, checked to have read them. */
async function saxWithLists(shapeDir: string, quarantined: number): Promise<Run> {
  const base = JSON.stringify({ repo: REPO, org_url_slug: 'acme' });
  const run = await timed([
    join(REPO_ROOT, 'bench/lib/sax-lists-floor.mjs'),
    shapeDir,
    emulator.url,
    TOKEN,
    base,
  ]);
  if (run.run.exitCode !== 0 || !run.run.stdout.startsWith(`${quarantined} `)) {
    throw new Error(
      `the sax-and-lists floor failed: ${run.run.stdout.slice(-200)} ${run.run.stderr.slice(0, 900).replace(/\s+/g, ' ')}`,
    );
  }
  return { ms: run.ms, rss: run.rssBytes };
}

/** The gate must have found the unquarantined failures, and only them, or the figure measures nothing. */
function checkGate(stdout: string, summary: string, unquarantined: number): void {
  if (!stdout.includes('::error') || !/fails? this step/.test(summary)) {
    throw new Error(`the action did not report the unquarantined failures: ${stdout.slice(-300)}`);
  }
  if (!summary.includes(String(unquarantined))) {
    throw new Error(
      `the summary does not count ${unquarantined} unquarantined failures: ${summary.slice(0, 600)}`,
    );
  }
}

function readSummary(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

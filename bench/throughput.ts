// Emulator throughput: autocannon, 50 connections, 10 s per run, against getSubmittedPullRequest and
// list-unhealthy-tests. The emulator runs in its own process, as `npm run emulator` starts it (no request
// log); autocannon runs in this one. The floors answer the emulator's own response bodies byte for byte
// (bench/lib/fixed-body-server.mjs): a bare node:http server, and fastify with no schema or hooks (the
// peer: what the framework the emulator is built on costs alone). For getSubmittedPullRequest, two more
// servers (bench/lib/endpoint-floor-server.mjs) do only the work the endpoint cannot skip (read the body,
// JSON.parse, check the token, a Map lookup, JSON.stringify): one on node:http, one in a fastify route.
// Every target is measured in interleaved rounds, with its answers per second and the CPU it spent per
// answer (from /proc). Last, a CPU profile of the emulator under the same load says where its time goes.
// The goals: issue 29's, getSubmittedPullRequest at least 0.8x node:http answering the same fixed body;
// issue 16's, list-unhealthy-tests at least 20,000 req/s (floor: node:http).
// `--vs <checkout>`: a before/after comparison. Only the emulators run: this one and the one in <checkout>
// (another copy of the repository, with its node_modules), in `--rounds` (default 7) alternating rounds;
// both medians, their ranges and the median of the paired ratios go to stderr; no results are printed.
// `--endpoint <name>` measures one endpoint only.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon, { type Result } from 'autocannon';
import { describeShares, mainThreadProfile, summarizeCpuProfile } from './lib/cpu-profile.js';
import { interleave, median, round } from './lib/measure.js';
import { cpuSecondsOf } from './lib/process-cpu.js';
import {
  emitResults,
  optionValue,
  progress,
  QUICK,
  ratioOf,
  VERSUS,
  type BenchResult,
} from './lib/result.js';
import { launchEmulator, launchServer, postJson, type RunningServer } from './lib/servers.js';

const CONNECTIONS = 50;
const SECONDS = QUICK ? 2 : 10;
const ROUNDS = Number(optionValue('--rounds') ?? (QUICK ? 1 : VERSUS ? 7 : 3));
const PROFILE_SECONDS = QUICK ? 2 : 5;
const TOKEN = 'bench-token';
const FLAKY_PER_STATUS = 5_000;

const repo = { host: 'github.com', owner: 'bench-org', name: 'bench-repo' };
const orgSlug = 'bench-org';
const targetBranch = 'main';
const ENDPOINTS = {
  getSubmittedPullRequest: {
    path: '/getSubmittedPullRequest',
    body: JSON.stringify({ repo, targetBranch, pr: { number: 1 } }),
  },
  'list-unhealthy-tests': {
    path: '/flaky-tests/list-unhealthy-tests',
    body: JSON.stringify({ repo, org_url_slug: orgSlug, page_query: { page_size: 100 }, status: 'FLAKY' }),
  },
};
type Endpoint = keyof typeof ENDPOINTS;
const ONLY = optionValue('--endpoint');
const ENDPOINT_NAMES = (Object.keys(ENDPOINTS) as Endpoint[]).filter((name) => !ONLY || name === ONLY);
if (ENDPOINT_NAMES.length === 0) {
  throw new Error(`--endpoint ${ONLY}: expected one of ${Object.keys(ENDPOINTS).join(', ')}`);
}

/** What is measured: the emulator, the floors and peer, and with --vs the other checkout's emulator. */
type Server = 'emulator' | 'node:http' | 'fastify' | 'work floor' | 'fastify work floor' | 'vs';
/** The servers measured on each endpoint (the work floors serve getSubmittedPullRequest only). */
const SERVED: Record<Endpoint, Server[]> = VERSUS
  ? { getSubmittedPullRequest: ['emulator', 'vs'], 'list-unhealthy-tests': ['emulator', 'vs'] }
  : {
      getSubmittedPullRequest: ['emulator', 'node:http', 'fastify', 'work floor', 'fastify work floor'],
      'list-unhealthy-tests': ['emulator', 'node:http', 'fastify'],
    };

interface Goal {
  goal: string;
  met: (figure: number, ratio: number) => boolean;
}

/** getSubmittedPullRequest's goal: at least this share of node:http answering its body, fixed. */
const NODE_HTTP_RATIO_GOAL = 0.8;

/** Both goals are set against node:http answering the endpoint's body, fixed. */
const GOALS: Record<Endpoint, Goal> = {
  getSubmittedPullRequest: {
    goal: `ratio >= ${NODE_HTTP_RATIO_GOAL} (of node:http answering the same fixed body)`,
    met: (_figure, ratio) => ratio >= NODE_HTTP_RATIO_GOAL,
  },
  'list-unhealthy-tests': { goal: '>= 20,000 req/s', met: (figure) => figure >= 20_000 },
};

/** One run of autocannon against one server. */
interface Sample {
  rps: number;
  p99: number;
  /** The server's CPU time per answer, in microseconds; NaN where /proc cannot say. */
  cpuUs: number;
}

/** A queue with PR #1 in it, and 5,000 flaky and 5,000 broken tests. */
async function prepare(emulator: RunningServer): Promise<void> {
  await postJson(`${emulator.url}/createQueue`, TOKEN, { repo, targetBranch });
  await postJson(`${emulator.url}/submitPullRequest`, TOKEN, { repo, targetBranch, pr: { number: 1 } });
  await postJson(`${new URL(emulator.url).origin}/_emulator/flaky-tests`, TOKEN, {
    repositories: [
      { repo, org_url_slug: orgSlug, generate: { flaky: FLAKY_PER_STATUS, broken: FLAKY_PER_STATUS } },
    ],
  });
}

async function load(url: string, endpoint: Endpoint, seconds: number): Promise<Result> {
  const result = await autocannon({
    url: `${url}${ENDPOINTS[endpoint].path}`,
    connections: CONNECTIONS,
    duration: seconds,
    method: 'POST',
    headers: { 'x-api-token': TOKEN, 'content-type': 'application/json' },
    body: ENDPOINTS[endpoint].body,
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(
      `${url}${ENDPOINTS[endpoint].path}: ${result.non2xx} non-2xx answers and ${result.errors} errors under load`,
    );
  }
  return result;
}

/** One measured run: throughput, p99, and the CPU the server spent per answer. */
async function sample(server: RunningServer, url: string, endpoint: Endpoint): Promise<Sample> {
  const cpuBefore = cpuSecondsOf(server.pid);
  const result = await load(url, endpoint, SECONDS);
  const cpuAfter = cpuSecondsOf(server.pid);
  const cpu = cpuBefore === undefined || cpuAfter === undefined ? NaN : cpuAfter - cpuBefore;
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    cpuUs: (cpu * 1e6) / result.requests.total,
  };
}

/** Where the emulator's CPU time goes under this load: a fresh emulator, profiled. */
async function profile(endpoint: Endpoint, dir: string): Promise<string> {
  const profileDir = join(dir, `profile-${endpoint}`);
  const emulator = await launchEmulator(TOKEN, ['--cpu-prof', '--cpu-prof-dir', profileDir]);
  try {
    await prepare(emulator);
    await load(emulator.url, endpoint, 1);
    await load(emulator.url, endpoint, PROFILE_SECONDS);
  } finally {
    await emulator.stop();
  }
  // The last seconds of the profile are the load, not the start-up or the seeding.
  return describeShares(summarizeCpuProfile(mainThreadProfile(profileDir), PROFILE_SECONDS - 0.5));
}

interface Running {
  servers: Partial<Record<Server, RunningServer>>;
  /** Per server, the URL its endpoint paths go under (…/v1 for all). */
  base: Partial<Record<Server, string>>;
  /** The emulator's answer to each endpoint, in bytes. */
  answerBytes: Record<Endpoint, number>;
}

/** Starts the emulator, then the floors answering what it answers (or, with --vs, the other emulator). */
async function startServers(dir: string, started: RunningServer[]): Promise<Running> {
  const emulator = await launchEmulator(TOKEN);
  started.push(emulator);
  await prepare(emulator);
  const apiPrefix = new URL(emulator.url).pathname;
  const answerBytes = {} as Record<Endpoint, number>;
  const running: Running = { servers: { emulator }, base: { emulator: emulator.url }, answerBytes };
  const bodies: Record<string, string> = {};
  for (const endpoint of ENDPOINT_NAMES) {
    const { path, body } = ENDPOINTS[endpoint];
    const answer = JSON.stringify(await postJson(`${emulator.url}${path}`, TOKEN, JSON.parse(body)));
    bodies[`${apiPrefix}${path}`] = answer;
    answerBytes[endpoint] = Buffer.byteLength(answer);
  }
  const add = (server: Server, launched: RunningServer, url: string) => {
    started.push(launched);
    running.servers[server] = launched;
    running.base[server] = url;
  };
  if (VERSUS) {
    const before = await launchEmulator(TOKEN, [], resolve(VERSUS));
    add('vs', before, before.url);
    await prepare(before);
    return running;
  }
  const bodiesFile = join(dir, 'bodies.json');
  writeFileSync(bodiesFile, JSON.stringify(bodies));
  const fixed = ['bench/lib/fixed-body-server.mjs', bodiesFile];
  const bare = await launchServer('the node:http floor', process.execPath, fixed);
  add('node:http', bare, `${bare.url}${apiPrefix}`);
  const fastify = await launchServer('the fastify peer', process.execPath, [...fixed, '--fastify']);
  add('fastify', fastify, `${fastify.url}${apiPrefix}`);
  const floorFile = join(dir, 'work-floor.json');
  const { path } = ENDPOINTS.getSubmittedPullRequest;
  const answer = await postJson(`${emulator.url}${path}`, TOKEN, { repo, targetBranch, pr: { number: 1 } });
  const pullRequests = [{ repo, targetBranch, number: 1, answer }];
  writeFileSync(floorFile, JSON.stringify({ path: `${apiPrefix}${path}`, token: TOKEN, pullRequests }));
  const workFloor = ['bench/lib/endpoint-floor-server.mjs', floorFile];
  const work = await launchServer('the work floor', process.execPath, workFloor);
  add('work floor', work, `${work.url}${apiPrefix}`);
  const fastifyWork = await launchServer('the fastify work floor', process.execPath, [
    ...workFloor,
    '--fastify',
  ]);
  add('fastify work floor', fastifyWork, `${fastifyWork.url}${apiPrefix}`);
  return running;
}

/** Every server on every endpoint it serves, in interleaved rounds, after a warm-up of each. */
async function measure(running: Running): Promise<Map<string, Sample[]>> {
  const targets = ENDPOINT_NAMES.flatMap((endpoint) =>
    SERVED[endpoint].map((server) => ({ endpoint, server })),
  );
  progress(`throughput: warming up every target for 1 s (load average ${loadavg()[0]!.toFixed(2)})...`);
  for (const { server, endpoint } of targets) await load(running.base[server]!, endpoint, 1);
  return interleave(
    targets.map(({ endpoint, server }) => ({
      name: `${server} ${endpoint}`,
      run: () => {
        progress(`throughput: ${server} ${endpoint}, ${SECONDS} s...`);
        return sample(running.servers[server]!, running.base[server]!, endpoint);
      },
    })),
    ROUNDS,
    0,
  );
}

/** --vs: both emulators' medians, ranges and paired ratios, on stderr. */
function reportVersus(samples: Map<string, Sample[]>): void {
  for (const endpoint of ENDPOINT_NAMES) {
    const now = samples.get(`emulator ${endpoint}`)!;
    const before = samples.get(`vs ${endpoint}`)!;
    for (const [field, unit] of [
      ['rps', 'req/s'],
      ['cpuUs', 'µs CPU per answer'],
    ] as const) {
      const a = now.map((s) => s[field]);
      const b = before.map((s) => s[field]);
      const pairs = a.map((value, i) => value / b[i]!);
      const range = (values: number[]) =>
        `${Math.round(Math.min(...values))}-${Math.round(Math.max(...values))}`;
      progress(
        `--vs ${endpoint}, ${unit}: this checkout ${Math.round(median(a))} (${range(a)}), ${VERSUS} ` +
          `${Math.round(median(b))} (${range(b)}); ratio of medians ${(median(a) / median(b)).toFixed(3)}, ` +
          `median of paired ratios ${median(pairs).toFixed(3)} (${Math.min(...pairs).toFixed(2)}-` +
          `${Math.max(...pairs).toFixed(2)}), ${ROUNDS} rounds`,
      );
    }
  }
  progress(
    `load average at the end: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

const FLOOR_COMMAND =
  'the same load on bench/lib/fixed-body-server.mjs, node:http answering the same fixed body';

/** The throughput and p99 rows of one endpoint, with notes saying what bounds the figure. */
function resultsFor(
  endpoint: Endpoint,
  samples: Map<string, Sample[]>,
  bytes: number,
  cpu: string,
): BenchResult[] {
  const runs = (server: Server) => samples.get(`${server} ${endpoint}`)!;
  const rps = (server: Server) => median(runs(server).map((r) => r.rps));
  const p99 = (server: Server) => median(runs(server).map((r) => r.p99));
  const cpuUs = (server: Server) => round(median(runs(server).map((r) => r.cpuUs)));
  const perSecond = (server: Server) => Math.round(rps(server)).toLocaleString('en-US');
  const { goal, met } = GOALS[endpoint];
  const figure = rps('emulator');
  const ratio = figure / rps('node:http');
  const command = `autocannon -c ${CONNECTIONS} -d ${SECONDS} -m POST <emulator>/v1${ENDPOINTS[endpoint].path}`;
  const servers = SERVED[endpoint];
  const notes = [
    `fastify (no schema, no hooks) answering the same ${bytes.toLocaleString('en-US')} B body: ` +
      `${perSecond('fastify')} req/s (${round(rps('fastify') / rps('node:http'), 2)}x node:http), p99 ` +
      `${p99('fastify')} ms; the emulator is ${round(figure / rps('fastify'), 2)}x fastify.`,
    `CPU per answer (the server's own, from /proc): ${servers.map((s) => `${s} ${cpuUs(s)} µs`).join(', ')}; ` +
      `autocannon shares the machine's ${cpus().length} cores.`,
  ];
  if (servers.includes('work floor')) {
    notes.push(
      `The work floor (bench/lib/endpoint-floor-server.mjs: node:http that reads the body, JSON.parse, checks ` +
        `the token, looks the PR up in a Map and JSON.stringify's it) reaches ${perSecond('work floor')} req/s, ` +
        `${round(rps('work floor') / rps('node:http'), 2)}x node:http: what the endpoint's unavoidable work ` +
        `costs without any framework. The same work in a fastify route (the same script with --fastify: ` +
        `fastify reads and parses the body and writes the answer) reaches ${perSecond('fastify work floor')} ` +
        `req/s, ${round(rps('fastify work floor') / rps('node:http'), 2)}x node:http: the floor of an ` +
        `endpoint built on the emulator's framework; the emulator is ` +
        `${round(figure / rps('fastify work floor'), 2)}x it.`,
    );
  }
  notes.push(
    `The emulator's CPU under this load (${PROFILE_SECONDS} s profiled): ${cpu}; a built-in such as ` +
      'JSON.stringify counts toward the code that calls it.',
  );
  if (endpoint === 'list-unhealthy-tests') {
    notes.push(
      `The store holds ${FLAKY_PER_STATUS.toLocaleString('en-US')} flaky and ` +
        `${FLAKY_PER_STATUS.toLocaleString('en-US')} broken tests; a page is 100, answered from the ` +
        'serialized page kept until the store changes.',
    );
  }
  const isMet = met(figure, ratio);
  if (!isMet) notes.push(missedGoalNote(endpoint, rps));
  return [
    {
      name: `Emulator throughput: ${endpoint}`,
      figure: Math.round(figure),
      unit: 'req/s',
      floor: Math.round(rps('node:http')),
      ratio: ratioOf(figure, rps('node:http')),
      goal,
      met: isMet,
      runs: ROUNDS,
      command,
      floorCommand: FLOOR_COMMAND,
      notes: notes.join(' '),
    },
    {
      name: `Emulator p99 latency: ${endpoint}`,
      figure: p99('emulator'),
      unit: 'ms',
      floor: p99('node:http'),
      ratio: ratioOf(p99('emulator'), p99('node:http')),
      goal: '',
      met: null,
      runs: ROUNDS,
      command,
    },
  ];
}

/** Why a goal is missed, with the same run's floors (their figures are in the notes before this one). */
function missedGoalNote(endpoint: Endpoint, rps: (server: Server) => number): string {
  const perSecond = (server: Server) => Math.round(rps(server)).toLocaleString('en-US');
  if (endpoint === 'list-unhealthy-tests') {
    return (
      `Under the goal: in the same run node:http answering the same fixed body reaches ` +
      `${perSecond('node:http')} req/s, and fastify ${perSecond('fastify')} req/s.`
    );
  }
  const underGoal = (server: Server) => rps(server) / rps('node:http') < NODE_HTTP_RATIO_GOAL;
  if (underGoal('work floor')) {
    return (
      "Out of reach for any server: node:http doing only the endpoint's unavoidable work is under the goal " +
      'before any routing, validation or hook.'
    );
  }
  if (underGoal('fastify work floor')) {
    return (
      'Out of reach for an application on fastify: the fastify work floor is under the goal before any ' +
      "routing, validation or hook of the emulator's."
    );
  }
  return "Within reach: both work floors meet the goal; the emulator's own hooks, validation and routing cost the rest.";
}

const started: RunningServer[] = [];
const dir = mkdtempSync(join(tmpdir(), 'bench-throughput-'));
try {
  const running = await startServers(dir, started);
  const samples = await measure(running);
  for (const server of started.splice(0)) await server.stop();
  if (VERSUS) {
    reportVersus(samples);
  } else {
    const results: BenchResult[] = [];
    for (const endpoint of ENDPOINT_NAMES) {
      progress(`throughput: profiling the emulator under ${endpoint} load for ${PROFILE_SECONDS} s...`);
      const cpu = await profile(endpoint, dir);
      results.push(...resultsFor(endpoint, samples, running.answerBytes[endpoint], cpu));
    }
    emitResults(results);
  }
} finally {
  for (const server of started) await server.stop();
  rmSync(dir, { recursive: true, force: true });
}

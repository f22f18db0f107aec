// Emulator throughput: autocannon, 50 connections, 10 s per run, against getSubmittedPullRequest and
// list-unhealthy-tests. The emulator runs in its own process, as `npm run emulator` starts it (no request
// log); autocannon runs in this one. The floors answer the emulator's own response bodies byte for byte
// (bench/lib/fixed-body-server.mjs): a bare node:http server, and fastify with no schema or hooks (what
// the framework alone costs). Every target is measured in interleaved rounds. Last, a CPU profile of the
// emulator under the same load says where its time goes.
// The goals are issue 16's: list-unhealthy-tests at least 20,000 req/s (floor: node:http), and
// getSubmittedPullRequest at least 0.8x fastify answering the same fixed body (floor: that fastify).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon, { type Result } from 'autocannon';
import { describeShares, mainThreadProfile, summarizeCpuProfile } from './lib/cpu-profile.js';
import { interleave, median, round } from './lib/measure.js';
import { emitResults, progress, QUICK, ratioOf, type BenchResult } from './lib/result.js';
import { launchEmulator, launchServer, postJson, type RunningServer } from './lib/servers.js';

const CONNECTIONS = 50;
const SECONDS = QUICK ? 2 : 10;
const ROUNDS = QUICK ? 1 : 3;
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
const ENDPOINT_NAMES = Object.keys(ENDPOINTS) as Endpoint[];
const SERVERS = ['emulator', 'node:http', 'fastify'] as const;
type Server = (typeof SERVERS)[number];

interface Goal {
  /** The floor the figure is compared with. */
  floor: Exclude<Server, 'emulator'>;
  goal: string;
  met: (figure: number, ratio: number) => boolean;
}

const GOALS: Record<Endpoint, Goal> = {
  getSubmittedPullRequest: {
    floor: 'fastify',
    goal: 'ratio >= 0.8 (of fastify answering the same fixed body)',
    met: (_figure, ratio) => ratio >= 0.8,
  },
  'list-unhealthy-tests': {
    floor: 'node:http',
    goal: '>= 20,000 req/s',
    met: (figure) => figure >= 20_000,
  },
};
const FLOOR_COMMANDS: Record<Goal['floor'], string> = {
  'node:http': 'node:http',
  fastify: 'fastify (no schema, no hooks)',
};

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

const servers: RunningServer[] = [];
const dir = mkdtempSync(join(tmpdir(), 'bench-throughput-'));
try {
  const emulator = await launchEmulator(TOKEN);
  servers.push(emulator);
  await prepare(emulator);
  const apiPrefix = new URL(emulator.url).pathname;

  // The floors answer exactly what the emulator answers.
  const bodies: Record<string, string> = {};
  const answerBytes = {} as Record<Endpoint, number>;
  for (const endpoint of ENDPOINT_NAMES) {
    const { path, body } = ENDPOINTS[endpoint];
    const answer = JSON.stringify(await postJson(`${emulator.url}${path}`, TOKEN, JSON.parse(body)));
    bodies[`${apiPrefix}${path}`] = answer;
    answerBytes[endpoint] = Buffer.byteLength(answer);
  }
  const bodiesFile = join(dir, 'bodies.json');
  writeFileSync(bodiesFile, JSON.stringify(bodies));
  const floorArgs = ['bench/lib/fixed-body-server.mjs', bodiesFile];
  const bare = await launchServer('the node:http floor', process.execPath, floorArgs);
  servers.push(bare);
  const fastify = await launchServer('the fastify floor', process.execPath, [...floorArgs, '--fastify']);
  servers.push(fastify);
  const base: Record<Server, string> = {
    emulator: emulator.url,
    'node:http': `${bare.url}${apiPrefix}`,
    fastify: `${fastify.url}${apiPrefix}`,
  };

  const targets = ENDPOINT_NAMES.flatMap((endpoint) => SERVERS.map((server) => ({ endpoint, server })));
  progress('throughput: warming up every target for 1 s...');
  for (const { server, endpoint } of targets) await load(base[server], endpoint, 1);
  const samples = await interleave(
    targets.map(({ endpoint, server }) => ({
      name: `${server} ${endpoint}`,
      run: () => {
        progress(`throughput: ${server} ${endpoint}, ${SECONDS} s...`);
        return load(base[server], endpoint, SECONDS);
      },
    })),
    ROUNDS,
    0,
  );
  for (const server of servers.splice(0)) await server.stop();

  const results: BenchResult[] = [];
  for (const endpoint of ENDPOINT_NAMES) {
    progress(`throughput: profiling the emulator under ${endpoint} load for ${PROFILE_SECONDS} s...`);
    const cpu = await profile(endpoint, dir);
    const runs = (server: Server) => samples.get(`${server} ${endpoint}`)!;
    const rps = (server: Server) => median(runs(server).map((r) => r.requests.average));
    const p99 = (server: Server) => median(runs(server).map((r) => r.latency.p99));
    const perRequestUs = (server: Server) => round(1e6 / rps(server));
    const { floor, goal, met } = GOALS[endpoint];
    const other: Server = floor === 'fastify' ? 'node:http' : 'fastify';
    const figure = rps('emulator');
    const ratio = figure / rps(floor);
    const command = `autocannon -c ${CONNECTIONS} -d ${SECONDS} -m POST <emulator>/v1${ENDPOINTS[endpoint].path}`;
    const floorCommand =
      `the same load on bench/lib/fixed-body-server.mjs, ${FLOOR_COMMANDS[floor]} answering the same ` +
      `${answerBytes[endpoint].toLocaleString('en-US')} B body`;
    const notes = [
      `${FLOOR_COMMANDS[other]} answering the same body: ` +
        `${Math.round(rps(other)).toLocaleString('en-US')} req/s, p99 ${p99(other)} ms.`,
      `Time per request (1 / throughput): emulator ${perRequestUs('emulator')} µs, fastify alone ` +
        `${perRequestUs('fastify')} µs, node:http ${perRequestUs('node:http')} µs (the floors are partly ` +
        `held back by autocannon, which shares the machine's ${cpus().length} cores).`,
      `The emulator's CPU under this load (${PROFILE_SECONDS} s profiled): ${cpu}; a built-in such as ` +
        'JSON.stringify counts toward the code that calls it.',
    ];
    if (endpoint === 'list-unhealthy-tests') {
      notes.push(
        `The store holds ${FLAKY_PER_STATUS.toLocaleString('en-US')} flaky and ` +
          `${FLAKY_PER_STATUS.toLocaleString('en-US')} broken tests; a page is 100, answered from the ` +
          'serialized page kept until the store changes.',
      );
    }
    const isMet = met(figure, ratio);
    if (!isMet) {
      notes.push(
        `Under the goal: in the same run the fixed-body floors reach ` +
          `${Math.round(rps('node:http')).toLocaleString('en-US')} req/s (node:http) and ` +
          `${Math.round(rps('fastify')).toLocaleString('en-US')} req/s (fastify); the CPU shares above ` +
          'say what dominates the emulator.',
      );
    }
    results.push(
      {
        name: `Emulator throughput: ${endpoint}`,
        figure: Math.round(figure),
        unit: 'req/s',
        floor: Math.round(rps(floor)),
        ratio: ratioOf(figure, rps(floor)),
        goal,
        met: isMet,
        runs: ROUNDS,
        command,
        floorCommand,
        notes: notes.join(' '),
      },
      {
        name: `Emulator p99 latency: ${endpoint}`,
        figure: p99('emulator'),
        unit: 'ms',
        floor: p99(floor),
        ratio: ratioOf(p99('emulator'), p99(floor)),
        goal: '',
        met: null,
        runs: ROUNDS,
        command,
      },
    );
  }
  emitResults(results);
} finally {
  for (const server of servers) await server.stop();
  rmSync(dir, { recursive: true, force: true });
}

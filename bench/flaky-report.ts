// Flaky-tests report: list-unhealthy-tests over 10,000 unhealthy tests (5,000 flaky and 5,000 broken, 100
// pages of 50 for each status) with 20 ms of server latency: the emulator answers every request 20 ms
// after it came in (its own work included), like a distant service. The two statuses are fetched at the
// same time and each one's pages follow one another, so the floor is the longest token chain times the
// latency: 100 x 20 ms. The chain length comes from the emulator in the same run (total_pages of each
// status). The figure is the action's median wall time: `node dist/index.js` as the runner starts it
// when dist/ exists, else run() of src/core/run.ts in this process (`--in-process` forces that); the
// command field says which. In the same rounds, for the notes only: the longest chain walked by the
// cheapest client (node:http, one kept-alive connection), the same chain against a fixed body answered
// after the same latency in this process, and Node's start-up: what the machine costs before the action
// does any work of its own. `--vs <entry>` (lib/result.ts) runs another build of the action in the same
// rounds, for before/after.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseOutputFile, runAction } from '../__tests__/helpers/action-runner.js';
import { example } from '../__tests__/helpers/webhook-examples.js';
import { startFixedLatencyServer } from './lib/fixed-latency-server.js';
import { timeChain } from './lib/http-chain.js';
import { median, timeProcess } from './lib/measure.js';
import { emitResults, ENTRY, progress, QUICK, ratioOf, VERSUS } from './lib/result.js';
import { launchEmulator, postJson, REPO_ROOT } from './lib/servers.js';
import { stepEnvironment } from './lib/step-env.js';

const TOKEN = 'bench-token';
const ORG = 'acme';
const REPO = { host: 'github.com', owner: 'acme', name: 'storefront' };
// --quick: 10 pages per status instead of 100, to prove the benchmark works in seconds.
const TESTS_PER_STATUS = QUICK ? 500 : 5000;
const PAGE_SIZE = 50;
const LATENCY_MS = 20;
const RUNS = QUICK ? 2 : 7;
const GOAL_RATIO = 1.15;
const STATUSES = ['FLAKY', 'BROKEN'] as const;

const useBuilt = existsSync(resolve(REPO_ROOT, ENTRY)) && !process.argv.includes('--in-process');
const emulator = await launchEmulator(TOKEN);
const dir = mkdtempSync(join(tmpdir(), 'bench-flaky-'));
try {
  await postJson(`${new URL(emulator.url).origin}/_emulator/flaky-tests`, TOKEN, {
    latency_ms: LATENCY_MS,
    repositories: [
      {
        repo: REPO,
        org_url_slug: ORG,
        auto_quarantine: true,
        generate: {
          flaky: TESTS_PER_STATUS,
          broken: TESTS_PER_STATUS,
          healthy: TESTS_PER_STATUS / 5,
          seed: 1,
        },
      },
    ],
  });

  // The floor, from the emulator in this run: the longest chain of pages times the added latency.
  const firstPages = await Promise.all(
    STATUSES.map(
      async (status) =>
        (await postJson(`${emulator.url}/flaky-tests/list-unhealthy-tests`, TOKEN, {
          repo: REPO,
          org_url_slug: ORG,
          status,
          page_query: { page_size: PAGE_SIZE, page_token: '' },
        })) as { page: { total_pages: number; total_rows: number } },
    ),
  );
  const chains = firstPages.map((first) => first.page);
  const longestChain = Math.max(...chains.map((page) => page.total_pages));
  const totalTests = chains.reduce((sum, page) => sum + page.total_rows, 0);
  const floor = longestChain * LATENCY_MS;
  progress(`${totalTests} unhealthy tests; longest chain ${longestChain} pages; floor ${floor} ms`);

  const inputs = {
    operation: 'list-unhealthy-tests',
    'api-url': emulator.url,
    'api-token': TOKEN,
    'org-url-slug': ORG,
    'page-size': String(PAGE_SIZE),
  };
  const payload = example('workflow_dispatch');
  const runOnce = useBuilt ? () => runBuilt(ENTRY, inputs, payload) : () => runInProcess(inputs, payload);

  // A page of the emulator's, answered by a server that does nothing else.
  const fixedBody = await startFixedLatencyServer(Buffer.from(JSON.stringify(firstPages[0])), LATENCY_MS);
  const times: number[] = [];
  const bareChains: number[] = [];
  const fixedBodyChains: number[] = [];
  const startUps: number[] = [];
  const versus: number[] = [];
  for (let round = -1; round < RUNS; round++) {
    // The other build goes first in odd rounds, second in even ones.
    const other = VERSUS && round % 2 !== 0 ? (await runBuilt(VERSUS, inputs, payload)).ms : undefined;
    const bare = await bareChain(emulator.url);
    const fixed = await fixedBodyChain(fixedBody.url, longestChain);
    const startUp = useBuilt ? await startUpOnly() : 0;
    const { ms, outputs } = await runOnce();
    const otherMs = other ?? (VERSUS ? (await runBuilt(VERSUS, inputs, payload)).ms : undefined);
    if (round >= 0 && otherMs !== undefined) versus.push(otherMs);
    if (outputs['unhealthy-count'] !== String(totalTests)) {
      throw new Error(
        `the action reported unhealthy-count ${outputs['unhealthy-count'] ?? '(none)'}, not ${totalTests}${useBuilt ? '; dist/ may be stale: run npm run bundle' : ''}`,
      );
    }
    if (round >= 0) {
      times.push(ms);
      bareChains.push(bare);
      fixedBodyChains.push(fixed);
      startUps.push(startUp);
    }
    progress(
      `${round < 0 ? 'warm-up' : `run ${round + 1}`}: ${ms.toFixed(0)} ms (bare chain ${bare.toFixed(0)} ms, fixed body ${fixed.toFixed(0)} ms${useBuilt ? `, start-up ${startUp.toFixed(0)} ms` : ''})`,
    );
  }
  await fixedBody.close();
  if (VERSUS) {
    const pairs = times.map((ms, i) => ms / versus[i]!);
    progress(
      `--vs: ${ENTRY} ${median(times).toFixed(0)} ms (${Math.min(...times).toFixed(0)}-${Math.max(...times).toFixed(0)}), ` +
        `${VERSUS} ${median(versus).toFixed(0)} ms (${Math.min(...versus).toFixed(0)}-${Math.max(...versus).toFixed(0)}); ` +
        `ratio of medians ${(median(times) / median(versus)).toFixed(3)}, median of paired ratios ` +
        `${median(pairs).toFixed(3)} (${Math.min(...pairs).toFixed(2)}-${Math.max(...pairs).toFixed(2)})`,
    );
  }
  const figure = median(times);
  const ratio = ratioOf(figure, floor)!;
  const bare = median(bareChains);
  const startUp = median(startUps);
  const fixed = median(fixedBodyChains);
  /** What the machine takes before the action does any work of its own. */
  const machine = bare + startUp;
  const notes = [
    `${totalTests} tests (${STATUSES.map((s, i) => `${s} ${chains[i]!.total_rows} on ${chains[i]!.total_pages} pages`).join(', ')}), page size ${PAGE_SIZE}; the emulator (its own process) answers each request ${LATENCY_MS} ms after it came in.`,
    `Runs: ${times.map((t) => t.toFixed(0)).join(', ')} ms.`,
    `Medians of the same rounds: the longest chain walked by a bare node:http client (one kept-alive connection) ${bare.toFixed(0)} ms, ${(bare / longestChain).toFixed(1)} ms a page (what loopback HTTP, the emulator and the machine add to the floor; against a fixed page answered ${LATENCY_MS} ms after it came in, by a server in the bench's own process, ${fixed.toFixed(0)} ms)` +
      (useBuilt
        ? `; \`node dist/index.js\` stopping at its first input check ${startUp.toFixed(0)} ms (Node start-up and bundle load).`
        : ' (in-process: no Node start-up or bundle load in the figure).'),
    `Bare chain and start-up together: ${machine.toFixed(0)} ms, ${(machine / floor).toFixed(2)}x the floor; the rest, ${(figure - machine).toFixed(0)} ms, is the action's own work beyond them: the second status's chain, walked at the same time, and each page's tests read, checked and rendered for both report files (JSON and CSV, secrets hidden) while the next page is on its way, on the core the emulator shares; after the last page, the sort by impact, one write of each report file and the summary.`,
  ];
  if (ratio > GOAL_RATIO) {
    notes.push(
      machine / floor > GOAL_RATIO
        ? `Over the goal: bare chain and start-up alone already exceed it (${(floor * GOAL_RATIO).toFixed(0)} ms) before the action does any work of its own.`
        : "Over the goal: the action's own work beyond the bare chain and start-up dominates; see the split above.",
    );
  }
  emitResults({
    name: `Flaky-tests report: ${totalTests.toLocaleString('en-US')} unhealthy tests, ${LATENCY_MS} ms latency`,
    figure,
    unit: 'ms',
    floor,
    ratio,
    goal: `ratio <= ${GOAL_RATIO}`,
    met: ratio <= GOAL_RATIO,
    runs: RUNS,
    command: useBuilt
      ? `node dist/index.js (INPUT_OPERATION=list-unhealthy-tests, page-size ${PAGE_SIZE})`
      : `run() of src/core/run.ts in-process (operation list-unhealthy-tests, page-size ${PAGE_SIZE})`,
    floorCommand: `longest token chain (${longestChain} pages, from total_pages) x ${LATENCY_MS} ms`,
    notes: notes.join(' '),
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
  await emulator.stop();
}

/** `node dist/index.js` with no inputs: it loads the whole bundle, then stops at the first input check. */
async function startUpOnly(): Promise<number> {
  const result = await timeProcess(process.execPath, [ENTRY], {
    cwd: REPO_ROOT,
    env: { GITHUB_OUTPUT: join(dir, 'output'), RUNNER_TEMP: dir },
  });
  // Exit code 2: an input is missing.
  if (result.exitCode !== 2)
    throw new Error(`node dist/index.js without inputs exited ${result.exitCode}, not 2`);
  return result.ms;
}

/** The longest chain walked by the cheapest client: node:http, one kept-alive connection, one page after another. */
function bareChain(url: string): Promise<number> {
  const pageRequest = (token: string) =>
    JSON.stringify({
      repo: REPO,
      org_url_slug: ORG,
      status: 'FLAKY',
      page_query: { page_size: PAGE_SIZE, page_token: token },
    });
  return timeChain(
    `${url}/flaky-tests/list-unhealthy-tests`,
    { 'x-api-token': TOKEN },
    pageRequest(''),
    (answer) => {
      const token = (JSON.parse(answer) as { page: { next_page_token: string } }).page.next_page_token;
      return token ? pageRequest(token) : undefined;
    },
  );
}

/** As many requests as the longest chain, each answered the same page by the fixed-latency server. */
function fixedBodyChain(url: string, pages: number): Promise<number> {
  let sent = 1;
  return timeChain(url, {}, '{}', (answer) => {
    JSON.parse(answer);
    return sent++ < pages ? '{}' : undefined;
  });
}

async function runInProcess(
  inputs: Record<string, string>,
  payload: unknown,
): Promise<{ ms: number; outputs: Record<string, string> }> {
  const started = performance.now();
  const result = await runAction({
    eventName: 'workflow_dispatch',
    payload,
    env: { GITHUB_REPOSITORY: `${REPO.owner}/${REPO.name}` },
    inputs,
  });
  const ms = performance.now() - started;
  if (result.failed) throw new Error(`the action failed: ${result.error}`);
  return { ms, outputs: result.outputs };
}

async function runBuilt(
  entry: string,
  inputs: Record<string, string>,
  payload: unknown,
): Promise<{ ms: number; outputs: Record<string, string> }> {
  const { files, env } = stepEnvironment(dir, {
    eventName: 'workflow_dispatch',
    payload,
    repository: `${REPO.owner}/${REPO.name}`,
    inputs,
  });
  const result = await timeProcess(process.execPath, [entry], { cwd: REPO_ROOT, env });
  if (result.exitCode !== 0) {
    const said = (result.stdout + result.stderr).trim().split('\n').slice(-3).join(' | ');
    throw new Error(`node ${entry} failed (exit ${result.exitCode}): ${said}`);
  }
  return { ms: result.ms, outputs: parseOutputFile(readFileSync(files.output, 'utf8')) };
}

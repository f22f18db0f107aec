// Start-up: `node dist/index.js` doing get-submitted-pull-request for a pull_request event against the
// emulator, as the runner starts it (INPUT_* variables, event, output and summary files), and the CLI
// `node dist/cli/index.js get-submitted-pull-request --json ...` doing the same from a terminal (the
// generic host, inputs as flags and variables), each against the floor: bench/lib/post-once.mjs sending
// the same single POST with node:http. Same Node binary, same emulator, runs interleaved; the figure is
// the median wall time from spawn to exit.
// Two more subjects split the cost for the notes: bare `node -e ""`, and dist/index.js with no inputs
// (it loads the whole bundle, then stops at the first input check).
// A third figure: the bytes of bundle files each run loads (the entry and the chunks it imports),
// recorded by one more run of each with bench/lib/record-loads.mjs preloaded.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { example } from '../__tests__/helpers/webhook-examples.js';
import { interleave, median, timeProcess, type ProcessRun } from './lib/measure.js';
import { emitResults, progress, QUICK, ratioOf } from './lib/result.js';
import { launchEmulator, postJson, REPO_ROOT } from './lib/servers.js';
import { stepEnvironment } from './lib/step-env.js';

const RUNS = QUICK ? 3 : 20;
const GOAL_RATIO = 1.3;
const GOAL_LOADED_BYTES = 700_000;
const TOKEN = 'bench-token';
const NODE = process.execPath;

const payload = example('pull_request', (p) => p.action === 'labeled');
const [owner, name] = payload.repository.full_name.split('/') as [string, string];
const repo = { host: 'github.com', owner, name };
const targetBranch = payload.pull_request.base.ref;
const request = { repo, targetBranch, pr: { number: payload.pull_request.number } };

const emulator = await launchEmulator(TOKEN);
const dir = mkdtempSync(join(tmpdir(), 'bench-startup-'));
try {
  await postJson(`${emulator.url}/createQueue`, TOKEN, { repo, targetBranch });
  await postJson(`${emulator.url}/submitPullRequest`, TOKEN, request);

  const step = stepEnvironment(dir, {
    eventName: 'pull_request',
    payload,
    repository: payload.repository.full_name,
  });
  const { files, env: runnerEnv, reset: freshFiles } = step;
  const actionEnv = {
    ...runnerEnv,
    INPUT_OPERATION: 'get-submitted-pull-request',
    'INPUT_API-URL': emulator.url,
    'INPUT_API-TOKEN': TOKEN,
  };
  const cliArgs = [
    'dist/cli/index.js',
    'get-submitted-pull-request',
    '--json',
    '--repo',
    payload.repository.full_name,
    '--pr-number',
    String(payload.pull_request.number),
    '--target-branch',
    targetBranch,
  ];
  const cliEnv = { PATH: process.env.PATH, MERGE_QUEUE_API_URL: emulator.url, MERGE_QUEUE_API_TOKEN: TOKEN };
  const cliAnswered = (stdout: string) => {
    try {
      return (JSON.parse(stdout) as { outputs: Record<string, string> }).outputs['is-submitted'] === 'true';
    } catch {
      return false;
    }
  };
  const expect = (what: string, result: ProcessRun, ok: boolean) => {
    if (ok) return result.ms;
    const said = (result.stdout + result.stderr).trim().split('\n').slice(-3).join(' | ');
    throw new Error(`${what} did not do its job (exit ${result.exitCode}): ${said}`);
  };

  const samples = await interleave(
    [
      {
        name: 'action',
        run: async () => {
          freshFiles();
          const result = await timeProcess(NODE, ['dist/index.js'], { cwd: REPO_ROOT, env: actionEnv });
          // The PR was found: the action really did the lookup, not just exit 0.
          const answered = /^is-submitted<<.+\ntrue$/m.test(readFileSync(files.output, 'utf8'));
          return expect('node dist/index.js', result, result.exitCode === 0 && answered);
        },
      },
      {
        name: 'cli',
        run: async () => {
          const result = await timeProcess(NODE, cliArgs, { cwd: REPO_ROOT, env: cliEnv });
          return expect(
            'node dist/cli/index.js',
            result,
            result.exitCode === 0 && cliAnswered(result.stdout),
          );
        },
      },
      {
        name: 'floor',
        run: async () => {
          const args = ['bench/lib/post-once.mjs', `${emulator.url}/getSubmittedPullRequest`, TOKEN];
          const result = await timeProcess(NODE, [...args, JSON.stringify(request)], { cwd: REPO_ROOT });
          return expect('bench/lib/post-once.mjs', result, result.exitCode === 0);
        },
      },
      {
        name: 'node',
        run: async () => expect('node -e ""', await timeProcess(NODE, ['-e', '']), true),
      },
      {
        name: 'load',
        run: async () => {
          freshFiles();
          const result = await timeProcess(NODE, ['dist/index.js'], { cwd: REPO_ROOT, env: runnerEnv });
          // Exit code 2: bad input (no operation), after the whole bundle has loaded.
          return expect('node dist/index.js without inputs', result, result.exitCode === 2);
        },
      },
    ],
    RUNS,
    QUICK ? 1 : 2,
  );
  progress(
    `start-up medians (ms): ${[...samples].map(([k, v]) => `${k} ${median(v).toFixed(1)}`).join(', ')}`,
  );

  const action = median(samples.get('action')!);
  const cli = median(samples.get('cli')!);
  const floor = median(samples.get('floor')!);
  const node = median(samples.get('node')!);
  const load = median(samples.get('load')!);
  const ratio = ratioOf(action, floor)!;
  const cliRatio = ratioOf(cli, floor)!;
  const bundleKb = Math.round(readFileSync(join(REPO_ROOT, 'dist/index.js')).length / 1000);
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  const notes = [
    `Medians: Node alone (\`node -e ""\`) ${ms(node)}; the floor's one POST adds ${ms(floor - node)}. ` +
      `The action: loading the ${bundleKb} kB dist/index.js and stopping at its first input check takes ` +
      `${ms(load - node)} over Node alone; the run itself ` +
      `(context, the request, outputs, summary) takes the remaining ${ms(action - load)}.`,
  ];
  if (ratio > GOAL_RATIO) {
    notes.push(
      load - node > action - load
        ? `Over the goal: loading the bundle dominates (${ms(load - node)} of the ${ms(action - node)} ` +
            'the action spends beyond Node alone).'
        : `Over the goal: the run after loading dominates (${ms(action - load)} of the ${ms(action - node)} ` +
            'the action spends beyond Node alone).',
    );
  }

  // The bundle files each run loads: one more run of each, with every module load recorded.
  const loadsFile = join(dir, 'loads.txt');
  const loadedBytes = async (args: string[], env: Record<string, string | undefined>) => {
    writeFileSync(loadsFile, '');
    freshFiles();
    const preload = ['--import', './bench/lib/record-loads.mjs'];
    const result = await timeProcess(NODE, [...preload, ...args], {
      cwd: REPO_ROOT,
      env: { ...env, BENCH_LOADS_FILE: loadsFile },
    });
    expect(`node ${args[0]} with its loads recorded`, result, result.exitCode === 0);
    const files = [...new Set(readFileSync(loadsFile, 'utf8').split('\n').filter(Boolean))]
      .map((url) => fileURLToPath(url))
      .filter((path) => path.startsWith(join(REPO_ROOT, 'dist')));
    const bytes = files.reduce((sum, path) => sum + statSync(path).size, 0);
    const names = files.map((path) => relative(REPO_ROOT, path)).join(', ');
    return { bytes, names };
  };
  const actionLoads = await loadedBytes(['dist/index.js'], actionEnv);
  const cliLoads = await loadedBytes(cliArgs, cliEnv);
  const loadedFigure = Math.max(actionLoads.bytes, cliLoads.bytes);

  emitResults([
    {
      name: 'Start-up: get-submitted-pull-request',
      figure: action,
      unit: 'ms',
      floor,
      ratio,
      goal: `ratio <= ${GOAL_RATIO}`,
      met: ratio <= GOAL_RATIO,
      runs: RUNS,
      command: 'node dist/index.js (INPUT_OPERATION=get-submitted-pull-request, a pull_request event)',
      floorCommand: 'node bench/lib/post-once.mjs <url> <token> <body> (node:http, the same POST)',
      notes: notes.join(' '),
    },
    {
      name: 'Start-up: CLI get-submitted-pull-request',
      figure: cli,
      unit: 'ms',
      floor,
      ratio: cliRatio,
      goal: `ratio <= ${GOAL_RATIO}`,
      met: cliRatio <= GOAL_RATIO,
      runs: RUNS,
      command:
        'node dist/cli/index.js get-submitted-pull-request --json --repo <r> --pr-number <n> --target-branch <b> (generic host)',
      floorCommand: 'node bench/lib/post-once.mjs <url> <token> <body> (node:http, the same POST)',
      notes:
        `Median ${ms(cli)}, ${ms(cli - node)} over Node alone; the action's ${ms(action)}.` +
        (cliRatio > GOAL_RATIO
          ? ` Over the goal: the CLI loads ${Math.round(cliLoads.bytes / 1000)} kB of bundle (${cliLoads.names}).`
          : ''),
    },
    {
      name: 'Bundle loaded by a get-submitted-pull-request run',
      figure: loadedFigure,
      unit: 'B',
      floor: null,
      ratio: null,
      goal: `<= ${GOAL_LOADED_BYTES / 1000} kB`,
      met: loadedFigure <= GOAL_LOADED_BYTES,
      runs: 1,
      command: 'node --import ./bench/lib/record-loads.mjs <the action, then the CLI, as above>',
      notes:
        `The larger of the two. The action loads ${Math.round(actionLoads.bytes / 1000)} kB (${actionLoads.names}); ` +
        `the CLI ${Math.round(cliLoads.bytes / 1000)} kB (${cliLoads.names}). No floor: bench/bundle.ts builds the ` +
        'smallest action of its kind for comparison.',
    },
  ]);
} finally {
  rmSync(dir, { recursive: true, force: true });
  await emulator.stop();
}

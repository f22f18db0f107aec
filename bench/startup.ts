// Start-up: `node dist/index.js` doing get-submitted-pull-request for a pull_request event against the
// emulator, as the runner starts it (INPUT_* variables, event, output and summary files), and the CLI
// `node dist/cli/index.js get-submitted-pull-request --json ...` doing the same from a terminal (the
// generic host, inputs as flags and variables), each against the floor: bench/lib/post-once.mjs sending
// the same single POST with node:http. Same Node binary, same emulator, runs interleaved; the figure is
// the median wall time from spawn to exit.
// Two more subjects split the cost for the notes: bare `node -e ""`, and dist/index.js with no inputs
// (it loads its entry, then stops at the first input check). The bundle files each run loads are in the
// notes; bench/bundle.ts holds them to their goal.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectDone, loadedFiles, prepareGetSubmittedRun } from './lib/get-submitted-run.js';
import { interleave, median, timeProcess } from './lib/measure.js';
import { emitResults, progress, QUICK, ratioOf } from './lib/result.js';
import { REPO_ROOT } from './lib/servers.js';

const RUNS = QUICK ? 3 : 20;
const GOAL_RATIO = 1.3;
const TOKEN = 'bench-token';
const NODE = process.execPath;

const dir = mkdtempSync(join(tmpdir(), 'bench-startup-'));
const lookup = await prepareGetSubmittedRun(dir, TOKEN);
const { emulator, request, actionEnv, runnerEnv, freshFiles, cliArgs, cliEnv } = lookup;
try {
  const samples = await interleave(
    [
      {
        name: 'action',
        run: async () => {
          freshFiles();
          const result = await timeProcess(NODE, ['dist/index.js'], { cwd: REPO_ROOT, env: actionEnv });
          // The PR was found: the action really did the lookup, not just exit 0.
          return expectDone('node dist/index.js', result, result.exitCode === 0 && lookup.actionAnswered());
        },
      },
      {
        name: 'cli',
        run: async () => {
          const result = await timeProcess(NODE, cliArgs, { cwd: REPO_ROOT, env: cliEnv });
          return expectDone(
            'node dist/cli/index.js',
            result,
            result.exitCode === 0 && lookup.cliAnswered(result.stdout),
          );
        },
      },
      {
        name: 'floor',
        run: async () => {
          const args = ['bench/lib/post-once.mjs', `${emulator.url}/getSubmittedPullRequest`, TOKEN];
          const result = await timeProcess(NODE, [...args, JSON.stringify(request)], { cwd: REPO_ROOT });
          return expectDone('bench/lib/post-once.mjs', result, result.exitCode === 0);
        },
      },
      {
        name: 'node',
        run: async () => expectDone('node -e ""', await timeProcess(NODE, ['-e', '']), true),
      },
      {
        name: 'load',
        run: async () => {
          freshFiles();
          const result = await timeProcess(NODE, ['dist/index.js'], { cwd: REPO_ROOT, env: runnerEnv });
          // Exit code 2: bad input (no operation), after its entry has loaded.
          return expectDone('node dist/index.js without inputs', result, result.exitCode === 2);
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
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  const notes = [
    `Medians: Node alone (\`node -e ""\`) ${ms(node)}; the floor's one POST adds ${ms(floor - node)}. ` +
      `The action: loading dist/index.js and stopping at its first input check takes ` +
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
  freshFiles();
  const actionLoads = await loadedFiles(dir, ['dist/index.js'], actionEnv, () => lookup.actionAnswered());
  const cliLoads = await loadedFiles(dir, cliArgs, cliEnv, (result) => lookup.cliAnswered(result.stdout));
  const loaded = (loads: typeof actionLoads) =>
    `${Math.round(loads.bytes / 1000)} kB (${loads.files.map(([name]) => name).join(', ')})`;
  notes.push(`A run loads ${loaded(actionLoads)}.`);

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
        `Median ${ms(cli)}, ${ms(cli - node)} over Node alone; the action's ${ms(action)}. ` +
        `A run loads ${loaded(cliLoads)}.`,
    },
  ]);
} finally {
  rmSync(dir, { recursive: true, force: true });
  await emulator.stop();
}

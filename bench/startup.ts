// Start-up: `node dist/index.js` doing get-submitted-pull-request for a pull_request event against the
// emulator, as the runner starts it (INPUT_* variables, event, output and summary files), and the CLI
// `node dist/cli/index.js get-submitted-pull-request --json ...` doing the same from a terminal (the
// generic host, inputs as flags and variables), each against two floors: the smallest toolkit action
// (bench/lib/minimal-action.mjs, @actions/core and @actions/http-client built with ncc --minify, what most
// actions are) and bench/lib/post-once.mjs sending the same single POST with bare node:http. Same Node
// binary, same emulator, runs interleaved; the figure is the median wall time from spawn to exit.
// One environment for all: every process gets the runner's step environment (PATH, GITHUB_* variables,
// event, output and summary files) plus its own inputs, and nothing of the harness's (timeProcess); the
// CLI gets PATH and its two variables, as from a terminal.
// More subjects split the cost for the notes: bare `node -e ""`; dist/index.js with no inputs (it loads its
// entry, then stops at the first input check); `node dist/cli/index.js --version` (the CLI's entry loaded
// whole); and Node spawning the generic host's `git config` question in the checkout and waiting for it.
// Where a goal is missed, the notes say whether it is within reach of the bundle as it is: its loading
// plus the floor's own POST (and the CLI's git question) against the goal. The bundle files each run
// loads are in the notes; bench/bundle.ts holds them to their goal.
// `--vs <dir>/index.js` (lib/result.ts) runs another build's action and CLI (<dir>/cli/index.js) in the same
// rounds as `--entry`'s (dist/index.js by default), for a before/after pair: both medians and the median of
// the paired ratios on stderr.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildMinimalAction } from './lib/build-minimal-action.js';
import { expectDone, loadedFiles, prepareGetSubmittedRun } from './lib/get-submitted-run.js';
import { interleave, median, percentile, timeProcess } from './lib/measure.js';
import { emitResults, ENTRY, progress, QUICK, ratioOf, VERSUS, type BenchResult } from './lib/result.js';
import { REPO_ROOT } from './lib/servers.js';

const RUNS = QUICK ? 3 : 20;
const GOAL_TOOLKIT = 1.3;
const GOAL_NODE_HTTP = 1.5;
const TOKEN = 'bench-token';
const NODE = process.execPath;
/** Node spawning the generic host's git question (src/hosts/common/git-checkout.ts) and waiting for it. */
const SPAWN_GIT =
  "require('node:child_process').execFile('git', ['config', '--get-regexp', '^remote\\\\..*\\\\.url$'], " +
  "{ env: { PATH: process.env.PATH, LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0' } }, () => {})";
/** A build's CLI, beside its action's entry (dist/index.js -> dist/cli/index.js). */
const cliOf = (entry: string) => join(dirname(entry), 'cli', 'index.js');

const dir = mkdtempSync(join(tmpdir(), 'bench-startup-'));
progress('startup: building the minimal toolkit action with ncc --minify...');
const toolkitEntry = await buildMinimalAction(join(dir, 'toolkit-action'));
const lookup = await prepareGetSubmittedRun(dir, TOKEN);
const { emulator, request, actionEnv, runnerEnv, freshFiles, cliArgs, cliEnv, files } = lookup;
const toolkitEnv = {
  ...runnerEnv,
  'INPUT_API-URL': emulator.url,
  'INPUT_API-TOKEN': TOKEN,
  INPUT_BODY: JSON.stringify(request),
};
try {
  const runAction = (entry: string) => async () => {
    freshFiles();
    const result = await timeProcess(NODE, [entry], { cwd: REPO_ROOT, env: actionEnv });
    // The PR was found and its place in line read (the second request): the lookup was done whole.
    const placed = / at position \d+ of \d+/.test(result.stdout);
    return expectDone(`node ${entry}`, result, result.exitCode === 0 && lookup.actionAnswered() && placed);
  };
  const runCli = (entry: string) => async () => {
    const cli = cliOf(entry);
    const result = await timeProcess(NODE, [cli, ...cliArgs.slice(1)], { cwd: REPO_ROOT, env: cliEnv });
    return expectDone(`node ${cli}`, result, result.exitCode === 0 && lookup.cliAnswered(result.stdout));
  };
  const versus = VERSUS
    ? [
        { name: 'action vs', run: runAction(VERSUS) },
        { name: 'cli vs', run: runCli(VERSUS) },
      ]
    : [];
  const samples = await interleave(
    [
      { name: 'action', run: runAction(ENTRY) },
      { name: 'cli', run: runCli(ENTRY) },
      ...versus,
      {
        name: 'toolkit',
        run: async () => {
          freshFiles();
          const result = await timeProcess(NODE, [toolkitEntry], { cwd: REPO_ROOT, env: toolkitEnv });
          const answered = /"state"/.test(readFileSync(files.output, 'utf8'));
          return expectDone('the minimal toolkit action', result, result.exitCode === 0 && answered);
        },
      },
      {
        name: 'floor',
        run: async () => {
          const args = ['bench/lib/post-once.mjs', `${emulator.url}/getSubmittedPullRequest`, TOKEN];
          const result = await timeProcess(NODE, [...args, JSON.stringify(request)], {
            cwd: REPO_ROOT,
            env: runnerEnv,
          });
          return expectDone('bench/lib/post-once.mjs', result, result.exitCode === 0);
        },
      },
      {
        name: 'node',
        run: async () =>
          expectDone(
            'node -e ""',
            await timeProcess(NODE, ['-e', ''], { cwd: REPO_ROOT, env: runnerEnv }),
            true,
          ),
      },
      {
        name: 'cli load',
        // The CLI's entry loaded whole, then --version: its load alone.
        run: async () => {
          const cli = cliOf(ENTRY);
          const result = await timeProcess(NODE, [cli, '--version'], { cwd: REPO_ROOT, env: cliEnv });
          return expectDone(`node ${cli} --version`, result, result.exitCode === 0);
        },
      },
      {
        name: 'git',
        // What the generic host's question costs: Node spawning git config in the checkout and waiting.
        run: async () => {
          const result = await timeProcess(NODE, ['-e', SPAWN_GIT], { cwd: REPO_ROOT, env: cliEnv });
          return expectDone('node spawning git config', result, result.exitCode === 0);
        },
      },
      {
        name: 'load',
        run: async () => {
          freshFiles();
          const result = await timeProcess(NODE, [ENTRY], { cwd: REPO_ROOT, env: runnerEnv });
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
  if (VERSUS) reportVersus(samples);

  const ms = (value: number) => `${value.toFixed(1)} ms`;
  const spread = (name: string) => {
    const values = samples.get(name)!;
    return `${ms(percentile(values, 0))} to ${ms(percentile(values, 100))}`;
  };
  const action = median(samples.get('action')!);
  const cli = median(samples.get('cli')!);
  const toolkit = median(samples.get('toolkit')!);
  const floor = median(samples.get('floor')!);
  const node = median(samples.get('node')!);
  const load = median(samples.get('load')!);
  const cliLoad = median(samples.get('cli load')!);
  const git = median(samples.get('git')!);
  const environment =
    "Every process got the same environment (the runner's step variables, PATH, its own inputs; nothing " +
    'inherited from the harness).';
  const medians =
    `Medians of ${RUNS} interleaved rounds (range): the action ${ms(action)} (${spread('action')}), the CLI ` +
    `${ms(cli)} (${spread('cli')}), the toolkit action ${ms(toolkit)} (${spread('toolkit')}), the ` +
    `node:http POST ${ms(floor)} (${spread('floor')}), Node alone (\`node -e ""\`) ${ms(node)} ` +
    `(${spread('node')}).`;
  const split =
    `The floor's one POST adds ${ms(floor - node)} to Node alone; the toolkit action ${ms(toolkit - node)}. ` +
    `The action: loading dist/index.js and stopping at its first input check takes ${ms(load - node)} over ` +
    `Node alone; the run itself (context; two requests, the PR and then its queue for the PR's place in ` +
    `line, where the floor sends one; outputs, summary) takes the remaining ` +
    `${ms(action - load)}.`;
  /** What dominates a missed goal; `loading` is that entry's load alone, Node included. */
  const overGoal = (figure: number, loading: number, goalMet: boolean) => {
    if (goalMet) return '';
    return loading - node > figure - loading
      ? ` Over the goal: loading the bundle dominates (${ms(loading - node)} of the ${ms(figure - node)} ` +
          'spent beyond Node alone).'
      : ` Over the goal: the run after loading dominates (${ms(figure - loading)} of the ` +
          `${ms(figure - node)} spent beyond Node alone).`;
  };

  // The bundle files each run loads: one more run of each, with every module load recorded.
  freshFiles();
  const actionLoads = await loadedFiles(dir, ['dist/index.js'], actionEnv, () => lookup.actionAnswered());
  const cliLoads = await loadedFiles(dir, cliArgs, cliEnv, (result) => lookup.cliAnswered(result.stdout));
  const loaded = (loads: typeof actionLoads) =>
    `${Math.round(loads.bytes / 1000)} kB (${loads.files.map(([name]) => name).join(', ')})`;

  const actionCommand =
    'node dist/index.js (INPUT_OPERATION=get-submitted-pull-request, a pull_request event)';
  const cliCommand =
    'node dist/cli/index.js get-submitted-pull-request --json --repo <r> --pr-number <n> --target-branch <b> (generic host)';
  const toolkitCommand =
    'node index.mjs (ncc build bench/lib/minimal-action.mjs --minify: @actions/core, @actions/http-client, the same POST)';
  const nodeHttpCommand = 'node bench/lib/post-once.mjs <url> <token> <body> (node:http, the same POST)';
  const row = (
    name: string,
    [figure, loading]: [number, number],
    command: string,
    against: { floor: number; goal: number; floorCommand: string },
    notes: string,
    /** Said only when the goal is missed: whether the bundle as it is could meet it. */
    reachNote = '',
  ): BenchResult => {
    const ratio = ratioOf(figure, against.floor)!;
    const met = ratio <= against.goal;
    return {
      name,
      figure,
      unit: 'ms',
      floor: against.floor,
      ratio,
      goal: `ratio <= ${against.goal}`,
      met,
      runs: RUNS,
      command,
      floorCommand: against.floorCommand,
      notes: notes + (met ? '' : reachNote) + overGoal(figure, loading, met),
    };
  };
  const toolkitFloor = { floor: toolkit, goal: GOAL_TOOLKIT, floorCommand: toolkitCommand };
  const nodeHttpFloor = { floor, goal: GOAL_NODE_HTTP, floorCommand: nodeHttpCommand };
  const actionNotes = `${environment} ${medians} ${split} A run loads ${loaded(actionLoads)}.`;
  const cliNotes =
    `${ms(cli - node)} over Node alone; the action's ${ms(action)}. A run loads ${loaded(cliLoads)}. ` +
    `Loading dist/cli/index.js (\`--version\`) takes ${ms(cliLoad - node)} over Node alone, the run the ` +
    `remaining ${ms(cli - cliLoad)}; of that, the generic host asks git for the checkout's remote, which ` +
    'names the host of a repository given by --repo without one: Node spawning `git config` and waiting ' +
    `for it takes ${ms(git - node)} over Node alone, in the same rounds.`;
  // The least a run could take with its bundle as it is: Node and its loading, the floor's own POST, and
  // what else it cannot skip (the CLI's git question), before any work of its own.
  const reach = (loading: number, what: string, more = 0, moreWhat = '') => {
    const least = loading + (floor - node) + more;
    const ratio = least / floor;
    return ratio <= GOAL_NODE_HTTP
      ? ''
      : ` Out of reach with this bundle: ${what} (${ms(loading)}, Node included) plus the floor's own POST ` +
          `(${ms(floor - node)})${moreWhat ? ` and ${moreWhat} (${ms(more)})` : ''} already take ` +
          `${ms(least)}, ${ratio.toFixed(2)}x the floor, before the lookup's own work.`;
  };
  emitResults([
    row(
      'Start-up: get-submitted-pull-request, against a minimal toolkit action',
      [action, load],
      actionCommand,
      toolkitFloor,
      actionNotes,
    ),
    row(
      'Start-up: get-submitted-pull-request, against a bare node:http POST',
      [action, load],
      actionCommand,
      nodeHttpFloor,
      `${environment} See the row above.`,
      reach(load, 'loading dist/index.js and stopping at its first input check'),
    ),
    row(
      'Start-up: CLI get-submitted-pull-request, against a minimal toolkit action',
      [cli, cliLoad],
      cliCommand,
      toolkitFloor,
      `${environment} ${cliNotes}`,
    ),
    row(
      'Start-up: CLI get-submitted-pull-request, against a bare node:http POST',
      [cli, cliLoad],
      cliCommand,
      nodeHttpFloor,
      `${environment} ${cliNotes}`,
      reach(cliLoad, 'loading dist/cli/index.js', git - node, 'spawning git'),
    ),
  ]);
} finally {
  rmSync(dir, { recursive: true, force: true });
  await emulator.stop();
}

/** --vs: each subject's medians and ranges, and the median of the paired ratios (--entry / --vs). */
function reportVersus(samples: Map<string, number[]>): void {
  for (const subject of ['action', 'cli']) {
    const now = samples.get(subject)!;
    const before = samples.get(`${subject} vs`)!;
    const pairs = now.map((value, i) => value / before[i]!);
    const range = (values: number[], digits = 1) =>
      `${Math.min(...values).toFixed(digits)}-${Math.max(...values).toFixed(digits)}`;
    progress(
      `--vs ${subject}: ${ENTRY} ${median(now).toFixed(1)} ms (${range(now)}), ${VERSUS} ` +
        `${median(before).toFixed(1)} ms (${range(before)}); ratio of medians ` +
        `${(median(now) / median(before)).toFixed(3)}, median of paired ratios ${median(pairs).toFixed(3)} ` +
        `(${range(pairs, 2)}), ` +
        `${now.length} rounds`,
    );
  }
}

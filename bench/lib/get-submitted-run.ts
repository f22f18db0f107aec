// A get-submitted-pull-request run against the emulator, as start-up and bundle benchmarks make it: the
// emulator (its own process) with a queue and the PR of a pull_request event submitted, the action's step
// environment (INPUT_* variables, event, output and summary files), and the CLI's command line and
// variables for the same lookup from a terminal (the generic host). Also what each run loads: the bundle
// files it imports, recorded by bench/lib/record-loads.mjs.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { example } from '../../__tests__/helpers/webhook-examples.js';
import { timeProcess, type Env, type ProcessRun } from './measure.js';
import { launchEmulator, postJson, REPO_ROOT, type RunningServer } from './servers.js';
import { stepEnvironment, type StepFiles } from './step-env.js';

export interface GetSubmittedRun {
  emulator: RunningServer;
  /** The getSubmittedPullRequest body the floor sends. */
  request: unknown;
  token: string;
  files: StepFiles;
  /** The runner's environment without inputs, and with the operation's. */
  runnerEnv: Env;
  actionEnv: Env;
  /** Empties the step's output and summary files. */
  freshFiles(): void;
  cliArgs: string[];
  cliEnv: Env;
  /** The action found the PR submitted (its output file says so). */
  actionAnswered(): boolean;
  /** The CLI's --json result says the PR is submitted. */
  cliAnswered(stdout: string): boolean;
}

export async function prepareGetSubmittedRun(dir: string, token: string): Promise<GetSubmittedRun> {
  const payload = example('pull_request', (p) => p.action === 'labeled');
  const [owner, name] = payload.repository.full_name.split('/') as [string, string];
  const repo = { host: 'github.com', owner, name };
  const targetBranch = payload.pull_request.base.ref;
  const request = { repo, targetBranch, pr: { number: payload.pull_request.number } };

  const emulator = await launchEmulator(token);
  try {
    await postJson(`${emulator.url}/createQueue`, token, { repo, targetBranch });
    await postJson(`${emulator.url}/submitPullRequest`, token, request);
  } catch (error) {
    await emulator.stop();
    throw error;
  }
  const step = stepEnvironment(dir, {
    eventName: 'pull_request',
    payload,
    repository: payload.repository.full_name,
  });
  return {
    emulator,
    request,
    token,
    files: step.files,
    runnerEnv: step.env,
    actionEnv: {
      ...step.env,
      INPUT_OPERATION: 'get-submitted-pull-request',
      'INPUT_API-URL': emulator.url,
      'INPUT_API-TOKEN': token,
    },
    freshFiles: step.reset,
    cliArgs: [
      'dist/cli/index.js',
      'get-submitted-pull-request',
      '--json',
      '--repo',
      payload.repository.full_name,
      '--pr-number',
      String(payload.pull_request.number),
      '--target-branch',
      targetBranch,
    ],
    cliEnv: { MERGE_QUEUE_API_URL: emulator.url, MERGE_QUEUE_API_TOKEN: token },
    actionAnswered: () => /^is-submitted<<.+\ntrue$/m.test(readFileSync(step.files.output, 'utf8')),
    cliAnswered: (stdout) => {
      try {
        return (JSON.parse(stdout) as { outputs: Record<string, unknown> }).outputs['is-submitted'] === true;
      } catch {
        return false;
      }
    },
  };
}

/** Throws with the end of what the process said unless it did its job; else its wall time. */
export function expectDone(what: string, result: ProcessRun, ok: boolean): number {
  if (ok) return result.ms;
  const said = (result.stdout + result.stderr).trim().split('\n').slice(-3).join(' | ');
  throw new Error(`${what} did not do its job (exit ${result.exitCode}): ${said}`);
}

export interface LoadedFiles {
  /** Bytes of the bundle files the run loaded. */
  bytes: number;
  /** Each file (relative to the repository) and its bytes, in load order. */
  files: [string, number][];
}

/**
 * The files of dist/ that one run of `node <args>` loads (the entry and every chunk it imports), recorded
 * by bench/lib/record-loads.mjs preloaded; the run must exit 0 and `done` must hold after it.
 */
export async function loadedFiles(
  dir: string,
  args: string[],
  env: Env,
  done: (result: ProcessRun) => boolean,
): Promise<LoadedFiles> {
  const loadsFile = join(dir, 'loads.txt');
  writeFileSync(loadsFile, '');
  const preload = ['--import', './bench/lib/record-loads.mjs'];
  const result = await timeProcess(process.execPath, [...preload, ...args], {
    cwd: REPO_ROOT,
    env: { ...env, BENCH_LOADS_FILE: loadsFile },
  });
  expectDone(`node ${args[0]} with its loads recorded`, result, result.exitCode === 0 && done(result));
  const files = [...new Set(readFileSync(loadsFile, 'utf8').split('\n').filter(Boolean))]
    .map((url) => fileURLToPath(url))
    .filter((path) => path.startsWith(join(REPO_ROOT, 'dist')))
    .map((path): [string, number] => [relative(REPO_ROOT, path), statSync(path).size]);
  return { bytes: files.reduce((sum, [, bytes]) => sum + bytes, 0), files };
}

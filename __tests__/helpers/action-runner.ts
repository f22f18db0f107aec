// Runs the action the way the runner does: inputs as INPUT_* variables, the event payload in a file,
// outputs and the job summary in files. In-process (run() of src/core/run.ts) for speed, or the built
// dist/index.js in a child process.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../../src/core/clock.js';
import { run } from '../../src/core/run.js';
import { githubActionsHost } from '../../src/hosts/github-actions/host.js';

export interface ActionRun {
  outputs: Record<string, string>;
  summary: string;
  /** Everything the action wrote to stdout (the log the runner shows). */
  log: string;
  failed: boolean;
  /** The message of the ::error:: line when failed. */
  error: string;
}

/** A run that ended: with the exit code its process ends with (src/core/failure.ts EXIT_CODES). */
export interface ExitedRun extends ActionRun {
  exitCode: number;
}

export interface RunOptions {
  inputs: Record<string, string>;
  eventName?: string;
  payload?: unknown;
  env?: Record<string, string>;
  /** No GITHUB_STEP_SUMMARY, as on a runner without one. */
  noSummaryFile?: boolean;
  /** In-process only: the clock the run waits on (see virtual-clock.ts). */
  clock?: Clock;
}

function prepare(options: RunOptions) {
  const dir = mkdtempSync(join(tmpdir(), 'mqa-run-'));
  const files = {
    output: join(dir, 'output'),
    summary: join(dir, 'summary.md'),
    event: join(dir, 'event.json'),
  };
  writeFileSync(files.output, '');
  writeFileSync(files.summary, '');
  writeFileSync(files.event, JSON.stringify(options.payload ?? {}));
  const env: Record<string, string> = {
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: options.eventName ?? 'workflow_dispatch',
    GITHUB_EVENT_PATH: files.event,
    GITHUB_OUTPUT: files.output,
    GITHUB_REPOSITORY: 'octo-org/octo-repo',
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_API_URL: 'https://api.github.com',
    GITHUB_RUN_ID: '4242',
    GITHUB_REF: 'refs/heads/main',
    RUNNER_TEMP: dir,
    ...(options.noSummaryFile ? {} : { GITHUB_STEP_SUMMARY: files.summary }),
    ...options.env,
  };
  for (const [name, value] of Object.entries(options.inputs)) {
    env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value;
  }
  return { dir, files, env };
}

function collect(
  dir: string,
  files: { output: string; summary: string },
  log: string,
  exitCode: number,
): ExitedRun {
  const outputs = parseOutputFile(readFileSync(files.output, 'utf8'));
  const summary = readFileSync(files.summary, 'utf8');
  rmSync(dir, { recursive: true, force: true });
  const error = log.split('\n').find((line) => /^::error( [^:]*)?::/.test(line)) ?? '';
  return {
    outputs,
    summary,
    log,
    failed: exitCode !== 0 || error !== '',
    error: error.replace(/^::error( [^:]*)?::/, ''),
    exitCode,
  };
}

/** Runs src/core/run.ts in this process on the GitHub Actions host, with stdout captured for the run. */
export async function runAction(options: RunOptions): Promise<ExitedRun> {
  const { dir, files, env } = prepare(options);
  const chunks: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string | Uint8Array) => {
    chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  }) as typeof process.stdout.write;
  let exitCode: number;
  try {
    ({ exitCode } = await run(githubActionsHost({ PATH: process.env.PATH, ...env }, process.cwd()), {
      clock: options.clock,
    }));
  } finally {
    process.stdout.write = write;
  }
  return collect(dir, files, chunks.join(''), exitCode);
}

/** Runs the built dist/index.js with `node` (or ACTION_NODE), as the runner does. */
export function runBuiltAction(options: RunOptions & { node?: string }): Promise<ExitedRun> {
  const { dir, files, env } = prepare(options);
  const node = options.node ?? process.env.ACTION_NODE ?? process.execPath;
  return new Promise((resolve) => {
    execFile(
      node,
      ['dist/index.js'],
      { env: { PATH: process.env.PATH, ...env }, timeout: 120_000 },
      (error, stdout, stderr) => {
        const exitCode = error ? Number((error as { code?: number }).code ?? 1) : 0;
        resolve(collect(dir, files, stdout + stderr, exitCode));
      },
    );
  });
}

/** Parses the GITHUB_OUTPUT file format (`name<<DELIMITER\nvalue\nDELIMITER`). */
export function parseOutputFile(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const match = /^([^<=]+)<<(.+)$/.exec(lines[i]!);
    if (!match) continue;
    const [, name, delimiter] = match;
    const value: string[] = [];
    for (i++; i < lines.length && lines[i] !== delimiter; i++) value.push(lines[i]!);
    outputs[name!] = value.join('\n');
  }
  return outputs;
}

// Measuring helpers shared by the benchmarks: wall time of a child process, interleaved runs of several
// subjects, medians and percentiles, and a description of the machine.
// No measured process inherits the harness's environment: each gets BASE_ENV plus what its job needs.
// (A variable such as NODE_EXTRA_CA_CERTS, set on many machines, makes every Node start load extra
// certificates, about 28 ms here; a floor inheriting it while the action does not flatters the action.)
import { spawn, type SpawnOptions } from 'node:child_process';
import { cpus, freemem, loadavg, platform, release, totalmem } from 'node:os';

export interface ProcessRun {
  /** From spawn until the process exited, in milliseconds. */
  ms: number;
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

export type Env = Record<string, string | undefined>;

/** What every measured process and every server gets from the harness's environment: PATH, nothing else. */
export const BASE_ENV: Readonly<Env> = Object.freeze({ PATH: process.env.PATH });

/** BASE_ENV with `env` on top: the whole environment of a process the benchmarks start. */
export function benchEnv(env: Env = {}): Env {
  return { ...BASE_ENV, ...env };
}

/** Runs a command to its end and times it from spawn to exit, in benchEnv(options.env). */
export function timeProcess(
  command: string,
  args: string[],
  options: { env?: Env; cwd?: SpawnOptions['cwd'] } = {},
): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const env = benchEnv(options.env);
    const started = process.hrtime.bigint();
    const child = spawn(command, args, { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (exitCode) => {
      resolve({
        ms: Number(process.hrtime.bigint() - started) / 1e6,
        exitCode,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      });
    });
  });
}

export interface Subject<T> {
  name: string;
  /** One run; returns its measurement. */
  run: () => Promise<T>;
}

/**
 * Runs every subject `runs` times, interleaved, so that whatever drifts on the machine (caches, other
 * load, thermal state) falls on all of them alike. Each round starts at a different subject, rotating,
 * so that none always goes first. `warmup` rounds run first and are not kept.
 */
export async function interleave<T>(
  subjects: Subject<T>[],
  runs: number,
  warmup = 1,
): Promise<Map<string, T[]>> {
  const samples = new Map<string, T[]>(subjects.map((s) => [s.name, []]));
  for (let round = -warmup; round < runs; round++) {
    const offset = ((round % subjects.length) + subjects.length) % subjects.length;
    for (let i = 0; i < subjects.length; i++) {
      const subject = subjects[(i + offset) % subjects.length]!;
      const value = await subject.run();
      if (round >= 0) samples.get(subject.name)!.push(value);
    }
  }
  return samples;
}

export function median(values: number[]): number {
  return percentile(values, 50);
}

/** The p-th percentile (0..100), interpolating between the closest ranks. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) throw new Error('percentile of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (rank - low);
}

export interface Machine {
  cores: number;
  cpu: string;
  memoryGiB: number;
  freeMemoryGiB: number;
  /** The 1-minute load average when the run started: other work on the machine skews every figure. */
  loadAverage: number;
  node: string;
  os: string;
  date: string;
}

export function describeMachine(): Machine {
  const cpuList = cpus();
  return {
    cores: cpuList.length,
    cpu: cpuList[0]?.model.trim() ?? 'unknown',
    memoryGiB: round(totalmem() / 2 ** 30, 1),
    freeMemoryGiB: round(freemem() / 2 ** 30, 1),
    loadAverage: round(loadavg()[0] ?? 0, 2),
    node: process.version,
    os: `${platform()} ${release()}`,
    date: new Date().toISOString(),
  };
}

export function round(value: number, digits = 0): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

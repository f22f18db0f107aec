// Servers a benchmark runs in their own processes: the emulator (as `npm run emulator` starts it) and the
// floors. A separate process keeps the load generator and the server off one event loop.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { benchEnv } from './measure.js';
import { progress } from './result.js';

export interface RunningServer {
  /** The URL the server printed, e.g. http://127.0.0.1:41234/v1 for the emulator. */
  url: string;
  pid: number;
  /** Everything the server wrote to stderr so far (for a failure message). */
  stderr: () => string;
  stop: () => Promise<void>;
}

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Starts `command args` and waits until it prints a URL on stdout. Fails with the server's own words
 * when it exits first or prints no URL within `timeoutMs`.
 */
export function launchServer(
  label: string,
  command: string,
  args: string[],
  timeoutMs = 60_000,
  stopSignal: NodeJS.Signals = 'SIGTERM',
  cwd = REPO_ROOT,
): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: benchEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let settled = false;
    const exited = new Promise<void>((done) => child.on('exit', () => done()));
    const fail = (why: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      const said = (stderr || stdout).trim().split('\n').slice(-3).join(' | ');
      reject(new Error(`${label} ${why}${said ? `: ${said}` : ''}`));
    };
    const timer = setTimeout(() => fail(`printed no URL within ${timeoutMs / 1000} s`), timeoutMs);
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const url = /https?:\/\/[^\s'"]+/.exec(stdout)?.[0];
      if (!url || settled) return;
      settled = true;
      clearTimeout(timer);
      // Keep draining the pipes so that a chatty server never blocks on a full pipe.
      child.stdout.resume();
      resolve({
        url: url.replace(/\/$/, ''),
        pid: child.pid!,
        stderr: () => stderr,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill(stopSignal);
          await exited;
        },
      });
    });
    child.on('error', (error) => fail(`could not start: ${error.message}`));
    child.on('exit', (code, signal) => fail(`exited (${signal ?? `code ${code}`}) before printing its URL`));
  });
}

/**
 * The emulator as `npm run emulator -- --port 0 --token <token>` runs it, minus npm's own process.
 * `nodeArgs` go to Node itself (e.g. --cpu-prof); `root` is the checkout whose emulator runs (another one
 * for a before/after comparison, with its own node_modules).
 */
export function launchEmulator(
  token: string,
  nodeArgs: string[] = [],
  root = REPO_ROOT,
): Promise<RunningServer> {
  const profiled = nodeArgs.includes('--cpu-prof');
  return launchServer(
    'the emulator',
    process.execPath,
    [
      ...nodeArgs,
      ...(profiled ? ['--import', './bench/lib/exit-on-sigusr2.mjs'] : []),
      '--import',
      'tsx',
      'emulator/cli.ts',
      '--port',
      '0',
      '--token',
      token,
    ],
    undefined,
    profiled ? 'SIGUSR2' : 'SIGTERM',
    root,
  );
}

/**
 * POSTs JSON and returns the parsed answer; throws one line when the status is not 2xx. A connection the
 * server closed while it sat idle between two benchmarks' calls is tried once more on a new one (every
 * call here sets or reads the emulator's state, so sending it twice does no harm).
 */
export async function postJson(url: string, token: string, body: unknown): Promise<unknown> {
  const send = () =>
    fetch(url, {
      method: 'POST',
      headers: { 'x-api-token': token, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const response = await send().catch((error: Error) => {
    const cause = (error.cause as Error | undefined)?.message;
    progress(`POST ${url}: ${error.message}${cause ? ` (${cause})` : ''}; trying once more`);
    return send();
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${url} answered ${response.status}: ${text.slice(0, 200)}`);
  return text ? (JSON.parse(text) as unknown) : undefined;
}

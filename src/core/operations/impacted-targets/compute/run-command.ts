// Runs a program without a shell (arguments are passed as they are: nothing a user wrote is ever
// interpreted by a shell), with a timeout and a cap on what it may print.
import { execFile } from 'node:child_process';

export interface CommandResult {
  exitCode: number;
  stdout: Buffer;
  stderr: string;
}

export interface CommandOptions {
  cwd: string;
  timeoutMs: number;
  maxOutputBytes: number;
  stdin?: string;
  /** Leave the action's inputs (the token among them) out of the program's environment. */
  withoutInputs?: boolean;
  /** Ends the program when its answer is no longer wanted. */
  signal?: AbortSignal;
}

/** Why a command could not do its job: said in one line that names the command. */
export class CommandError extends Error {}

/** Resolves with the exit code (non-zero is not an error); rejects when it cannot start, times out or prints too much. */
export function runCommand(
  program: string,
  args: readonly string[],
  options: CommandOptions,
): Promise<CommandResult> {
  const shown = [program, ...args].join(' ');
  return new Promise((resolve, reject) => {
    const child = execFile(
      program,
      args,
      {
        cwd: options.cwd,
        timeout: options.timeoutMs,
        maxBuffer: options.maxOutputBytes,
        encoding: 'buffer',
        windowsHide: true,
        env: options.withoutInputs ? environmentWithoutInputs() : undefined,
        signal: options.signal,
      },
      (error, stdout, stderr) => {
        const stderrText = stderr.toString('utf8').trim();
        if (!error) return resolve({ exitCode: 0, stdout, stderr: stderrText });
        const failure = error as NodeJS.ErrnoException & {
          code?: unknown;
          killed?: boolean;
          signal?: string;
        };
        if (failure.code === 'ENOENT') {
          return reject(new CommandError(`\`${program}\` was not found (is it installed and on PATH?)`));
        }
        if (failure.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') {
          return reject(new CommandError(`\`${shown}\` printed more than ${options.maxOutputBytes} bytes`));
        }
        if (failure.killed || failure.signal) {
          return reject(
            new CommandError(`\`${shown}\` did not finish within ${Math.round(options.timeoutMs / 1000)} s`),
          );
        }
        if (typeof failure.code === 'number')
          return resolve({ exitCode: failure.code, stdout, stderr: stderrText });
        reject(new CommandError(`\`${shown}\` could not run (${failure.message})`));
      },
    );
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(options.stdin ?? '');
  });
}

/**
 * This process's environment without the action's inputs: a runner passes every input (api-token,
 * github-token) as INPUT_<NAME>, the CLI as MERGE_QUEUE_<NAME>, and a user's program has no use for them.
 */
function environmentWithoutInputs(): NodeJS.ProcessEnv {
  // The one place the core reads the environment: to keep the secrets in it away from a child process.
  // eslint-disable-next-line no-restricted-properties
  const env = { ...process.env };
  for (const name of Object.keys(env)) {
    if (/^(INPUT_|MERGE_QUEUE_)/i.test(name)) delete env[name];
  }
  return env;
}

/** The last line of what a failed command said, cut short, for a one-line message. */
export function lastLine(text: string): string {
  const line = text.trim().split('\n').pop()?.trim() ?? '';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

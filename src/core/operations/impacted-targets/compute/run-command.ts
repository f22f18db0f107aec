// Runs a program without a shell (arguments are passed as they are: nothing a user wrote is ever
// interpreted by a shell), with a timeout, a cap on what it may print, and an environment without our
// inputs and secrets (child-environment.ts).
import { execFile } from 'node:child_process';
import { childEnvironment } from '../../../child-environment.js';

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
        env: childEnvironment(processEnvironment()),
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
 * This process's environment, for childEnvironment to take our inputs and secrets out of: the one place
 * the core reads it, as a program it starts needs PATH, HOME and the like.
 */
function processEnvironment(): NodeJS.ProcessEnv {
  // eslint-disable-next-line no-restricted-properties
  return process.env;
}

/** Whether git is pointed at another repository than the one its working directory is in. */
export function gitLocationOverridden(): boolean {
  const env = processEnvironment();
  return Boolean(env.GIT_DIR || env.GIT_COMMON_DIR || env.GIT_WORK_TREE);
}

/** The last line of what a failed command said, cut short, for a one-line message. */
export function lastLine(text: string): string {
  const line = text.trim().split('\n').pop()?.trim() ?? '';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

// Runs a script or program in a child process with exactly the environment given (plus PATH), and
// answers its exit code and output, whatever the code.
import { execFile } from 'node:child_process';

export interface ScriptRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function runScript(
  file: string,
  args: string[],
  env: Record<string, string>,
  options: { cwd?: string; timeoutMs?: number } = {},
): Promise<ScriptRun> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      {
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...env },
        cwd: options.cwd,
        timeout: options.timeoutMs ?? 120_000,
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') return reject(error);
        resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
      },
    );
  });
}

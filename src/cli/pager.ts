// Long help on a terminal goes through a pager, as git's and gh's does: $PAGER (run by the shell, so it
// may carry options), else `less -FRX` (quits at once when the page fits, keeps colours, leaves the text
// on the screen). Only when stdout is a terminal and this is no CI job: a pipe, a file or a CI log gets
// the text as it is. A pager that cannot start leaves the text printed plainly.
import { spawn } from 'node:child_process';
import type { Environment } from '../hosts/common/pipeline-context.js';

export interface PageTarget {
  env: Environment;
  stdout: { write(text: string): unknown; isTTY?: boolean };
}

/** Whether a page shown to `target` goes through a pager. */
export function pagesOn(target: PageTarget): boolean {
  if (target.stdout.isTTY !== true) return false;
  if (target.env.CI && target.env.CI !== 'false') return false;
  if (target.env.TERM === 'dumb') return false;
  const pager = target.env.PAGER;
  return pager === undefined || !['', 'cat'].includes(pager.trim());
}

/** Shows `text` through the pager on the terminal this process writes to; resolves when it exits. */
export function pageOnTerminal(text: string, env: Environment): Promise<void> {
  const pager = env.PAGER?.trim();
  const child = pager
    ? spawn('/bin/sh', ['-c', pager], {
        stdio: ['pipe', 'inherit', 'inherit'],
        env: env as NodeJS.ProcessEnv,
      })
    : spawn('less', ['-FRX'], { stdio: ['pipe', 'inherit', 'inherit'], env: env as NodeJS.ProcessEnv });
  return new Promise((resolve) => {
    child.on('error', () => {
      process.stdout.write(text);
      resolve();
    });
    child.on('close', () => resolve());
    // A reader who quits before the end closes the pipe: that is no error.
    child.stdin.on('error', () => undefined);
    child.stdin.end(text);
  });
}

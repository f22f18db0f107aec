// What a local checkout says about its repository, for a laptop (the generic host): the repository from
// the `origin` remote (or the only remote), the default branch from what git recorded of the remote's HEAD.
// git runs with no variable of ours in its environment, and nothing here ever shows the remote's URL,
// which may hold a token.
import { execFile } from 'node:child_process';
import type { RepoRef } from '../../core/context.js';
import type { Environment } from './pipeline-context.js';
import { parseRemoteUrl } from './remote-url.js';

export interface CheckoutFacts {
  remote: string;
  repo: RepoRef;
  /** The remote's default branch as git recorded it (refs/remotes/<remote>/HEAD), if it did. */
  defaultBranch?: string;
}

/** The variables git may need to find the repository and its config; everything else stays out. */
const GIT_VARIABLES =
  /^(PATH|HOME|USERPROFILE|SYSTEMROOT|XDG_CONFIG_HOME|GIT_(DIR|WORK_TREE|CEILING_DIRECTORIES|CONFIG_NOSYSTEM|CONFIG_GLOBAL|DISCOVERY_ACROSS_FILESYSTEM))$/i;

export function gitEnvironment(env: Environment): Record<string, string> {
  const kept = Object.entries(env).filter(
    (entry): entry is [string, string] => entry[1] !== undefined && GIT_VARIABLES.test(entry[0]),
  );
  return { ...Object.fromEntries(kept), LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0' };
}

function git(args: string[], cwd: string, env: Environment): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(
      'git',
      args,
      { cwd, env: gitEnvironment(env), timeout: 10_000, maxBuffer: 64 * 1024 },
      (error, stdout) => resolve(error ? undefined : String(stdout)),
    );
  });
}

/** The checkout's repository, or undefined when cwd is not a git checkout with a remote naming one. */
export async function readCheckout(cwd: string, env: Environment): Promise<CheckoutFacts | undefined> {
  const listed = await git(['config', '--get-regexp', '^remote\\..*\\.url$'], cwd, env);
  if (!listed) return undefined;
  const remotes = new Map<string, string>();
  for (const line of listed.split('\n')) {
    const match = /^remote\.(.+)\.url (.+)$/.exec(line.trim());
    if (match && !remotes.has(match[1]!)) remotes.set(match[1]!, match[2]!);
  }
  const remote = remotes.has('origin') ? 'origin' : remotes.size === 1 ? [...remotes.keys()][0]! : undefined;
  const repo = remote ? parseRemoteUrl(remotes.get(remote)) : undefined;
  if (!remote || !repo) return undefined;
  const head = await git(['symbolic-ref', '--quiet', `refs/remotes/${remote}/HEAD`], cwd, env);
  const defaultBranch = head?.trim().replace(`refs/remotes/${remote}/`, '') || undefined;
  return { remote, repo, defaultBranch };
}

// Real git repositories made in a test: a bare "origin", a working clone with commits and branches, and
// shallow clones of it, driven by the git binary (no shell).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const IDENTITY = [
  '-c',
  'user.name=Test',
  '-c',
  'user.email=test@example.com',
  '-c',
  'init.defaultBranch=main',
  '-c',
  'commit.gpgsign=false',
];

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', [...IDENTITY, ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

export class GitRepo {
  constructor(readonly dir: string) {}

  write(files: Record<string, string>): this {
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(this.dir, path)), { recursive: true });
      writeFileSync(join(this.dir, path), content);
    }
    return this;
  }

  commit(message: string, files: Record<string, string> = {}): string {
    this.write(files);
    git(this.dir, 'add', '-A');
    git(this.dir, 'commit', '--quiet', '--allow-empty', '-m', message);
    return this.head();
  }

  head(): string {
    return git(this.dir, 'rev-parse', 'HEAD');
  }

  git(...args: string[]): string {
    return git(this.dir, ...args);
  }
}

/** A temporary directory removed by the returned cleanup. */
export function tempDir(prefix: string): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A new repository at `dir` with one commit on main holding `files`. */
export function newRepo(dir: string, files: Record<string, string>): GitRepo {
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '--quiet', '-b', 'main');
  const repo = new GitRepo(dir);
  repo.commit('initial', files);
  return repo;
}

/** A bare clone of `source` to act as origin, and a clone of it at `dir` (shallow when depth is given). */
export function cloneOf(
  source: GitRepo,
  dir: string,
  options: { depth?: number; branch?: string } = {},
): GitRepo {
  const args = ['clone', '--quiet', '--no-local'];
  if (options.depth) args.push(`--depth=${options.depth}`);
  if (options.branch) args.push('--branch', options.branch, '--single-branch');
  git(dirname(dir), ...args, `file://${source.dir}`, dir);
  return new GitRepo(dir);
}

/**
 * A pull request's checkout under `parent`: a clone of a repository whose main holds `base`, checked out
 * at a feature branch that changes `changed`, as a CI job checks out the PR's head.
 */
export function pullRequestCheckout(
  parent: string,
  base: Record<string, string>,
  changed: Record<string, string>,
): string {
  const dir = mkdtempSync(join(parent, 'pr-'));
  const origin = newRepo(join(dir, 'origin'), base);
  origin.git('checkout', '--quiet', '-b', 'feature');
  const head = origin.commit('change', changed);
  origin.git('checkout', '--quiet', 'main');
  const clone = cloneOf(origin, join(dir, 'clone'));
  clone.git('checkout', '--quiet', head);
  return clone.dir;
}

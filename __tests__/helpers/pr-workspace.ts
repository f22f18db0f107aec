// A CI job's checkout of a pull request: a git clone whose origin (a bare repository beside it) has
// main, checked out at the PR's branch with one commit that changes svc/api/, so a job can fetch the
// target branch from origin and diff against it as the examples do. `files` are added to main's commit.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git, GitRepo } from './git-repo.js';

export interface PullRequestWorkspace {
  /** The folder holding origin.git and the checkout: other files of the test can go here too. */
  parent: string;
  checkout: GitRepo;
  /** The PR's head commit. */
  headSha: string;
  remove(): void;
}

export function pullRequestWorkspace(
  branch = 'feature/faster-api',
  files: Record<string, string> = {},
): PullRequestWorkspace {
  const parent = mkdtempSync(join(tmpdir(), 'mqa-pr-workspace-'));
  git(parent, 'init', '-q', '--bare', 'origin.git');
  git(parent, 'init', '-q', '-b', 'main', 'checkout');
  const checkout = new GitRepo(join(parent, 'checkout'));
  checkout.commit('base', { 'svc/api/handler.txt': 'v1\n', 'lib/gears.txt': 'v1\n', ...files });
  checkout.git('remote', 'add', 'origin', join(parent, 'origin.git'));
  checkout.git('push', '-q', 'origin', 'HEAD:refs/heads/main');
  checkout.git('checkout', '-q', '-b', branch);
  const headSha = checkout.commit('faster api', { 'svc/api/handler.txt': 'v2\n' });
  return { parent, checkout, headSha, remove: () => rmSync(parent, { recursive: true, force: true }) };
}

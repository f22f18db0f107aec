// Which host runs: each detected by its own variable, the first match winning, --host or
// MERGE_QUEUE_HOST forcing one; and the generic host, whose context is the TRUNK_* variables, else a laptop's
// checkout: its git remote and the remote's default branch.
import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '../../src/core/errors.js';
import { detectHost } from '../../src/hosts/detect.js';
import { createHost } from '../../src/hosts/create.js';
import { contextFailure, contextOf, fixtureHost, NEEDS } from '../helpers/host-fixture.js';

describe('detectHost', () => {
  it.each([
    [{ GITHUB_ACTIONS: 'true' }, 'github-actions'],
    [{ GITLAB_CI: 'true' }, 'gitlab-ci'],
    [{ BUILDKITE: 'true' }, 'buildkite'],
    [{ CIRCLECI: 'true' }, 'circleci'],
    [{ JENKINS_URL: 'https://jenkins.example.com/' }, 'jenkins'],
    [{ CI: 'true' }, 'generic'],
    [{ GITHUB_ACTIONS: 'false', BUILDKITE: 'true' }, 'buildkite'],
  ])('%j -> %s', (env, name) => {
    expect(detectHost(env).name).toBe(name);
  });

  it('takes the first match when several CIs are named (a Jenkins agent running a GitLab job)', () => {
    expect(detectHost({ JENKINS_URL: 'https://j/', GITLAB_CI: 'true' })).toEqual({
      name: 'gitlab-ci',
      reason: 'detected by GITLAB_CI=true',
    });
  });

  it('is forced by --host or MERGE_QUEUE_HOST, and refuses an unknown name with the closest one', () => {
    expect(detectHost({ GITLAB_CI: 'true' }, { value: 'Generic', source: '--host' }).name).toBe('generic');
    expect(() => detectHost({}, { value: 'circle', source: 'MERGE_QUEUE_HOST' })).toThrow(
      new InputError(
        'host',
        '"circle" (from MERGE_QUEUE_HOST) is not a host',
        'Did you mean circleci? Use one of: github-actions, gitlab-ci, buildkite, circleci, jenkins, generic.',
      ),
    );
  });
});

describe('generic host', () => {
  const overrides = {
    TRUNK_PR_NUMBER: '15',
    TRUNK_REPO_HEAD_SHA: 'ABCDEF0123456789ABCDEF0123456789ABCDEF01',
    TRUNK_REPO_HEAD_BRANCH: 'feature/x',
    TRUNK_REPO_URL: 'https://ghe.example.com/platform/api.git',
    TRUNK_TARGET_BRANCH: 'main',
  };

  it('reads the context from the TRUNK_* variables', async () => {
    expect(await contextOf('generic', overrides, NEEDS.prAndHead)).toMatchObject({
      repo: { host: 'ghe.example.com', owner: 'platform', name: 'api' },
      prNumber: 15,
      headSha: 'abcdef0123456789abcdef0123456789abcdef01',
      targetBranch: 'main',
      isMergeQueueTestRun: false,
      trigger: 'generic',
    });
  });

  it('recognises a merge-queue branch in TRUNK_REPO_HEAD_BRANCH, on GitHub merge groups too', async () => {
    const group = {
      ...overrides,
      TRUNK_PR_NUMBER: '',
      TRUNK_TARGET_BRANCH: '',
      TRUNK_REPO_HEAD_BRANCH: 'gh-readonly-queue/release/1.x/pr-15-0123abcd',
    };
    expect(await contextOf('generic', group)).toMatchObject({
      prNumber: 15,
      targetBranch: 'release/1.x',
      isMergeQueueTestRun: false,
    });
  });

  it('says which variable is missing or wrong, and which input replaces it', async () => {
    expect(await contextFailure('generic', {})).toBe(
      'Cannot tell the repository: TRUNK_REPO_URL is not set; set the repo input (owner/name) or TRUNK_REPO_URL.',
    );
    expect(
      await contextFailure('generic', { ...overrides, TRUNK_REPO_HEAD_SHA: 'abc123' }, NEEDS.prAndHead),
    ).toBe('TRUNK_REPO_HEAD_SHA "abc123" is not a full commit sha; fix it, or set the pr-sha input.');
    expect(await contextFailure('generic', { ...overrides, TRUNK_TARGET_BRANCH: '' })).toBe(
      'Cannot tell the target branch of PR #15: TRUNK_TARGET_BRANCH is not set and no github-token was given to look up PR #15; set the target-branch input.',
    );
  });

  it('writes outputs as one JSON object, rewritten whole, and appends the summary', async () => {
    const { host, dir } = await fixtureHost('generic', overrides, {
      files: { outputs: 'out.json', summary: 'summary.md' },
    });
    await host.setOutputs({ repo: 'platform/api', 'pr-number': '15' });
    await host.setOutputs({ state: 'MERGED' });
    await host.writeSummary('## ✅ merged');
    expect(JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8'))).toEqual({
      repo: 'platform/api',
      'pr-number': '15',
      state: 'MERGED',
    });
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toBe('## ✅ merged\n');
  });

  it('refuses to write outputs over a directory, naming the flag', async () => {
    const { host, dir } = await fixtureHost('generic', overrides, { files: { outputs: '.' } });
    await expect(host.setOutputs({ state: 'MERGED' })).rejects.toThrow(
      `--outputs-file ${dir} exists and is not a regular file; give a path to a file.`,
    );
  });

  it('drops terminal escape sequences from text it logs', async () => {
    const { host, log } = await fixtureHost('generic', overrides);
    host.log.info('test \u001b[2J\u001b]0;pwned\u0007name\rrewritten');
    expect(log()).toBe('test namerewritten\n');
  });
});

/** A laptop's checkout: `git init` and `git remote add`, as a user makes one, in a folder of its own. */
function checkout(remotes: Record<string, string>, defaultBranch?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'laptop-'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env: { PATH: process.env.PATH } });
  git('init', '--quiet');
  for (const [name, url] of Object.entries(remotes)) git('remote', 'add', name, url);
  if (defaultBranch) {
    git('symbolic-ref', 'refs/remotes/origin/HEAD', `refs/remotes/origin/${defaultBranch}`);
  }
  return dir;
}

/** The context and log of the generic host run in `cwd` with these variables (PATH always, for git). */
async function onLaptop(cwd: string, env: Record<string, string> = {}, needs = NEEDS.queue) {
  let log = '';
  const host = await createHost('generic', {
    // The ceiling keeps git from finding a checkout around the temp folder.
    env: { PATH: process.env.PATH, GIT_CEILING_DIRECTORIES: tmpdir(), ...env },
    input: () => '',
    logStream: { write: (text: string) => (log += text) },
    files: {},
    cwd,
  });
  const context = await host.resolveContext({ overrides: {}, needs });
  return { context, notes: context.notes.join('\n') };
}

describe('generic host on a laptop', () => {
  it.each([
    ['https://github.com/acme/widgets.git', 'github.com'],
    ['git@github.com:acme/widgets.git', 'github.com'],
    ['ssh://git@github.example.com/acme/widgets.git', 'github.example.com'],
    ['https://ghe.example.com:8443/acme/widgets', 'ghe.example.com:8443'],
  ])('takes the repository and host from origin %s', async (url, host) => {
    const { context, notes } = await onLaptop(checkout({ origin: url }));
    expect(context.repo).toEqual({ host, owner: 'acme', name: 'widgets' });
    expect(notes).toContain(`repo: ${host}/acme/widgets (from the git remote origin`);
  });

  it("takes the target branch from the remote's default branch, else main with a note saying so", async () => {
    const recorded = await onLaptop(checkout({ origin: 'https://github.com/acme/widgets.git' }, 'trunk'));
    expect(recorded.context.targetBranch).toBe('trunk');
    expect(recorded.notes).toContain(
      "target branch: trunk (the repository's default branch, from refs/remotes/origin/HEAD)",
    );
    const assumed = await onLaptop(checkout({ origin: 'https://github.com/acme/widgets.git' }));
    expect(assumed.context.targetBranch).toBe('main');
    expect(assumed.notes).toMatch(
      /target branch: main \(.*main is assumed; `git remote set-head origin --auto` records it\)/,
    );
  });

  it('prefers origin among several remotes, takes the only remote otherwise, and the variables over both', async () => {
    const both = checkout({
      upstream: 'https://github.com/up/stream.git',
      origin: 'git@github.com:acme/widgets.git',
    });
    expect((await onLaptop(both)).context.repo.name).toBe('widgets');
    const only = checkout({ fork: 'https://github.com/me/widgets.git' });
    expect((await onLaptop(only)).context.repo.owner).toBe('me');
    const overridden = await onLaptop(both, { TRUNK_REPO_URL: 'https://github.com/other/repo.git' });
    expect(overridden.context.repo.owner).toBe('other');
  });

  it("never shows the remote's credentials", async () => {
    const dir = checkout({
      origin: 'https://x-access-token:ghs_remoteSecret123@github.com/acme/widgets.git',
    });
    const { context, notes } = await onLaptop(dir);
    expect(context.repo.name).toBe('widgets');
    expect(notes).not.toContain('ghs_remoteSecret123');
  });

  it('runs git without our secrets or inputs in its environment', async () => {
    const bin = mkdtempSync(join(tmpdir(), 'git-spy-'));
    const seen = join(bin, 'environment');
    const realGit = execFileSync('sh', ['-c', 'command -v git']).toString().trim();
    mkdirSync(join(bin, 'bin'));
    writeFileSync(join(bin, 'bin', 'git'), `#!/bin/sh\nenv >> '${seen}'\nexec '${realGit}' "$@"\n`);
    chmodSync(join(bin, 'bin', 'git'), 0o755);
    const dir = checkout({ origin: 'https://github.com/acme/widgets.git' });
    const { context } = await onLaptop(dir, {
      PATH: `${join(bin, 'bin')}:${process.env.PATH}`,
      MERGE_QUEUE_API_TOKEN: 'mq-secret-token-1',
      TRUNK_API_TOKEN: 'trunk-secret-token-2',
      MERGE_QUEUE_GITHUB_TOKEN: 'ghp_secret3',
      GITHUB_TOKEN: 'ghs_secret4',
    });
    expect(context.repo.name).toBe('widgets');
    const environment = readFileSync(seen, 'utf8');
    expect(environment).toContain('PATH=');
    for (const secret of ['mq-secret-token-1', 'trunk-secret-token-2', 'ghp_secret3', 'ghs_secret4']) {
      expect(environment).not.toContain(secret);
    }
  });

  it('outside a checkout, says which variable or input names the repository', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'not-a-checkout-'));
    await expect(onLaptop(dir)).rejects.toThrow('Cannot tell the repository: TRUNK_REPO_URL is not set');
  });
});

// Which host runs: each detected by its own variable, the first match winning, --host or
// MERGE_QUEUE_HOST forcing one; and the generic host, whose context is the TRUNK_* variables.
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../src/core/errors.js';
import { detectHost } from '../../src/hosts/detect.js';
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

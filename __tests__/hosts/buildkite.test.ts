// Buildkite from its documented environment: PR builds (BUILDKITE_PULL_REQUEST, "false" on others),
// forks, ssh and https remotes (GitHub Enterprise too), merge-queue branches; outputs as meta-data and
// the summary as an annotation through a recording stand-in for buildkite-agent (the real agent cannot
// be installed here); `---` groups and neutralised group markers.
import { describe, expect, it } from '@jest/globals';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { paint } from '../../src/hosts/common/colour.js';
import { errorLine } from '../../src/hosts/common/log.js';
import { contextFailure, contextOf, fixtureHost, NEEDS } from '../helpers/host-fixture.js';

const HEAD = '0123456789abcdef0123456789abcdef01234567';

const build = {
  BUILDKITE: 'true',
  BUILDKITE_REPO: 'git@github.com:octo-org/octo-repo.git',
  BUILDKITE_COMMIT: HEAD,
  BUILDKITE_BRANCH: 'feature/login',
  BUILDKITE_PIPELINE_DEFAULT_BRANCH: 'main',
  BUILDKITE_BUILD_ID: '0190e0f2-6c5c-4b5f-9d2e-0c1c2c3c4c5c',
  BUILDKITE_BUILD_URL: 'https://buildkite.com/octo-org/octo-repo/builds/812',
  BUILDKITE_SOURCE: 'webhook',
};
const pullRequest = {
  ...build,
  BUILDKITE_PULL_REQUEST: '42',
  BUILDKITE_PULL_REQUEST_BASE_BRANCH: 'main',
  BUILDKITE_PULL_REQUEST_REPO: 'git://github.com/octo-org/octo-repo.git',
};

describe('buildkite context', () => {
  it('reads a pull request build', async () => {
    expect(await contextOf('buildkite', pullRequest, NEEDS.prAndHead)).toMatchObject({
      repo: { host: 'github.com', owner: 'octo-org', name: 'octo-repo' },
      prNumber: 42,
      headSha: HEAD,
      targetBranch: 'main',
      isFork: false,
      runId: build.BUILDKITE_BUILD_ID,
      runUrl: build.BUILDKITE_BUILD_URL,
      trigger: 'webhook',
    });
  });

  it('reads "false" as no pull request, and says so', async () => {
    expect(await contextFailure('buildkite', { ...build, BUILDKITE_PULL_REQUEST: 'false' })).toBe(
      'No pull request to act on: BUILDKITE_PULL_REQUEST is "false": this build is not for a pull request; set the pr-number input.',
    );
    expect(
      await contextOf('buildkite', { ...build, BUILDKITE_PULL_REQUEST: 'false' }, NEEDS.queue),
    ).toMatchObject({
      prNumber: undefined,
      targetBranch: 'main',
    });
  });

  it('marks a pull request from a fork', async () => {
    const fork = {
      ...pullRequest,
      BUILDKITE_PULL_REQUEST_REPO: 'https://github.com/contributor/octo-repo.git',
    };
    const context = await contextOf('buildkite', fork);
    expect(context.isFork).toBe(true);
    expect(context.notes).toContain('fork: PR #42 comes from contributor/octo-repo');
  });

  it.each([
    ['https://github.example.com/platform/api.git', 'github.example.com'],
    ['git@github.example.com:platform/api.git', 'github.example.com'],
    ['ssh://git@github.example.com:7999/platform/api.git', 'github.example.com'],
  ])('reads a GitHub Enterprise remote %s', async (remote, host) => {
    const context = await contextOf('buildkite', { ...pullRequest, BUILDKITE_REPO: remote });
    expect(context.repo).toEqual({ host, owner: 'platform', name: 'api' });
  });

  it('ignores BUILDKITE_COMMIT when it is HEAD, naming the variable and the input when the sha is needed', async () => {
    const env = { ...pullRequest, BUILDKITE_COMMIT: 'HEAD' };
    expect(await contextFailure('buildkite', env, NEEDS.prAndHead)).toBe(
      'Cannot tell the head sha of PR #42: BUILDKITE_COMMIT is not set and no github-token was given to look up PR #42; set the pr-sha input or pass github-token.',
    );
  });

  it('recognises a merge-queue test branch', async () => {
    const env = { ...build, BUILDKITE_PULL_REQUEST: 'false', BUILDKITE_BRANCH: 'trunk-merge/pr-42/3c9d1' };
    expect(await contextOf('buildkite', env, NEEDS.queue)).toMatchObject({
      isMergeQueueTestRun: true,
      testRunId: '3c9d1',
      prNumber: 42,
    });
  });

  it('says which variable is missing', async () => {
    expect(await contextFailure('buildkite', { BUILDKITE: 'true', BUILDKITE_PULL_REQUEST: '42' })).toBe(
      'Cannot tell the repository: BUILDKITE_REPO is not set; set the repo input (owner/name) or TRUNK_REPO_URL.',
    );
    expect(await contextFailure('buildkite', { ...pullRequest, BUILDKITE_PULL_REQUEST: '4x' })).toBe(
      'BUILDKITE_PULL_REQUEST "4x" is not a pull request number; fix it, or set the pr-number input.',
    );
  });
});

/** A stand-in buildkite-agent that records each call (arguments and stdin) as a JSON line. */
function recordingAgent(options: { fail?: boolean } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'buildkite-agent-'));
  const record = join(dir, 'calls.jsonl');
  writeFileSync(record, '');
  writeFileSync(
    join(dir, 'buildkite-agent'),
    `#!/usr/bin/env node
const fs = require('node:fs');
const stdin = fs.readFileSync(0, 'utf8');
fs.appendFileSync(${JSON.stringify(record)}, JSON.stringify({ args: process.argv.slice(2), stdin }) + '\\n');
${options.fail ? "process.stderr.write('fatal: not in a job\\n'); process.exit(1);" : ''}
`,
  );
  chmodSync(join(dir, 'buildkite-agent'), 0o755);
  return {
    path: `${dir}:${process.env.PATH}`,
    calls: () =>
      readFileSync(record, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { args: string[]; stdin: string }),
  };
}

describe('buildkite outputs, annotation and log', () => {
  it('sets each output as meta-data and annotates the summary with the outcome and the operation', async () => {
    const agent = recordingAgent();
    const { host } = await fixtureHost(
      'buildkite',
      { ...pullRequest, PATH: agent.path },
      {
        inputs: { operation: 'submit-pull-request' },
      },
    );
    await host.setOutputs({ state: 'MERGED', 'priority-name': '' });
    await host.writeSummary('## ✅ PR #42 merged');
    await host.finish(0);
    expect(agent.calls()).toEqual([
      { args: ['meta-data', 'set', 'state'], stdin: 'MERGED' },
      {
        args: ['annotate', '--style', 'success', '--context', 'submit-pull-request'],
        stdin: '## ✅ PR #42 merged\n',
      },
    ]);
  });

  it('annotates with the error style when the run failed, and warning when it warned', async () => {
    const failed = recordingAgent();
    const run = await fixtureHost(
      'buildkite',
      { ...pullRequest, PATH: failed.path },
      { inputs: { operation: 'get-queue' } },
    );
    await run.host.writeSummary('## ❌ get-queue was refused by the service');
    await run.host.finish(3);
    expect(failed.calls()[0]?.args).toEqual(['annotate', '--style', 'error', '--context', 'get-queue']);

    const warned = recordingAgent();
    const other = await fixtureHost(
      'buildkite',
      { ...pullRequest, PATH: warned.path },
      { inputs: { operation: 'get-queue' } },
    );
    other.host.log.warning('Input "wait-for" is not used by operation get-queue; it was ignored.');
    await other.host.writeSummary('## Queue main');
    await other.host.finish(0);
    expect(warned.calls()[0]?.args).toEqual(['annotate', '--style', 'warning', '--context', 'get-queue']);
  });

  it('warns once, without failing the run, when buildkite-agent is missing or fails', async () => {
    const missing = await fixtureHost('buildkite', { ...pullRequest, PATH: '/nonexistent' });
    await missing.host.setOutputs({ state: 'MERGED', 'is-submitted': 'true' });
    await missing.host.writeSummary('summary');
    await missing.host.finish(0);
    expect(missing.log().match(/buildkite-agent is not on PATH/g)).toHaveLength(1);

    const failing = recordingAgent({ fail: true });
    const broken = await fixtureHost('buildkite', { ...pullRequest, PATH: failing.path });
    await broken.host.setOutputs({ state: 'MERGED' });
    expect(broken.log()).toContain(
      'Output state was not set as meta-data: buildkite-agent meta-data set failed: fatal: not in a job.',
    );
  });

  it('writes groups as --- headers, expands the group on an error, and neutralises markers from outside', async () => {
    const { host, log } = await fixtureHost('buildkite', pullRequest);
    await host.log.group('Waiting for PR #42', async () => {
      host.log.info('the service said:\n+++ open this\n^^^ +++\n--- new group');
      host.log.error('PR #42 failed', { title: 'submit-pull-request' });
    });
    expect(log().split('\n')).toEqual([
      '--- Waiting for PR #42',
      'the service said:',
      '\u200b+++ open this',
      '\u200b^^^ +++',
      '\u200b--- new group',
      '^^^ +++',
      errorLine('PR #42 failed', paint(true)),
      '',
    ]);
  });
});

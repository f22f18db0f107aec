// The Buildkite plugin's hooks/command, run by bash the way the agent runs it: from the plugin's
// checkout (this repository, so the hook runs the built dist/cli/index.js), with the variables Buildkite
// sets for a pull-request build and the step's plugin configuration turned into BUILDKITE_PLUGIN_*
// variables by the agent's own rules. The real buildkite-agent is not installable here (a binary from
// Buildkite's servers), so a recording stand-in on PATH answers the CLI's meta-data and annotate calls;
// the API calls go to the emulator over HTTP.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BuildkiteAgentStandIn } from '../helpers/buildkite-agent.js';
import { pluginVariables } from '../helpers/buildkite-pipeline.js';
import { QueueDriver, TEST_TOKEN, useEmulator } from '../helpers/emulator.js';
import { runScript } from '../helpers/run-script.js';
import { PINNED_REF } from '../helpers/pins.js';

const emu = useEmulator();
const queue = new QueueDriver(emu, 'acme/widgets');
const HOOK = resolve('hooks/command');
const HEAD_SHA = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';

let work: string;
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'mqa-buildkite-'));
  await queue.create();
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A pull-request build's job environment with this plugin configured as `config`. */
function buildkiteEnv(config: Record<string, unknown>, pluginName = 'MERGE_QUEUE_ACTION') {
  const location = `github.com/your-org/merge-queue-action#${PINNED_REF}`;
  return {
    BUILDKITE: 'true',
    CI: 'true',
    BUILDKITE_ORGANIZATION_SLUG: 'acme',
    BUILDKITE_PIPELINE_SLUG: 'widgets',
    BUILDKITE_BUILD_ID: '0190b5a2-6c5e-4a8e-9a3c-3f1d2a7c9e11',
    BUILDKITE_BUILD_NUMBER: '812',
    BUILDKITE_BUILD_URL: 'https://buildkite.com/acme/widgets/builds/812',
    BUILDKITE_JOB_ID: '0190b5a2-7d10-4f3b-8c52-9b1e0c6d4a22',
    BUILDKITE_SOURCE: 'webhook',
    BUILDKITE_BRANCH: 'feature/faster-widgets',
    BUILDKITE_COMMIT: HEAD_SHA,
    BUILDKITE_REPO: 'git@github.com:acme/widgets.git',
    BUILDKITE_PULL_REQUEST: '17',
    BUILDKITE_PULL_REQUEST_BASE_BRANCH: 'main',
    BUILDKITE_PULL_REQUEST_REPO: 'git://github.com/acme/widgets.git',
    BUILDKITE_BUILD_CHECKOUT_PATH: work,
    BUILDKITE_PLUGINS: JSON.stringify([{ [location]: config }]),
    BUILDKITE_PLUGIN_NAME: pluginName,
    BUILDKITE_PLUGIN_CONFIGURATION: JSON.stringify(config),
    ...pluginVariables(`BUILDKITE_PLUGIN_${pluginName}`, config),
    TRUNK_API_TOKEN: TEST_TOKEN,
  };
}

async function runHook(
  name: string,
  config: Record<string, unknown>,
  pluginName?: string,
  extraEnv: Record<string, string> = {},
) {
  const agent = new BuildkiteAgentStandIn(join(work, name));
  const result = await runScript(
    'bash',
    [HOOK],
    {
      ...buildkiteEnv(config, pluginName),
      ...extraEnv,
      PATH: `${agent.dir}:${process.env.PATH}`,
    },
    { cwd: work },
  );
  return { ...result, agent };
}

describe('Buildkite plugin hooks/command', () => {
  it("uploads the build PR's impacted targets at its head sha, with meta-data and an annotation", async () => {
    writeFileSync(join(work, 'impacted-targets.txt'), '//app:widgets\n//lib:gears\n');
    const run = await runHook('targets', {
      operation: 'set-impacted-targets',
      inputs: { 'impacted-targets-file': 'impacted-targets.txt', 'api-url': emu.current.url },
    });
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
    expect(run.agent.metaData()).toMatchObject({ 'impacted-targets-count': '2', 'pr-number': '17' });
    expect(run.agent.annotations()).toMatchObject([{ style: 'success', context: 'set-impacted-targets' }]);
  });

  it('submits the build PR with the configured inputs, sets meta-data and annotates the build', async () => {
    const run = await runHook('submit', {
      operation: 'submit-pull-request',
      inputs: { priority: 'high', 'api-url': emu.current.url },
    });
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: expect.any(String) });

    // The head sha is the one the upload above took from BUILDKITE_COMMIT.
    expect(await queue.pr(17)).toMatchObject({ prSha: HEAD_SHA, priorityName: 'high' });

    const meta = run.agent.metaData();
    expect(meta).toMatchObject({
      'pr-number': '17',
      'target-branch': 'main',
      repo: 'acme/widgets',
      'priority-name': 'high',
    });
    const [annotation, ...more] = run.agent.annotations();
    expect(more).toEqual([]);
    expect(annotation).toMatchObject({ style: 'success', context: 'submit-pull-request' });
    expect(annotation!.body).toContain('17');

    const everything = JSON.stringify(run.agent.calls()) + run.stdout + run.stderr;
    expect(everything).not.toContain(TEST_TOKEN);
  });

  it('reads its configuration under the name the agent gives a plugin referenced by a .git URL', async () => {
    const run = await runHook(
      'git-url',
      { operation: 'get-submitted-pull-request', inputs: { 'api-url': emu.current.url } },
      'MERGE_QUEUE_ACTION_GIT',
    );
    expect(run.code).toBe(0);
    expect(run.agent.metaData()).toMatchObject({ state: (await queue.pr(17)).state.toUpperCase() });
    expect(run.agent.annotations()).toMatchObject([{ context: 'get-submitted-pull-request' }]);
  });

  it('ends with exit code 3 and an error annotation when the PR is not in the queue (a 404)', async () => {
    const run = await runHook('not-queued', {
      operation: 'cancel-pull-request',
      inputs: { 'api-url': emu.current.url, 'pr-number': 404, 'target-branch': 'main' },
    });
    expect(run.code).toBe(3);
    const [annotation] = run.agent.annotations();
    expect(annotation).toMatchObject({ style: 'error', context: 'cancel-pull-request' });
    expect(annotation!.body).toContain('404');
  });

  it('takes the token from the variable api-token-env names; exit code 3 when the service refuses it', async () => {
    const run = await runHook(
      'refused',
      { operation: 'get-queue', 'api-token-env': 'OTHER_TOKEN', inputs: { 'api-url': emu.current.url } },
      undefined,
      { OTHER_TOKEN: 'not-the-organization-token' },
    );
    expect(run.code).toBe(3);
    expect(run.stdout + run.stderr).toContain('401');
    expect(run.agent.annotations()).toMatchObject([{ style: 'error', context: 'get-queue' }]);
    expect(JSON.stringify(run.agent.calls()) + run.stdout + run.stderr).not.toContain(
      'not-the-organization-token',
    );
  });

  it('refuses a configuration without operation in one line, before running anything', async () => {
    const run = await runHook('no-operation', { inputs: { priority: 'high' } });
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringContaining("'operation' is missing")]);
    expect(run.agent.calls()).toEqual([]);
  });

  it('refuses an input given as a list, naming it', async () => {
    const run = await runHook('list-input', {
      operation: 'set-impacted-targets',
      inputs: { 'impacted-targets': ['app', 'lib'] },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('inputs.impacted-targets is a list');
  });

  it('refuses an api-token-env that is not a variable name, without showing it', async () => {
    const run = await runHook('bad-token-env', { operation: 'get-queue', 'api-token-env': '$(touch x)' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("'api-token-env' must name an environment variable");
    expect(run.stderr).not.toContain('touch');
  });
});

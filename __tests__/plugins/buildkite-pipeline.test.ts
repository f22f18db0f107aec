// examples/buildkite/pipeline.yml and the README's Buildkite snippet, whole, as Buildkite runs a build
// of them (helpers/buildkite-pipeline.ts: the upload's interpolation, each step's if, the block pressed,
// depends_on, the commands in bash, the plugins' hooks), against the emulator: a pull-request build and
// a scheduled one. The plugin is this checkout, as the agent would check it out at main, and runs its
// default CLI (the dist/ committed there); the emulator's address is set on the agent, as a rehearsal's
// environment hook would.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { BuildkitePipeline, holds } from '../helpers/buildkite-pipeline.js';
import { QueueDriver, TEST_TOKEN, useEmulator } from '../helpers/emulator.js';
import { jestProjectFiles } from '../helpers/jest-project.js';
import { quarantineSyncsWhenOffline } from '../helpers/junit-sample.js';
import { pullRequestWorkspace, type PullRequestWorkspace } from '../helpers/pr-workspace.js';

// The submit step waits for the merge: the PR's simulated CI (5 virtual minutes) passes in half a second.
const emu = useEmulator({ timeScale: 600 });
const queue = new QueueDriver(emu, 'acme/widgets');
const BUILD_TIMEOUT_MS = 240_000;
const EXAMPLE = readFileSync('examples/buildkite/pipeline.yml', 'utf8');

let workspace: PullRequestWorkspace;
beforeAll(async () => {
  workspace = pullRequestWorkspace();
  await queue.create();
});
afterAll(() => workspace.remove());

/** The variables of a build of PR `pr` (or of main from a schedule, when `pr` is undefined). */
function build(pr: number | undefined): Record<string, string> {
  return {
    BUILDKITE: 'true',
    CI: 'true',
    BUILDKITE_ORGANIZATION_SLUG: 'acme',
    BUILDKITE_PIPELINE_SLUG: 'widgets',
    BUILDKITE_BUILD_NUMBER: '812',
    BUILDKITE_BUILD_URL: 'https://buildkite.com/acme/widgets/builds/812',
    BUILDKITE_REPO: 'git@github.com:acme/widgets.git',
    BUILDKITE_COMMIT: workspace.headSha,
    BUILDKITE_BUILD_CHECKOUT_PATH: workspace.checkout.dir,
    ...(pr === undefined
      ? { BUILDKITE_SOURCE: 'schedule', BUILDKITE_BRANCH: 'main', BUILDKITE_PULL_REQUEST: 'false' }
      : {
          BUILDKITE_SOURCE: 'webhook',
          BUILDKITE_BRANCH: 'feature/faster-api',
          BUILDKITE_PULL_REQUEST: String(pr),
          BUILDKITE_PULL_REQUEST_BASE_BRANCH: 'main',
          BUILDKITE_PULL_REQUEST_REPO: 'git://github.com/acme/widgets.git',
        }),
    TRUNK_API_TOKEN: TEST_TOKEN,
    MERGE_QUEUE_API_URL: emu.current.url,
    MERGE_QUEUE_POLL_INTERVAL_SECONDS: '1',
  };
}

const states = (results: { step: string; state: string }[]) =>
  results.map(({ step, state }) => `${step}: ${state}`);

describe('examples/buildkite/pipeline.yml, a whole build', () => {
  it(
    'a pull-request build: targets computed with git and uploaded as an artifact, uploaded to the queue, the block pressed, the PR submitted and merged',
    async () => {
      const pipeline = new BuildkitePipeline(
        workspace.checkout.dir,
        build(17),
        join(workspace.parent, 'agent-pr'),
      );
      const results = await pipeline.run(EXAMPLE);
      expect(states(results)).toEqual([
        ':dart: impacted targets: passed',
        ':rocket: upload impacted targets: passed',
        ':white_check_mark: merge when ready: unblocked',
        ':twisted_rightwards_arrows: submit to the merge queue: passed',
        ':bar_chart: flaky-test report: skipped',
      ]);
      const meta = pipeline.agent.metaData();
      // Targets from git diff against origin's main: the one directory the PR changed.
      expect(meta['impacted-targets-count']).toBe('1');
      expect(meta.state).toBe('MERGED');
      const pr = await queue.pr(17);
      expect(pr).toMatchObject({ prSha: workspace.headSha });
      expect(pr.state.toUpperCase()).toBe('MERGED');
      expect(pipeline.agent.annotations().map((a) => a.context)).toEqual([
        'set-impacted-targets',
        'submit-pull-request',
      ]);
      const everything = results.map((r) => r.output).join('') + JSON.stringify(pipeline.agent.calls());
      expect(everything).not.toContain(TEST_TOKEN);
    },
    BUILD_TIMEOUT_MS,
  );

  it(
    'a scheduled build of main: the flaky-test report alone, failing its step on a broken test',
    async () => {
      await queue.flakyTests('your-org', [
        { name: 'api starts', status: 'broken', pull_requests_impacted_last_7d: 5 },
      ]);
      const pipeline = new BuildkitePipeline(
        workspace.checkout.dir,
        build(undefined),
        join(workspace.parent, 'agent-schedule'),
      );
      const results = await pipeline.run(EXAMPLE);
      expect(states(results)).toEqual([
        ':dart: impacted targets: skipped',
        ':rocket: upload impacted targets: skipped',
        ':white_check_mark: merge when ready: skipped',
        ':twisted_rightwards_arrows: submit to the merge queue: skipped',
        ':bar_chart: flaky-test report: failed',
      ]);
      expect(results.at(-1)!.code).toBe(1);
      const [annotation] = pipeline.agent.annotations();
      expect(annotation).toMatchObject({ style: 'error', context: 'list-unhealthy-tests' });
      expect(annotation!.body).toContain('api starts');
    },
    BUILD_TIMEOUT_MS,
  );
});

describe("the README's Buildkite snippet, a whole build", () => {
  it(
    'a pull-request build: the block pressed, the PR submitted and merged',
    async () => {
      const snippet = /^```yaml\n(steps:\n[\s\S]*?)^```$/m.exec(readFileSync('README.md', 'utf8'))![1]!;
      const pipeline = new BuildkitePipeline(
        workspace.checkout.dir,
        build(18),
        join(workspace.parent, 'agent-readme'),
      );
      const results = await pipeline.run(snippet);
      expect(states(results)).toEqual([
        ':white_check_mark: merge when ready: unblocked',
        ':twisted_rightwards_arrows: submit to the merge queue: passed',
      ]);
      expect((await queue.pr(18)).state.toUpperCase()).toBe('MERGED');
    },
    BUILD_TIMEOUT_MS,
  );
});

describe('examples/ci/check-test-results/buildkite.yml, the quarantine gate', () => {
  it(
    'npm ci and jest as pasted, soft-failed; the gate downloads the reports, passes the quarantined failure and fails for the new one',
    async () => {
      const shop = join(workspace.parent, 'shop');
      for (const [file, text] of Object.entries(jestProjectFiles(shop))) {
        mkdirSync(dirname(join(shop, file)), { recursive: true });
        writeFileSync(join(shop, file), text);
      }
      const seed = quarantineSyncsWhenOffline(queue.repo);
      expect((await emu.control('POST', '/flaky-tests', seed)).status).toBe(200);
      const pipeline = new BuildkitePipeline(
        shop,
        { ...build(19), BUILDKITE_BUILD_CHECKOUT_PATH: shop },
        join(workspace.parent, 'agent-gate'),
      );
      const results = await pipeline.run(
        readFileSync('examples/ci/check-test-results/buildkite.yml', 'utf8'),
      );
      expect(states(results)).toEqual([':jest: tests: soft failed', ':shield: quarantine gate: failed']);
      expect(pipeline.agent.metaData()).toMatchObject({ 'failed-count': '2', 'step-failing-count': '1' });
      const [annotation] = pipeline.agent.annotations();
      expect(annotation).toMatchObject({ style: 'error', context: 'check-test-results' });
      expect(annotation!.body).toContain('Cart expires after a timeout');
    },
    BUILD_TIMEOUT_MS,
  );
});

describe("the stand-in's reading of a step's if", () => {
  it('compares build values with strings and null, and refuses what it does not know', () => {
    const pr = build(17);
    expect(holds('build.pull_request.id != null', pr)).toBe(true);
    expect(holds('build.source == "schedule"', pr)).toBe(false);
    expect(holds('build.source == "schedule" || build.pull_request.id != null', pr)).toBe(true);
    expect(holds('build.pull_request.id != null', build(undefined))).toBe(false);
    expect(() => holds('build.message == "skip"', pr)).toThrow('not a value this stand-in knows');
    expect(() => holds('build.branch =~ /^main$/', pr)).toThrow('is not a comparison');
  });
});

// examples/circleci/config.yml, the README's CircleCI snippet and the orb's own examples (orb/examples/),
// whole, as CircleCI runs a pipeline of them on a machine runner (helpers/circleci-pipeline.ts: the orb
// packed from orb/ and expanded, the workflows' when, requires, filters, the approval pressed, each job in
// its own directory), against the emulator: pull-request pipelines and scheduled ones. The jobs run the
// orb's default CLI as pasted, with only its download swapped for this checkout's build
// (helpers/npx-shim.ts); the token and the emulator's address come from the merge-queue context, as the
// orb's api-url parameter documents.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { CircleciRun, type CircleciPipeline, type JobResult } from '../helpers/circleci-pipeline.js';
import { QueueDriver, TEST_TOKEN, useEmulator } from '../helpers/emulator.js';
import { jestProjectFiles } from '../helpers/jest-project.js';
import { quarantineSyncsWhenOffline } from '../helpers/junit-sample.js';
import { pathWithNpxShim } from '../helpers/npx-shim.js';
import { pullRequestWorkspace, type PullRequestWorkspace } from '../helpers/pr-workspace.js';

// The submit job waits for the merge: the PR's simulated CI (5 virtual minutes) passes in half a second.
const emu = useEmulator({ timeScale: 600 });
const queue = new QueueDriver(emu, 'acme/widgets');
const PIPELINE_TIMEOUT_MS = 240_000;
const EXAMPLE = readFileSync('examples/circleci/config.yml', 'utf8');
const PATH = pathWithNpxShim();
// The project's own test job runs npm ci && npm test: a package with no dependencies and one test.
const PROJECT = {
  'package.json': '{ "name": "widgets", "private": true, "scripts": { "test": "echo widgets ok" } }\n',
  'package-lock.json':
    '{ "name": "widgets", "lockfileVersion": 3, "requires": true, "packages": { "": { "name": "widgets" } } }\n',
};

let workspace: PullRequestWorkspace;
beforeAll(async () => {
  workspace = pullRequestWorkspace('feature/faster-api', PROJECT);
  await queue.create();
});
afterAll(() => workspace.remove());

/** A pipeline of PR `pr` from a push (or a scheduled one of main when `pr` is undefined). */
function pipeline(name: string, pr: number | undefined): CircleciPipeline {
  const base = {
    CI: 'true',
    CIRCLECI: 'true',
    CIRCLE_BUILD_NUM: '977',
    CIRCLE_BUILD_URL: 'https://circleci.com/gh/acme/widgets/977',
    CIRCLE_WORKFLOW_ID: '5a1f6c1e-8a0e-4cc4-9f2b-2f6f0d6d1e77',
    CIRCLE_PROJECT_USERNAME: 'acme',
    CIRCLE_PROJECT_REPONAME: 'widgets',
    CIRCLE_REPOSITORY_URL: 'git@github.com:acme/widgets.git',
    CIRCLE_SHA1: workspace.headSha,
    PATH,
    HOME: process.env.HOME ?? '/tmp',
  };
  const env =
    pr === undefined
      ? { ...base, CIRCLE_BRANCH: 'main' }
      : {
          ...base,
          CIRCLE_BRANCH: 'feature/faster-api',
          CIRCLE_PULL_REQUEST: `https://github.com/acme/widgets/pull/${pr}`,
          CIRCLE_PULL_REQUESTS: `https://github.com/acme/widgets/pull/${pr}`,
        };
  return {
    repository: workspace.checkout.dir,
    sha: workspace.headSha,
    env,
    pipeline:
      pr === undefined
        ? { trigger_source: 'scheduled_pipeline', 'schedule.name': 'nightly-flaky-report' }
        : { trigger_source: 'webhook', 'schedule.name': '' },
    contexts: {
      'merge-queue': {
        TRUNK_API_TOKEN: TEST_TOKEN,
        MERGE_QUEUE_API_URL: emu.current.url,
        MERGE_QUEUE_POLL_INTERVAL_SECONDS: '1',
      },
    },
    root: join(workspace.parent, name),
  };
}

const states = (results: JobResult[]) => results.map(({ job, state }) => `${job}: ${state}`);

describe('examples/circleci/config.yml, a whole pipeline', () => {
  it(
    "a pull-request pipeline: tests, targets computed and persisted, uploaded by the orb's job, the approval pressed, the PR submitted and merged",
    async () => {
      const results = await new CircleciRun(EXAMPLE, pipeline('pr', 31)).start();
      const failed = results.filter((job) => job.state === 'failed').map((job) => job.output.slice(-800));
      expect({ states: states(results), failed }).toEqual({
        states: [
          'test: passed',
          'compute-impacted-targets: passed',
          'merge-queue/set-impacted-targets: passed',
          'merge-when-ready: approved',
          'merge-queue/submit-pull-request: passed',
        ],
        failed: [],
      });
      const upload = results[2]!;
      // Targets from git diff against origin's main: the one directory the PR changed.
      expect(upload.output).toContain('Uploaded 1 impacted target for PR #31');
      const pr = await queue.pr(31);
      expect(pr).toMatchObject({ prSha: workspace.headSha });
      expect(pr.state.toUpperCase()).toBe('MERGED');
      const submit = results[4]!;
      expect(submit.artifacts).toEqual(['merge-queue-summary.md']);
      expect(readFileSync(join(submit.dir, 'merge-queue-summary.md'), 'utf8')).toContain('31');
      expect(results.map((job) => job.output).join('')).not.toContain(TEST_TOKEN);
    },
    PIPELINE_TIMEOUT_MS,
  );

  it(
    'the scheduled pipeline nightly-flaky-report: the report alone, failing its job on a broken test, its report file kept',
    async () => {
      await queue.flakyTests('your-org', [
        { name: 'api starts', status: 'broken', pull_requests_impacted_last_7d: 5 },
      ]);
      const results = await new CircleciRun(EXAMPLE, pipeline('schedule', undefined)).start();
      expect(states(results)).toEqual(['merge-queue/flaky-report: failed']);
      const [report] = results;
      expect(report!.output).toContain('api starts');
      expect(report!.artifacts).toEqual(['merge-queue-summary.md', 'merge-queue-report']);
    },
    PIPELINE_TIMEOUT_MS,
  );
});

describe("the README's CircleCI snippet, a whole pipeline", () => {
  it(
    'a pull-request pipeline: the PR submitted and merged',
    async () => {
      const snippet = /^```yaml\n(version: 2\.1\n[\s\S]*?)^```$/m.exec(
        readFileSync('README.md', 'utf8'),
      )![1]!;
      const results = await new CircleciRun(snippet, pipeline('readme', 32)).start();
      expect(states(results)).toEqual(['merge-queue/submit-pull-request: passed']);
      expect((await queue.pr(32)).state.toUpperCase()).toBe('MERGED');
    },
    PIPELINE_TIMEOUT_MS,
  );
});

describe("the orb's own examples (orb/examples/), whole pipelines", () => {
  /** The example's `usage:`, the config it shows, as YAML text. */
  const usage = (name: string) =>
    stringify((parse(readFileSync(`orb/examples/${name}.yml`, 'utf8')) as { usage: unknown }).usage);

  it(
    'submit-pull-request: the tests pass, then the PR is submitted at high priority and merges',
    async () => {
      const results = await new CircleciRun(usage('submit-pull-request'), pipeline('orb-submit', 33)).start();
      expect(states(results)).toEqual(['test: passed', 'merge-queue/submit-pull-request: passed']);
      expect((await queue.pr(33)).state.toUpperCase()).toBe('MERGED');
    },
    PIPELINE_TIMEOUT_MS,
  );

  it(
    "impacted-targets: computed with git in one job, uploaded for the PR's head by the orb's job",
    async () => {
      const results = await new CircleciRun(usage('impacted-targets'), pipeline('orb-targets', 34)).start();
      expect(states(results)).toEqual([
        'compute-impacted-targets: passed',
        'merge-queue/set-impacted-targets: passed',
      ]);
      expect(results[1]!.output).toContain('Uploaded 1 impacted target for PR #34');
    },
    PIPELINE_TIMEOUT_MS,
  );

  it(
    'flaky-report: the scheduled nightly-flaky-report fails its job on a broken test',
    async () => {
      await queue.flakyTests('your-org', [
        { name: 'api starts', status: 'broken', pull_requests_impacted_last_7d: 5 },
      ]);
      const results = await new CircleciRun(usage('flaky-report'), pipeline('orb-flaky', undefined)).start();
      expect(states(results)).toEqual(['merge-queue/flaky-report: failed']);
      expect(results[0]!.output).toContain('api starts');
    },
    PIPELINE_TIMEOUT_MS,
  );
});

describe('examples/ci/check-test-results/circleci-config.yml, a whole pipeline', () => {
  it(
    'npm ci and jest as pasted, the reports stored; the gate fails the job for the new failure only',
    async () => {
      const shop = pullRequestWorkspace('feature/cart');
      try {
        const root = join(shop.parent, 'pipeline');
        // The job checks the project out at <root>/test: npm's lockfile names its links from there.
        const sha = shop.checkout.commit('cart', jestProjectFiles(join(root, 'test')));
        const seed = quarantineSyncsWhenOffline(queue.repo);
        expect((await emu.control('POST', '/flaky-tests', seed)).status).toBe(200);
        const example = readFileSync('examples/ci/check-test-results/circleci-config.yml', 'utf8');
        // No context in this example: the token (and, to rehearse, the address) are project variables.
        const base = pipeline('gate', 35);
        const env = { ...base.env, MERGE_QUEUE_API_TOKEN: TEST_TOKEN, MERGE_QUEUE_API_URL: emu.current.url };
        const run = { ...base, env, repository: shop.checkout.dir, sha, root };
        const [job, ...others] = await new CircleciRun(example, run).start();
        expect([job!.job, job!.state, others]).toEqual(['test', 'failed', []]);
        expect(job!.artifacts).toEqual(['reports', 'gate-summary.md']);
        const outputs = JSON.parse(readFileSync(join(job!.dir, 'gate-outputs.json'), 'utf8')) as object;
        expect(outputs).toMatchObject({ 'failed-count': '2', 'step-failing-count': '1' });
        expect(readFileSync(join(job!.dir, 'gate-summary.md'), 'utf8')).toContain(
          'Cart expires after a timeout',
        );
      } finally {
        shop.remove();
      }
    },
    PIPELINE_TIMEOUT_MS,
  );
});

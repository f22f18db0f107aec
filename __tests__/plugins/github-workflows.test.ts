// The GitHub workflows of examples/ and the README's, whole, as GitHub's runner runs them on a
// self-hosted runner here (helpers/github-workflow.ts: `on:` against the event, jobs by their needs and
// `if:`, expressions by GitHub's own evaluator, this action as action.yml runs it), for real webhook
// payloads (@octokit/webhooks-examples), against the emulator. As the README's rehearsal says, each step
// of this action gets `api-url` (the emulator) under `with:`; the steps that wait poll every second.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { QueueDriver, TEST_TOKEN, useEmulator } from '../helpers/emulator.js';
import { GitHubApi } from '../helpers/github-api.js';
import { jestProjectFiles } from '../helpers/jest-project.js';
import { quarantineSyncsWhenOffline } from '../helpers/junit-sample.js';
import { runWorkflow, type JobResult, type WorkflowEvent } from '../helpers/github-workflow.js';
import { pullRequestWorkspace, type PullRequestWorkspace } from '../helpers/pr-workspace.js';
import { example } from '../helpers/webhook-examples.js';

const emu = useEmulator({ timeScale: 600 });
const REPO = 'Codertocat/Hello-World'; // the repository of the webhook examples
const queue = new QueueDriver(emu, REPO, 'main');
const TIMEOUT_MS = 240_000;

let workspace: PullRequestWorkspace;
let root: string;
beforeAll(async () => {
  workspace = pullRequestWorkspace();
  workspace.checkout.git('push', '-q', 'origin', 'HEAD:refs/heads/feature/faster-api');
  root = mkdtempSync(join(tmpdir(), 'mqa-github-workflow-'));
  await queue.create();
});
afterAll(() => {
  workspace.remove();
  rmSync(root, { recursive: true, force: true });
});

function readme(marker: string): string {
  const blocks = [...readFileSync('README.md', 'utf8').matchAll(/^```yaml\n([\s\S]*?)^```$/gm)]
    .map((match) => match[1]!)
    .filter((text) => /^on:/m.test(text) && text.includes(marker));
  expect(blocks).toHaveLength(1);
  return blocks[0]!;
}

/** The one yaml block of `page` holding `marker`. */
function block(page: string, marker: string): string {
  const blocks = [...readFileSync(page, 'utf8').matchAll(/^```yaml\n([\s\S]*?)^```$/gm)]
    .map((match) => match[1]!)
    .filter((text) => text.includes(marker));
  expect(blocks).toHaveLength(1);
  return blocks[0]!;
}

/** A snippet that is a list of steps, as the steps of one job of a workflow run `on` the event. */
const asJob = (steps: string, on: string) =>
  stringify({ on, jobs: { snippet: { 'runs-on': 'ubuntu-latest', steps: parse(steps) as unknown } } });

/** A webhook payload whose objects a test may change. */
type Payload = Record<string, Record<string, unknown>>;

/** A pull_request event of PR `number` at the workspace's head, for the target branch main. */
function pullRequestEvent(action: string, number: number, label?: string): WorkflowEvent {
  const payload = example('pull_request', (p) => p.action === action) as unknown as Payload;
  const pr = payload.pull_request!;
  Object.assign(payload, { number });
  Object.assign(pr, {
    number,
    head: { ...(pr.head as object), sha: workspace.headSha },
    base: { ...(pr.base as object), ref: 'main' },
  });
  if (label) Object.assign(payload, { label: { ...payload.label, name: label } });
  return { name: 'pull_request', payload, sha: workspace.headSha, ref: `refs/pull/${number}/merge` };
}

let runs = 0;
function run(
  text: string,
  event: WorkflowEvent,
  secrets: Record<string, string> = { TRUNK_API_TOKEN: TEST_TOKEN },
  env = {},
  inputs: Record<string, string> = {},
) {
  return runWorkflow(text, event, {
    repository: REPO,
    origin: join(workspace.parent, 'origin.git'),
    secrets,
    root: join(root, `run-${++runs}`),
    env,
    actionInputs: { 'api-url': emu.current.url, ...inputs },
  });
}

/** For the steps that wait for a merge: poll every second, not every 30. */
const POLL = { 'poll-interval-seconds': '1' };

/** The warning lines of every step: a snippet as pasted draws none. */
const warnings = (jobs: JobResult[]) =>
  jobs
    .flatMap((job) => job.steps)
    .flatMap((step) => step.log.split('\n').filter((line) => line.startsWith('::warning')));

const results = (jobs: JobResult[]) =>
  jobs.map((job) => `${job.job}: ${job.result} (${job.steps.map((step) => step.outcome).join(', ')})`);

describe.each([
  ['examples/submit-on-label.yml', () => readFileSync('examples/submit-on-label.yml', 'utf8'), 11],
  ["the README's GitHub Actions snippet", () => readme("github.event.label.name == 'merge'"), 12],
])('%s', (_, text, pr) => {
  it(
    'a PR labelled merge is submitted at its head and waited on until it merges: the job is green',
    async () => {
      const jobs = await run(text(), pullRequestEvent('labeled', pr, 'merge'), undefined, {}, POLL);
      expect(results(jobs)[0]).toMatch(/^enqueue: success \(success/);
      expect(warnings(jobs)).toEqual([]);
      expect((await queue.state(pr)).toUpperCase()).toBe('MERGED');
      if (jobs[0]!.steps[1]) expect(jobs[0]!.steps[1].log).toContain(`PR #${pr} is MERGED`);
    },
    TIMEOUT_MS,
  );

  it(
    'a refused token turns the submit step and the job red, and the steps after it do not run',
    async () => {
      const jobs = await run(text(), pullRequestEvent('labeled', pr + 100, 'merge'), {
        TRUNK_API_TOKEN: 'a-revoked-token',
      });
      expect(jobs[0]!.result).toBe('failure');
      expect(jobs[0]!.steps.map((step) => step.outcome)).toEqual(
        ['failure', 'skipped'].slice(0, jobs[0]!.steps.length),
      );
      expect(jobs[0]!.steps[0]!.log).toMatch(/::error[^\n]*(401|token)/i);
    },
    TIMEOUT_MS,
  );

  it('another label runs no job', async () => {
    const jobs = await run(text(), pullRequestEvent('labeled', pr + 200, 'bug'));
    expect(results(jobs)).toEqual(['enqueue: skipped ()']);
  });
});

describe('examples/submit-on-comment.yml', () => {
  const TEXT = readFileSync('examples/submit-on-comment.yml', 'utf8');
  const github = new GitHubApi('ghs_runner-token-stand-in');
  beforeAll(() => github.start());
  afterAll(() => github.stop());

  /** A comment on PR `number` (an issue_comment on a pull request carries issue.pull_request). */
  function comment(number: number, body: string, association: string): WorkflowEvent {
    const payload = example('issue_comment', (p) => p.action === 'created') as unknown as Payload;
    Object.assign(payload.issue!, {
      number,
      pull_request: { url: `https://api.github.com/repos/${REPO}/pulls/${number}` },
    });
    Object.assign(payload.comment!, { body, author_association: association });
    return { name: 'issue_comment', payload, sha: workspace.headSha, ref: 'refs/heads/main' };
  }

  it(
    "/merge from a member: the PR's head and target are looked up with the run's token, and it merges",
    async () => {
      github.pulls.set(21, { head: { sha: workspace.headSha }, base: { ref: 'main' } });
      const jobs = await run(TEXT, comment(21, '/merge', 'MEMBER'), undefined, {
        GITHUB_API_URL: github.url,
      });
      expect(results(jobs)).toEqual(['enqueue: success (success, success)']);
      expect(warnings(jobs)).toEqual([]);
      // No wait-for here: the step ends once the queue has the PR.
      expect(jobs[0]!.steps[1]!.log).toMatch(/^PR #21 is [A-Z_]+ in the queue for main$/m);
      expect(await queue.state(21)).toBeTruthy();
      expect(github.requests).toContain(`GET /repos/${REPO}/pulls/21`);
    },
    TIMEOUT_MS,
  );

  it('/merge from someone without write access, or another comment, runs no job', async () => {
    for (const event of [comment(22, '/merge', 'NONE'), comment(22, 'looks good', 'OWNER')]) {
      expect(results(await run(TEXT, event))).toEqual(['enqueue: skipped ()']);
    }
  });
});

describe('examples/queue-admin.yml, run from the Actions tab', () => {
  const TEXT = readFileSync('examples/queue-admin.yml', 'utf8');
  const ADMIN_REPO = new QueueDriver(emu, REPO, 'release');
  const dispatch = (inputs: Record<string, string>): WorkflowEvent => ({
    name: 'workflow_dispatch',
    payload: { inputs, repository: example('pull_request').repository },
    inputs,
    sha: workspace.headSha,
    ref: 'refs/heads/main',
  });
  beforeAll(() => ADMIN_REPO.create());

  it('pause, set-concurrency, status: each changes the queue and the report says so', async () => {
    const pause = await run(TEXT, dispatch({ action: 'pause', branch: 'release' }));
    expect(results(pause)).toEqual(['admin: success (success, success)']);
    expect(warnings(pause)).toEqual([]);
    expect(pause[0]!.steps[1]!.log).toMatch(/^Queue for release is paused \(/m);
    const concurrency = await run(
      TEXT,
      dispatch({ action: 'set-concurrency', branch: 'release', concurrency: '5' }),
    );
    expect(concurrency[0]!.steps[1]!.log).toMatch(/^Queue for release is paused \(\w+, concurrency 5\)/m);
    const status = await run(TEXT, dispatch({ action: 'status', branch: 'release' }));
    expect(status[0]!.steps[1]!.log).toMatch(
      /^Queue for release is paused \(\w+, concurrency 5\) with 0 PR\(s\) enqueued\.$/m,
    );
    expect(await ADMIN_REPO.queue()).toMatchObject({ concurrency: 5 });
  });
});

describe('examples/flaky-report.yml, on its schedule', () => {
  const TEXT = readFileSync('examples/flaky-report.yml', 'utf8');
  const schedule: WorkflowEvent = {
    name: 'schedule',
    payload: { schedule: '30 5 * * 1-5' },
    sha: workspace?.headSha ?? '',
    ref: 'refs/heads/main',
  };

  it('a broken test turns the job red, and the report is still kept as an artifact and printed', async () => {
    await queue.flakyTests('your-org', [
      { name: 'checkout pays', status: 'broken', pull_requests_impacted_last_7d: 5 },
      { name: 'cart adds', status: 'flaky', pull_requests_impacted_last_7d: 2 },
    ]);
    const jobs = await run(TEXT, { ...schedule, sha: workspace.headSha });
    expect(results(jobs)).toEqual(['report: failure (failure, success, success)']);
    expect(jobs[0]!.steps[2]!.log).toContain('Flaky: 1, broken: 1');
    expect(readdirSync(join(root, `run-${runs}`, 'artifacts', 'unhealthy-tests')).sort()).toEqual(
      expect.arrayContaining([expect.stringMatching(/\.csv$/), expect.stringMatching(/\.json$/)]),
    );
  });
});

describe('examples/impacted-targets.yml, on a push to the PR', () => {
  it(
    "compute finds the directories the PR changed with git, and upload sends them for the PR's head",
    async () => {
      const jobs = await run(
        readFileSync('examples/impacted-targets.yml', 'utf8'),
        pullRequestEvent('synchronize', 31),
      );
      expect(results(jobs)).toEqual([
        'compute: success (success, success, success)',
        'upload: success (success, success, success)',
      ]);
      expect(warnings(jobs)).toEqual([]);
      expect(jobs[1]!.steps[1]!.outputs).toMatchObject({
        'impacted-targets-sent': 'list',
        'impacted-targets-count': '1',
      });
      expect(jobs[1]!.steps[2]!.log).toContain('Sent list (1 targets read).');
    },
    TIMEOUT_MS,
  );
});

describe('examples/impacted-targets-computed.yml, over a pnpm monorepo', () => {
  let monorepo: PullRequestWorkspace;
  beforeAll(() => {
    monorepo = pullRequestWorkspace('feature/ui', {
      '.github/impacted-targets.yml': readFileSync('examples/impacted-targets/pnpm-monorepo.yml', 'utf8'),
      'package.json': '{ "name": "monorepo", "private": true }\n',
      'pnpm-workspace.yaml': 'packages:\n  - packages/*\n',
      'packages/ui/package.json': '{ "name": "@acme/ui" }\n',
      'packages/ui/button.js': 'export const button = 1;\n',
      'packages/web/package.json': '{ "name": "@acme/web", "dependencies": { "@acme/ui": "workspace:*" } }\n',
      'packages/api/package.json': '{ "name": "@acme/api" }\n',
    });
    monorepo.headSha = monorepo.checkout.commit('a bigger button', {
      'packages/ui/button.js': 'export const button = 2;\n',
    });
    monorepo.checkout.git('push', '-q', 'origin', 'HEAD:refs/heads/feature/ui');
  });
  afterAll(() => monorepo.remove());

  it(
    'a change to @acme/ui impacts it and @acme/web, which depends on it: both uploaded, web-e2e runs',
    async () => {
      const event = pullRequestEvent('synchronize', 32);
      (event.payload.pull_request as { head: { sha: string } }).head.sha = monorepo.headSha;
      const jobs = await runWorkflow(readFileSync('examples/impacted-targets-computed.yml', 'utf8'), event, {
        repository: REPO,
        origin: join(monorepo.parent, 'origin.git'),
        secrets: { TRUNK_API_TOKEN: TEST_TOKEN },
        root: join(root, 'computed'),
        actionInputs: { 'api-url': emu.current.url },
      });
      expect(results(jobs)).toEqual([
        'compute: success (success, success, success)',
        'upload: success (success, success)',
        'web-e2e: success (success)',
      ]);
      expect(warnings(jobs)).toEqual([]);
      expect(JSON.parse(jobs[0]!.outputs['targets-map']!)).toMatchObject({
        '@acme/ui': 'true',
        '@acme/web': 'true',
        '@acme/api': 'false',
      });
    },
    TIMEOUT_MS,
  );

  it(
    "docs/impacted-targets.md's one-step form: checkout, then set-impacted-targets computes and uploads",
    async () => {
      const event = pullRequestEvent('synchronize', 35);
      (event.payload.pull_request as { head: { sha: string } }).head.sha = monorepo.headSha;
      const snippet = block('docs/impacted-targets.md', '# One step, in a job that checks out the PR');
      const jobs = await runWorkflow(asJob(snippet, 'pull_request'), event, {
        repository: REPO,
        origin: join(monorepo.parent, 'origin.git'),
        secrets: { TRUNK_API_TOKEN: TEST_TOKEN },
        root: join(root, 'one-step'),
        actionInputs: { 'api-url': emu.current.url },
      });
      expect(results(jobs)).toEqual(['snippet: success (success, success)']);
      expect(warnings(jobs)).toEqual([]);
      // The PR changed packages/ui/ and a file of the root package (svc/api/handler.txt).
      expect(jobs[0]!.steps[1]!.outputs).toMatchObject({
        'impacted-targets': JSON.stringify(['@acme/ui', '@acme/web', 'monorepo']),
        'impacted-targets-sent': 'list',
      });
    },
    TIMEOUT_MS,
  );
});

describe("the README's step lists, each the steps of one job", () => {
  it('pause a queue, then the flaky-test report: the queue is paused, and a broken test turns the job red', async () => {
    await queue.flakyTests('my-org', [
      { name: 'search finds', status: 'broken', pull_requests_impacted_last_7d: 3 },
    ]);
    const snippet = block('README.md', 'operation: pause-queue');
    const jobs = await run(asJob(snippet, 'workflow_dispatch'), {
      name: 'workflow_dispatch',
      payload: { inputs: {} },
      sha: workspace.headSha,
      ref: 'refs/heads/main',
    });
    expect(results(jobs)).toEqual(['snippet: failure (success, failure)']);
    expect(jobs[0]!.summary).toContain('search finds');
    expect(await queue.queue()).toMatchObject({ state: expect.stringMatching(/^paused$/i) });
  });
});

describe('examples/check-test-results.yml, the quarantine gate on a pull request', () => {
  let shop: PullRequestWorkspace;
  const gateRoot = () => join(root, 'gate');
  beforeAll(async () => {
    shop = pullRequestWorkspace('feature/cart');
    // The job checks the project out at <root>/test/work: npm's lockfile names its links from there.
    shop.headSha = shop.checkout.commit('cart', jestProjectFiles(join(gateRoot(), 'test', 'work')));
    shop.checkout.git('push', '-q', 'origin', 'HEAD:refs/heads/feature/cart');
    const [owner, name] = REPO.split('/') as [string, string];
    const seed = quarantineSyncsWhenOffline({ host: 'github.com', owner, name });
    expect((await emu.control('POST', '/flaky-tests', seed)).status).toBe(200);
  });
  afterAll(() => shop.remove());

  it(
    'npm ci and jest as pasted: the quarantined failure passes, the new one turns the job red, the reports are kept',
    async () => {
      const event = pullRequestEvent('synchronize', 41);
      (event.payload.pull_request as { head: { sha: string } }).head.sha = shop.headSha;
      const jobs = await runWorkflow(
        readFileSync('examples/check-test-results.yml', 'utf8'),
        { ...event, sha: shop.headSha },
        {
          repository: REPO,
          origin: join(shop.parent, 'origin.git'),
          secrets: { TRUNK_API_TOKEN: TEST_TOKEN },
          root: gateRoot(),
          actionInputs: { 'api-url': emu.current.url },
        },
      );
      // checkout, npm ci, jest (failed, continue-on-error), upload-artifact, the gate (failed).
      expect(results(jobs)).toEqual(['test: failure (success, success, failure, success, failure)']);
      expect(jobs[0]!.steps[4]!.outputs).toMatchObject({ 'failed-count': '2', 'step-failing-count': '1' });
      expect(jobs[0]!.summary).toContain('Cart expires after a timeout');
      expect(readdirSync(join(gateRoot(), 'artifacts', 'junit-reports'))).toEqual(['junit.xml']);
    },
    TIMEOUT_MS,
  );
});

describe("docs/api-v2.md's step, over the service's v2 API", () => {
  it('reprioritizes the PR of the event to urgent with a v2 key', async () => {
    // The queue was paused above: the PR waits in it instead of merging at once.
    await queue.submit(51);
    const snippet = block('docs/api-v2.md', 'operation: reprioritize-pull-request');
    const jobs = await run(asJob(snippet, 'pull_request'), pullRequestEvent('synchronize', 51), {
      TRUNK_V2_KEY: emu.v2Key,
    });
    expect(results(jobs)).toEqual(['snippet: success (success)']);
    expect(warnings(jobs)).toEqual([]);
    expect(await queue.pr(51)).toMatchObject({ priorityName: expect.stringMatching(/^urgent$/i) });
  });
});

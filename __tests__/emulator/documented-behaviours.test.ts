// The merge queue's documented behaviours, scenario by scenario over HTTP: each drives a queue through the
// API and the control surface, then checks the PRs' states, the webhooks in the order they were sent and
// their payloads against the service's webhook schemas. emulator/README.md lists each behaviour with the
// scenario here that shows it.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startEmulator } from '../../emulator/server.js';
import { QueueDriver, request, useEmulator } from '../helpers/emulator.js';
import { webhookProblem } from '../helpers/openapi.js';
import { Receiver, registerWebhook } from '../helpers/webhook-receiver.js';

const emu = useEmulator();
const receiver = new Receiver();
let repoCount = 0;

beforeAll(async () => {
  await receiver.start();
  await registerWebhook(emu, receiver.url);
});
afterAll(() => receiver.stop());

async function freshQueue(settings: Record<string, unknown> = {}): Promise<QueueDriver> {
  const driver = new QueueDriver(emu, `documented/repo-${++repoCount}`);
  await driver.create(settings);
  return driver;
}

type Payload = Record<string, unknown> & { type: string };

/** The webhooks this queue's repository received, in order, each checked against the spec's schema. */
async function webhooksOf(queue: QueueDriver): Promise<Payload[]> {
  await emu.current.webhooks.idle();
  const payloads = receiver.received
    .map((r) => r.payload)
    .filter((p) => (p.repository as { name?: string } | undefined)?.name === queue.repo.name);
  expect(payloads.map((p) => webhookProblem(p)).filter(Boolean)).toEqual([]);
  return payloads;
}

/** One PR's events as `action:reason` (or the action alone when it carries no reason). */
async function prEvents(queue: QueueDriver, pr: number): Promise<string[]> {
  return (await webhooksOf(queue))
    .filter((p) => p.type.startsWith('pull_request.') && p.pr_number === pr)
    .map((p) => withReason(p));
}

/** The batch events as `action:pr_numbers_in_batch`. */
async function batchEvents(queue: QueueDriver): Promise<string[]> {
  return (await webhooksOf(queue))
    .filter((p) => p.type.startsWith('pull_request_batch.'))
    .map((p) => `${String(p.action)}:${(p.pr_numbers_in_batch as number[]).join(',')}`);
}

function withReason(payload: Payload): string {
  const reason =
    payload.submitted_reason ??
    payload.queued_reason ??
    payload.failure_reason ??
    payload.merged_reason ??
    payload.cancellation_reason;
  return reason === undefined ? String(payload.action) : `${String(payload.action)}:${String(reason)}`;
}

async function runsOf(queue: QueueDriver, kind: 'main' | 'bisection'): Promise<number[][]> {
  return (await queue.history())
    .filter((e) => e.kind === 'run' && e.status === 'in_progress' && e.runKind === kind)
    .map((e) => e.prNumbers!);
}

describe('pending failure', () => {
  it('keeps a failed PR in pending failure until the PR ahead finishes, even at depth 0, then fails it', async () => {
    const queue = await freshQueue({ concurrency: 2 });
    await queue.ci(1, { durationMinutes: 10 });
    await queue.ci(2, { outcome: 'fail', durationMinutes: 5 });
    await queue.submit(1);
    await queue.submit(2);
    await queue.advance(5);
    expect(await queue.states(1, 2)).toEqual({ 1: 'testing', 2: 'pending_failure' });
    await queue.advance(5);
    expect(await queue.states(1, 2)).toEqual({ 1: 'merged', 2: 'failed' });
    expect(await prEvents(queue, 2)).toEqual([
      'submitted:API_REQUESTED',
      'queued:MERGE_ITEM_NOW_READY',
      'testing',
      'pending_failure:TEST_RUN_REQUIRED_STATUS_FAILED',
      'failed:TEST_RUN_REQUIRED_STATUS_FAILED',
    ]);
  });

  it('tests a failed PR again when the PR ahead of it turns out to be the cause', async () => {
    const queue = await freshQueue({ concurrency: 2 });
    await queue.ci(1, { outcome: 'fail', durationMinutes: 10 });
    await queue.ci(2, { durationMinutes: 5 });
    await queue.submit(1);
    await queue.submit(2);
    await queue.advance(5);
    // PR 2 was tested on top of PR 1's broken change.
    expect(await queue.states(1, 2)).toEqual({ 1: 'testing', 2: 'pending_failure' });
    await queue.runUntilIdle();
    expect(await queue.states(1, 2)).toEqual({ 1: 'failed', 2: 'merged' });
    expect(await prEvents(queue, 2)).toEqual([
      'submitted:API_REQUESTED',
      'queued:MERGE_ITEM_NOW_READY',
      'testing',
      'pending_failure:TEST_RUN_REQUIRED_STATUS_FAILED',
      'queued:PREREQUISITE_MERGE_ITEM_FAILED',
      'testing',
      'merged:MERGE_GRAPH_MERGE',
    ]);
  });

  it('fails a PR with nothing ahead at once at depth 0, after its timeout of 5 hours when CI never reports', async () => {
    const queue = await freshQueue();
    await queue.ci(1, { outcome: 'hang' });
    await queue.submit(1);
    await queue.advance(299);
    expect(await queue.state(1)).toBe('testing');
    await queue.advance(1);
    expect(await queue.state(1)).toBe('failed');
    expect((await prEvents(queue, 1)).slice(-2)).toEqual([
      'pending_failure:TEST_RUN_TIMEOUT',
      'failed:TEST_RUN_TIMEOUT',
    ]);
  });
});

describe('batches', () => {
  it('puts a failed batch through pending failure before bisecting it, with the batch webhooks', async () => {
    const queue = await freshQueue({ batch: true, batchingMinSize: 2 });
    await queue.ci(2, { outcome: 'fail' });
    await queue.submit(1);
    await queue.submit(2);
    await queue.runUntilIdle();
    expect(await queue.states(1, 2)).toEqual({ 1: 'merged', 2: 'failed' });
    expect(await batchEvents(queue)).toEqual([
      'submitted:1,2',
      'queued:1,2',
      'testing:1,2',
      'pending_failure:1,2',
      'failed:1,2',
    ]);
    expect((await prEvents(queue, 1)).slice(0, 6)).toEqual([
      'submitted:API_REQUESTED',
      'queued:MERGE_ITEM_NOW_READY',
      'testing',
      'pending_failure:TEST_RUN_REQUIRED_STATUS_FAILED',
      'queued:BISECTION_REQUIRED',
      'testing',
    ]);
    const failed = (await webhooksOf(queue)).find((p) => p.type === 'pull_request_batch.pending_failure')!;
    expect(failed).toMatchObject({ failure_reason: 'TEST_RUN_REQUIRED_STATUS_FAILED', pr_numbers: [1, 2] });
  });

  it('merges a batch that failed by a flake when a run built on top of it passes (anti-flake protection)', async () => {
    const queue = await freshQueue({
      batch: true,
      batchingMinSize: 2,
      concurrency: 2,
      pendingFailureDepth: 1,
      canOptimisticallyMerge: true,
    });
    await queue.ci(1, { outcome: 'flaky', flakyFailures: 1, durationMinutes: 5 });
    await queue.ci(3, { durationMinutes: 10 });
    await queue.submit(1);
    await queue.submit(2);
    await queue.submit(3, { noBatch: true });
    await queue.advance(5);
    expect(await queue.states(1, 2, 3)).toEqual({ 1: 'pending_failure', 2: 'pending_failure', 3: 'testing' });
    await queue.runUntilIdle();
    expect(await queue.mergeOrder()).toEqual([1, 2, 3]);
    expect(await runsOf(queue, 'bisection')).toEqual([]);
    expect(await batchEvents(queue)).toEqual([
      'submitted:1,2',
      'queued:1,2',
      'testing:1,2',
      'pending_failure:1,2',
      'merged:1,2',
    ]);
  });
});

describe('bisection', () => {
  it('tests the second half on top of the first, both at once, as many as the testing concurrency', async () => {
    const queue = await freshQueue({ batch: true, concurrency: 2 });
    await queue.ci(4, { outcome: 'fail' });
    for (const pr of [1, 2, 3, 4]) await queue.submit(pr);
    await queue.advance(5);
    await queue.advance(1);
    const bisectionRuns = (await queue.history()).filter(
      (e) => e.kind === 'run' && e.runKind === 'bisection' && e.status === 'in_progress',
    );
    expect(bisectionRuns.map((e) => e.prNumbers)).toEqual([
      [1, 2],
      [3, 4],
    ]);
    const details = await queue.testingDetails(bisectionRuns[1]!.runId!);
    expect(details.json).toMatchObject({ dependentPrs: [1, 2], status: 'in_progress' });
    await queue.runUntilIdle();
    expect(await queue.states(1, 2, 3, 4)).toEqual({ 1: 'merged', 2: 'merged', 3: 'merged', 4: 'failed' });
  });

  it('with bisection_skip_redundant_tests, fails the last PR by the failure it would repeat', async () => {
    const queue = await freshQueue({
      batch: true,
      batchingMinSize: 2,
      optimizationMode: 'bisection_skip_redundant_tests',
    });
    await queue.ci(2, { outcome: 'fail' });
    await queue.submit(1);
    await queue.submit(2);
    await queue.runUntilIdle();
    expect(await queue.states(1, 2)).toEqual({ 1: 'merged', 2: 'failed' });
    // PR 2 on top of PR 1 is the batch that failed: never run, its failure reused.
    expect(await runsOf(queue, 'bisection')).toEqual([[1]]);
    expect((await prEvents(queue, 2)).slice(-2)).toEqual([
      'pending_failure:TEST_RUN_FAILED_BY_OPTIMIZATION',
      'failed:TEST_RUN_FAILED_BY_OPTIMIZATION',
    ]);
  });
});

describe("a new queue's settings", () => {
  it("are the service's, with the bisection concurrency following the testing concurrency", async () => {
    const repo = { host: 'github.com', owner: 'documented', name: 'defaults' };
    expect((await emu.api('/createQueue', { repo, targetBranch: 'main', concurrency: 3 })).status).toBe(200);
    const queue = await emu.api<Record<string, unknown>>('/getQueue', { repo, targetBranch: 'main' });
    expect(queue.json).toMatchObject({
      concurrency: 3,
      testingTimeoutMinutes: 300,
      pendingFailureDepth: 0,
      directMergeMode: 'always',
      batch: false,
      batchingMaxWaitTimeMinutes: 5,
      batchingMinSize: 4,
      bisectionConcurrency: 3,
    });
    const raised = await emu.api<Record<string, unknown>>('/updateQueue', {
      repo,
      targetBranch: 'main',
      concurrency: 5,
    });
    expect(raised.json).toMatchObject({ concurrency: 5, bisectionConcurrency: 5 });
    const own = await emu.api<Record<string, unknown>>('/updateQueue', {
      repo,
      targetBranch: 'main',
      bisectionConcurrency: 2,
      concurrency: 6,
    });
    expect(own.json).toMatchObject({ concurrency: 6, bisectionConcurrency: 2 });
  });

  it('refuses a second queue for the same branch with 409 and the documented text', async () => {
    const repo = { host: 'github.com', owner: 'documented', name: 'twice' };
    expect((await emu.api('/createQueue', { repo, targetBranch: 'release/v2' })).status).toBe(200);
    const again = await emu.api('/createQueue', { repo, targetBranch: 'release/v2' });
    expect([again.status, again.text]).toEqual([
      409,
      'A merge queue already exists for branch "release/v2" in this repository',
    ]);
  });

  it('refuses pendingFailureDepth 0 in a request, as the OpenAPI document does (minimum 1)', async () => {
    const queue = await freshQueue();
    const answer = await queue.update({ pendingFailureDepth: 0 });
    expect(answer.status).toBe(400);
    expect((await queue.queue()).pendingFailureDepth).toBe(0);
  });
});

describe('direct merge', () => {
  it('merges a PR based on the tip into an empty queue at once, untested; tests one based on an older tip', async () => {
    const queue = await freshQueue();
    const tip = await emu.control<{ tipSha: string }>('POST', '/target-branch/merge', {
      repo: queue.repo,
      targetBranch: 'main',
      sha: 'tip-1',
    });
    expect(tip.json).toEqual({ tipSha: 'tip-1' });
    await queue.setPr(1, { baseSha: 'tip-1' });
    await queue.setPr(2, { baseSha: 'tip-1' });
    await queue.submit(1);
    expect(await queue.state(1)).toBe('merged');
    expect(await prEvents(queue, 1)).toEqual([
      'submitted:API_REQUESTED',
      'queued:MERGE_ITEM_NOW_READY',
      'merged:MERGE_GRAPH_DIRECT_MERGE',
    ]);
    expect(await runsOf(queue, 'main')).toEqual([]);
    // PR 1's merge moved the tip: PR 2 is based on an older one and is tested.
    await queue.submit(2);
    expect(await queue.state(2)).toBe('testing');
  });

  it('merges a PR based on the tip directly when nobody told the tip: the base the code host gave is it', async () => {
    const queue = await freshQueue();
    await queue.setPr(1, { baseSha: 'base-1' });
    await queue.setPr(2, { baseSha: 'base-1' });
    await queue.submit(1);
    expect(await queue.state(1)).toBe('merged');
    expect((await prEvents(queue, 1)).at(-1)).toBe('merged:MERGE_GRAPH_DIRECT_MERGE');
    expect(await runsOf(queue, 'main')).toEqual([]);
    await queue.submit(2);
    expect(await queue.state(2)).toBe('testing');
    // Nothing told of its base, a PR is tested.
    const untold = await freshQueue();
    await untold.submit(1);
    expect(await untold.state(1)).toBe('testing');
  });

  it('tests every PR when direct merge is off, and fails a direct merge the code host refuses', async () => {
    const off = await freshQueue({ directMergeMode: 'off' });
    await emu.control('POST', '/target-branch/merge', {
      repo: off.repo,
      targetBranch: 'main',
      sha: 'tip-a',
    });
    await off.setPr(1, { baseSha: 'tip-a' });
    await off.submit(1);
    expect(await off.state(1)).toBe('testing');

    const refused = await freshQueue();
    await emu.control('POST', '/target-branch/merge', {
      repo: refused.repo,
      targetBranch: 'main',
      sha: 'tip-b',
    });
    await refused.setPr(1, { baseSha: 'tip-b', mergeRefusal: 'merge_failed' });
    await refused.submit(1);
    expect(await refused.state(1)).toBe('failed');
    expect((await prEvents(refused, 1)).at(-1)).toBe('failed:GITHUB_API_DIRECT_MERGE_PR_FAILED');
  });
});

describe('queue states', () => {
  it('a paused queue admits no PR; resumed, it admits and tests them', async () => {
    const queue = await freshQueue();
    expect((await queue.update({ state: 'paused' })).status).toBe(200);
    await queue.submit(1);
    await queue.advance(30);
    expect(await queue.state(1)).toBe('not_ready');
    expect((await queue.queue()).enqueuedPullRequests).toEqual([]);
    expect(await prEvents(queue, 1)).toEqual(['submitted:API_REQUESTED']);
    await queue.update({ state: 'running' });
    expect(await queue.state(1)).toBe('testing');
    expect(await prEvents(queue, 1)).toEqual([
      'submitted:API_REQUESTED',
      'queued:MERGE_ITEM_NOW_READY',
      'testing',
    ]);
  });

  it('switching modes behaves like draining: the line is tested, no new PR enters', async () => {
    const queue = await freshQueue({ concurrency: 2 });
    await queue.ci(1, { durationMinutes: 10 });
    await queue.ci(2, { durationMinutes: 20 });
    for (const pr of [1, 2, 3]) await queue.submit(pr);
    await queue.advance(1);
    expect((await queue.update({ mode: 'parallel' })).json).toMatchObject({ state: 'switching_modes' });
    await queue.submit(4);
    await queue.advance(10);
    // PR 1 merged and freed a slot: PR 3, already in line, is tested while the switch waits.
    expect(await queue.states(1, 2, 3, 4)).toEqual({
      1: 'merged',
      2: 'testing',
      3: 'testing',
      4: 'not_ready',
    });
    expect((await queue.queue()).state).toBe('switching_modes');
    await queue.runUntilIdle();
    expect(await queue.queue()).toMatchObject({ state: 'running', mode: 'parallel' });
    expect(await queue.mergeOrder()).toEqual([1, 2, 3]);
  });
});

describe('parallel lanes', () => {
  it('serializes a PR with no impacted targets behind an ALL PR', async () => {
    const queue = await freshQueue({ mode: 'parallel', concurrency: 2 });
    await queue.ci(1, { durationMinutes: 10 });
    await queue.ci(2, { durationMinutes: 5 });
    await queue.targets(1, 'sha-1', 'ALL');
    await queue.targets(2, 'sha-2', []);
    await queue.submit(1);
    await queue.submit(2);
    const run = (await queue.pr(2)).verifiedByTestRun as string;
    expect((await queue.testingDetails(run)).json).toMatchObject({ dependentPrs: [1] });
    await queue.advance(5);
    expect(await queue.states(1, 2)).toEqual({ 1: 'testing', 2: 'tests_passed' });
    await queue.runUntilIdle();
    expect(await queue.mergeOrder()).toEqual([1, 2]);
  });
});

describe('outside events', () => {
  it('a merge into the target branch from outside restarts everything testing on the new tip', async () => {
    const queue = await freshQueue({ concurrency: 2 });
    await queue.ci(1, { durationMinutes: 10 });
    await queue.ci(2, { durationMinutes: 5 });
    await queue.submit(1);
    await queue.submit(2);
    await queue.advance(6);
    expect(await queue.states(1, 2)).toEqual({ 1: 'testing', 2: 'tests_passed' });
    const merged = await emu.control('POST', '/target-branch/merge', {
      repo: queue.repo,
      targetBranch: 'main',
    });
    expect(merged.json).toEqual({ tipSha: expect.stringMatching(/^[0-9a-f]{40}$/) });
    expect(await queue.states(1, 2)).toEqual({ 1: 'testing', 2: 'testing' });
    await queue.runUntilIdle();
    expect(await queue.mergeOrder()).toEqual([1, 2]);
    expect(await prEvents(queue, 2)).toEqual([
      'submitted:API_REQUESTED',
      'queued:MERGE_ITEM_NOW_READY',
      'testing',
      'queued:MANUAL_PUSH_TO_TARGET_BRANCH',
      'testing',
      'merged:MERGE_GRAPH_MERGE',
    ]);
  });

  it('can be rehearsed from a scenario file: a direct merge at the start, an outside merge at minute 5', async () => {
    const emulator = await startEmulator({
      scenario: {
        queues: [{ repo: 'rehearse/app', targetBranch: 'main' }],
        targetBranchMerges: [
          { repo: 'rehearse/app', targetBranch: 'main', sha: 'tip-0' },
          { repo: 'rehearse/app', targetBranch: 'main', atMinute: 5 },
        ],
        pullRequests: [
          { repo: 'rehearse/app', number: 1, baseSha: 'tip-0', submit: { targetBranch: 'main' } },
          { repo: 'rehearse/app', number: 2, submit: { targetBranch: 'main', atMinute: 1 } },
        ],
      },
    });
    try {
      const ref = { repo: { host: 'github.com', owner: 'rehearse', name: 'app' }, targetBranch: 'main' };
      const state = async (pr: number) =>
        (
          await request<{ state: string }>(
            `${emulator.url}/getSubmittedPullRequest`,
            'POST',
            { ...ref, pr: { number: pr } },
            { 'x-api-token': emulator.token },
          )
        ).json.state;
      expect(await state(1)).toBe('merged');
      emulator.engine.runUntilIdle(60 * 60_000);
      expect(await state(2)).toBe('merged');
      const reasons = emulator.engine.history
        .filter((e) => e.kind === 'pr_state' && e.queueKey.includes('rehearse/app'))
        .map((e) => (e.kind === 'pr_state' ? `${e.prNumber} ${e.to} ${e.reason ?? ''}`.trim() : ''));
      expect(reasons).toEqual([
        '1 not_ready API_REQUESTED',
        '1 pending MERGE_ITEM_NOW_READY',
        '1 merged MERGE_GRAPH_DIRECT_MERGE',
        '2 not_ready API_REQUESTED',
        '2 pending MERGE_ITEM_NOW_READY',
        '2 testing',
        '2 pending MANUAL_PUSH_TO_TARGET_BRANCH',
        '2 testing',
        '2 tests_passed',
        '2 merged MERGE_GRAPH_MERGE',
      ]);
    } finally {
      await emulator.close();
    }
  });

  it('a merge conflict or a draft PR fails its test run at the start, with their reasons', async () => {
    const queue = await freshQueue({ concurrency: 2 });
    await queue.setPr(1, { mergeConflict: true });
    await queue.setPr(2, { draft: true });
    await queue.submit(1);
    await queue.submit(2);
    await queue.advance(1);
    expect(await queue.states(1, 2)).toEqual({ 1: 'failed', 2: 'failed' });
    expect((await prEvents(queue, 1)).at(-1)).toBe('failed:START_TEST_RUN_MERGE_CONFLICT');
    expect((await prEvents(queue, 2)).at(-1)).toBe('failed:START_TEST_RUN_DRAFT_PRS_NOT_ALLOWED');
  });

  it('a PR turned draft while queued is cancelled', async () => {
    const queue = await freshQueue();
    await queue.submit(1);
    await queue.setPr(1, { draft: true });
    expect(await queue.state(1)).toBe('cancelled');
    expect((await prEvents(queue, 1)).at(-1)).toBe('canceled:PR_CONVERTED_TO_DRAFT');
  });

  it('a merge the code host refuses fails the PR and restarts the runs built on top of it', async () => {
    const queue = await freshQueue({ concurrency: 2 });
    await queue.setPr(1, { mergeRefusal: 'merge_failed' });
    await queue.setPr(3, { mergeRefusal: 'updated_at_merge' });
    for (const pr of [1, 2, 3]) await queue.submit(pr);
    await queue.runUntilIdle();
    expect(await queue.states(1, 2, 3)).toEqual({ 1: 'failed', 2: 'merged', 3: 'failed' });
    expect((await prEvents(queue, 1)).at(-1)).toBe('failed:GITHUB_API_MERGE_PR_FAILED');
    expect(await prEvents(queue, 2)).toContain('queued:PREREQUISITE_MERGE_ITEM_FAILED');
    expect((await prEvents(queue, 3)).at(-1)).toBe('failed:PR_UPDATED_AT_MERGE_TIME');
  });
});

describe('smaller points', () => {
  it('names the test branch draft PR (test_pr_number) while createPrsForTestingBranches is on', async () => {
    const queue = await freshQueue();
    await queue.submit(1);
    const testing = (await webhooksOf(queue)).find((p) => p.type === 'pull_request.testing')!;
    expect(testing.test_pr_number).toEqual(expect.any(Number));
    const off = await freshQueue({ createPrsForTestingBranches: false });
    await off.submit(1);
    const plain = (await webhooksOf(off)).find((p) => p.type === 'pull_request.testing')!;
    expect(plain).not.toHaveProperty('test_pr_number');
  });

  it('takes targets for a new sha of a queued PR as its push, unless the code host told its head sha', async () => {
    const queue = await freshQueue({ mode: 'parallel' });
    await queue.targets(1, 'sha-old', ['//a']);
    await queue.submit(1);
    await queue.targets(1, 'sha-new', ['//a']);
    expect(await queue.pr(1)).toMatchObject({ prSha: 'sha-new', state: 'cancelled' });
    expect((await prEvents(queue, 1)).at(-1)).toBe('canceled:PR_PUSHED_TO');
    // A late upload for a sha seen before moves nothing.
    await queue.submit(1);
    await queue.targets(1, 'sha-old', ['//a']);
    expect(await queue.pr(1)).toMatchObject({ prSha: 'sha-new', state: 'testing' });
    // Once the code host told the head sha, it tells of pushes: an upload for another sha is a late one.
    await queue.setPr(2, { headSha: 'sha-told' });
    await queue.targets(2, 'sha-told', ['//b']);
    await queue.submit(2);
    await queue.targets(2, 'sha-earlier', ['//b']);
    expect(await queue.pr(2)).toMatchObject({ prSha: 'sha-told', state: 'pending' });
  });
});

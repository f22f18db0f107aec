// One engine behind both APIs: a PR submitted over v1 is seen over v2 with its state, entry and history,
// a PR taken out over v2 is cancelled for v1, and v2's dispatch order is the engine's real line (what is
// directly ahead of a PR, and which failure holds it).
import { beforeAll, describe, expect, it } from '@jest/globals';
import type { V2 } from '../../../src/wire/v2/index.js';
import { QueueDriver, useEmulator } from '../../helpers/emulator.js';
import { V2Calls } from '../../helpers/v2-calls.js';

const emulator = useEmulator({ v2RateLimits: false });
const v2 = new V2Calls(emulator);

async function idsOf(repo: string, branch: string): Promise<{ repositoryId: string; queueId: string }> {
  const repos = await v2.ok<V2<'RepositoryList'>>('repositories.resolveByProviderUrl', {
    query: { providerUrl: `https://github.com/${repo}` },
  });
  const repositoryId = repos.data[0]!.id;
  const queues = await v2.ok<V2<'MergeQueueList'>>('mergeQueues.list', {
    query: { repositoryId, targetBranch: branch },
  });
  return { repositoryId, queueId: queues.data[0]!.id };
}

async function prOf(repositoryId: string, number: number): Promise<V2<'PullRequest'>> {
  const list = await v2.ok<V2<'PullRequestList'>>('pullRequests.resolveByCoordinates', {
    query: { repositoryId, number: String(number) },
  });
  return list.data[0]!;
}

describe('a PR submitted over v1, read over v2', () => {
  const queue = new QueueDriver(emulator, 'acme/one');
  let repositoryId = '';

  beforeAll(async () => {
    await queue.create({ concurrency: 1 });
    await queue.ci(undefined, { outcome: 'pass', durationMinutes: 10 });
    await queue.setPr(10, {
      title: 'Add login',
      author: 'ana',
      headSha: 'c0ffee'.padEnd(40, '0'),
      branch: 'login',
    });
    await queue.submit(10, { priority: 'high' });
    ({ repositoryId } = await idsOf('acme/one', 'main'));
  });

  it('has the same entry, state and run as v1 says', async () => {
    const v1 = await queue.pr(10);
    const pr = await prOf(repositoryId, 10);
    expect(pr).toMatchObject({
      number: 10,
      title: 'Add login',
      author: 'ana',
      branch: 'login',
      baseBranch: 'main',
    });
    expect(pr.queueEntry).toMatchObject({
      id: v1.id,
      state: 'testing',
      priorityName: 'high',
      readiness: { mergeability: 'mergeable', doesBaseBranchMatch: true },
    });
  });

  it('shows its history with v2 states and reasons, the run it tested in, and no actor', async () => {
    await queue.advance(10);
    expect(await queue.state(10)).toBe('merged');
    const pr = await prOf(repositoryId, 10);
    const history = await v2.ok<V2<'QueueEntryHistoryList'>>('pullRequests.queueEntryHistory', {
      path: { id: pr.id },
    });
    expect(history.data.map((t) => [t.state, t.reason])).toEqual([
      ['notReady', 'API_REQUESTED'],
      ['pending', 'MERGE_ITEM_NOW_READY'],
      ['testing', null],
      ['testsPassed', 'TEST_RUN_PASSED'],
      ['merged', 'MERGE_GRAPH_MERGE'],
    ]);
    expect(history.data[2]!.verificationRunId).toBe(pr.queueEntry!.verifiedByVerificationRunId);
    expect(pr.queueEntry!.verifiedByVerificationRunId).toBe((await queue.pr(10)).verifiedByTestRun);
    expect(history.data.every((t) => t.actor === undefined)).toBe(true);
    const run = await v2.ok<V2<'VerificationRun'>>('mergeQueueVerificationRuns.get', {
      path: { id: history.data[2]!.verificationRunId! },
    });
    expect(run).toMatchObject({
      status: 'succeeded',
      testedPullRequests: [expect.objectContaining({ number: 10, id: pr.id })],
    });
  });
});

describe('a PR taken out over v2, read over v1', () => {
  const queue = new QueueDriver(emulator, 'acme/two');

  it('is cancelled for v1, by the user', async () => {
    await queue.create({ concurrency: 1 });
    const { queueId } = await idsOf('acme/two', 'main');
    const submitted = await v2.ok<V2<'PullRequest'>>('mergeQueues.submitPullRequest', {
      path: { id: queueId },
      body: { number: 30 },
    });
    expect(await queue.state(30)).toBe('testing');
    await v2.ok('pullRequests.dequeue', { path: { id: submitted.id } });
    expect(await queue.state(30)).toBe('cancelled');
    const last = (await queue.history()).filter((e) => e.kind === 'pr_state').pop();
    expect(last).toMatchObject({ to: 'cancelled', reason: 'USER_REQUESTED' });
  });
});

describe('the dispatch order of a real queue', () => {
  const queue = new QueueDriver(emulator, 'acme/three');
  let queueId = '';
  const name = (pr: { number: number }) => pr.number;

  beforeAll(async () => {
    await queue.create({ concurrency: 2, pendingFailureDepth: 1 });
    await queue.ci(undefined, { outcome: 'pass', durationMinutes: 30 });
    await queue.ci(20, { outcome: 'fail', durationMinutes: 5 });
    for (const pr of [20, 21, 22, 23]) await queue.submit(pr);
    ({ queueId } = await idsOf('acme/three', 'main'));
  });

  it('lists the runs, then each waiting PR, with nothing directly ahead as batching is off', async () => {
    const order = await v2.ok<V2<'MergeQueueOrder'>>('mergeQueues.order', { path: { id: queueId } });
    expect(order.batches.map((b) => [b.state, b.pullRequests.map(name)])).toEqual([
      ['testing', [20]],
      ['testing', [21]],
    ]);
    expect(
      order.pending.map((p) => [name(p.pullRequest), p.directlyAhead.map(name), p.schedulability]),
    ).toEqual([
      [22, [], 'schedulable'],
      [23, [], 'schedulable'],
    ]);
  });

  it('holds the PRs behind a failed PR whose failure is not settled, naming it', async () => {
    await queue.advance(5);
    expect(await queue.states(20, 21, 22, 23)).toEqual({
      20: 'pending_failure',
      21: 'testing',
      22: 'testing',
      23: 'pending',
    });
    const order = await v2.ok<V2<'MergeQueueOrder'>>('mergeQueues.order', { path: { id: queueId } });
    expect(order.batches.map((b) => [b.state, b.pullRequests.map(name)])).toEqual([
      ['pendingFailure', [20]],
      ['testing', [21]],
      ['testing', [22]],
    ]);
    expect(order.pending).toEqual([
      expect.objectContaining({
        pullRequest: expect.objectContaining({ number: 23 }),
        schedulability: 'heldBehindFailure',
        directlyAhead: [],
        heldBy: [expect.objectContaining({ number: 20 })],
      }),
    ]);
  });

  it("leaves PRs not yet ready out of every list, so that its lists joined are v1's queue", async () => {
    await queue.setPr(24, { mergeability: 'not_mergeable' });
    await queue.submit(24);
    const order = await v2.ok<V2<'MergeQueueOrder'>>('mergeQueues.order', { path: { id: queueId } });
    expect([order.awaitingAdmission.map(name), order.awaitingAdmissionTotal]).toEqual([[], 0]);
    const joined = [
      ...order.batches.flatMap((b) => b.pullRequests),
      ...order.pending.map((p) => p.pullRequest),
    ];
    const v1 = await queue.queue();
    expect(joined.map(name)).toEqual(v1.enqueuedPullRequests.map((pr) => pr.prNumber));
  });
});

describe('a v2 submit whose answer is lost', () => {
  const queue = new QueueDriver(emulator, 'acme/four');

  it('was done: reading it back shows the entry, and sending it again is refused as already enqueued', async () => {
    await queue.create({ concurrency: 1 });
    const { repositoryId, queueId } = await idsOf('acme/four', 'main');
    const path = `/v2/merge-queues/${queueId}/pull-requests`;
    const planned = await emulator.control('POST', '/faults', {
      path,
      faults: [{ kind: 'reset', afterHandling: true }],
    });
    expect(planned.status).toBe(200);
    await expect(
      v2.call('mergeQueues.submitPullRequest', { path: { id: queueId }, body: { number: 40 } }),
    ).rejects.toThrow();
    const readBack = await prOf(repositoryId, 40);
    expect(readBack.queueEntry?.state).toBe('testing');
    expect(
      await v2.refused('mergeQueues.submitPullRequest', 409, { path: { id: queueId }, body: { number: 40 } }),
    ).toBe('PR_ALREADY_ENQUEUED');
  });
});

describe('the dispatch order of a batching queue', () => {
  const queue = new QueueDriver(emulator, 'acme/five');

  it('tests a batch as one run, and predicts the batches of the PRs waiting', async () => {
    await queue.create({ concurrency: 1, batch: true, batchingMinSize: 2 });
    for (const pr of [50, 51, 52, 53, 54]) await queue.submit(pr);
    const { queueId } = await idsOf('acme/five', 'main');
    const order = await v2.ok<V2<'MergeQueueOrder'>>('mergeQueues.order', { path: { id: queueId } });
    expect(order.batchingEnabled).toBe(true);
    expect(order.batches.map((b) => b.pullRequests.map((p) => p.number))).toEqual([[50, 51]]);
    expect(order.pending.map((p) => [p.pullRequest.number, p.predictedBatch])).toEqual([
      [52, 1],
      [53, 1],
      [54, 2],
    ]);
  });
});

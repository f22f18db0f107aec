// The v2 documents' behaviours, scenario by scenario over HTTP: each drives a queue through v2 (and the
// control surface for what the code host and CI would do) and checks what v2 answers, every answer
// validated against the document. emulator/README.md lists each behaviour with its scenario here.
import { describe, expect, it } from '@jest/globals';
import type { V2 } from '../../../src/wire/v2/index.js';
import { bucketOf } from '../../../emulator/v2/rate-limit.js';
import { QueueDriver, request, useEmulator } from '../../helpers/emulator.js';
import { V2Calls } from '../../helpers/v2-calls.js';

const emulator = useEmulator({ v2RateLimits: false });
const v2 = new V2Calls(emulator);
let repoCount = 0;

interface Scenario {
  queue: QueueDriver;
  repositoryId: string;
  queueId: string;
  submit(number: number, body?: Record<string, unknown>): Promise<V2<'PullRequest'>>;
  read(number: number): Promise<V2<'PullRequest'>>;
  history(number: number): Promise<V2<'QueueEntryStateTransition'>[]>;
}

/** A new repository with a queue made with `settings`, its PRs' CI as `ci`. */
async function scenario(
  settings: Record<string, unknown> = {},
  ci: Record<string, unknown> = { durationMinutes: 10 },
): Promise<Scenario> {
  const name = `twin/v2-${++repoCount}`;
  const queue = new QueueDriver(emulator, name);
  await queue.create(settings);
  await queue.ci(undefined, ci);
  const repos = await v2.ok<V2<'RepositoryList'>>('repositories.resolveByProviderUrl', {
    query: { providerUrl: `https://github.com/${name}` },
  });
  const repositoryId = repos.data[0]!.id;
  const queues = await v2.ok<V2<'MergeQueueList'>>('mergeQueues.list', {
    query: { repositoryId, targetBranch: 'main' },
  });
  const queueId = queues.data[0]!.id;
  const read = async (number: number) => {
    const list = await v2.ok<V2<'PullRequestList'>>('pullRequests.resolveByCoordinates', {
      query: { repositoryId, number: String(number) },
    });
    return list.data[0]!;
  };
  return {
    queue,
    repositoryId,
    queueId,
    read,
    submit: (number, body = {}) =>
      v2.ok<V2<'PullRequest'>>('mergeQueues.submitPullRequest', {
        path: { id: queueId },
        body: { number, ...body },
      }),
    history: async (number) =>
      (
        await v2.ok<V2<'QueueEntryHistoryList'>>('pullRequests.queueEntryHistory', {
          path: { id: (await read(number)).id },
          query: { limit: 100 },
        })
      ).data,
  };
}

describe('priorities', () => {
  it('applies a priority raised on a queued entry only when it is next placed, restarting nothing', async () => {
    const { queue, submit, read, history } = await scenario({ concurrency: 1 });
    await submit(1);
    await submit(2);
    await submit(3);
    expect(await queue.states(1, 2, 3)).toEqual({ 1: 'testing', 2: 'pending', 3: 'pending' });
    const raised = await v2.ok<V2<'PullRequest'>>('pullRequests.reprioritize', {
      path: { id: (await read(3)).id },
      body: { priorityName: 'urgent' },
    });
    expect(raised.queueEntry).toMatchObject({ priorityValue: 0, skipsTheLine: true, state: 'pending' });
    expect(await queue.states(1, 2, 3)).toEqual({ 1: 'testing', 2: 'pending', 3: 'pending' });
    expect((await history(1)).map((t) => t.reason)).not.toContain('SKIP_THE_LINE_INTERRUPTED');
    await queue.advance(10);
    expect(await queue.states(1, 2, 3)).toEqual({ 1: 'merged', 2: 'testing', 3: 'pending' });
  });

  it('lets an entry raised to urgent while not ready interrupt the runs behind it when it enters', async () => {
    const { queue, submit, read } = await scenario({ concurrency: 2 });
    await submit(1);
    await queue.setPr(2, { mergeability: 'not_mergeable' });
    await submit(2);
    await v2.ok('pullRequests.updateQueueEntry', {
      path: { id: (await read(2)).id },
      body: { priorityValue: 0 },
    });
    expect(await queue.states(1, 2)).toEqual({ 1: 'testing', 2: 'not_ready' });
    await queue.setPr(2, { mergeability: 'mergeable' });
    expect(await queue.states(1, 2)).toEqual({ 1: 'testing', 2: 'testing' });
    const runs = (await queue.history()).filter((e) => e.kind === 'run' && e.status === 'in_progress');
    expect(runs.map((e) => e.prNumbers)).toEqual([[1], [2], [1]]);
  });
});

describe('the run that verified an entry', () => {
  it('is named only once the queue merged the PR from tests passed', async () => {
    const { queue, submit, read, history } = await scenario({ concurrency: 2 });
    await queue.ci(2, { outcome: 'fail', durationMinutes: 10 });
    await submit(1);
    await submit(2);
    expect(await queue.states(1, 2)).toEqual({ 1: 'testing', 2: 'testing' });
    expect((await read(1)).queueEntry).not.toHaveProperty('verifiedByVerificationRunId');
    await queue.advance(10);
    expect(await queue.states(1, 2)).toEqual({ 1: 'merged', 2: 'failed' });
    const passed = (await history(1)).find((t) => t.state === 'testsPassed')!;
    expect((await read(1)).queueEntry!.verifiedByVerificationRunId).toBe(passed.verificationRunId);
    expect((await read(2)).queueEntry).not.toHaveProperty('verifiedByVerificationRunId');
  });
});

describe('one entry per pull request', () => {
  it('reuses the entry of a cancelled PR when it is submitted again, listed once', async () => {
    const { queue, queueId, submit, read } = await scenario();
    const first = await submit(1);
    await queue.advance(1);
    await v2.ok('pullRequests.dequeue', { path: { id: first.id } });
    await queue.advance(1);
    const again = await submit(1);
    expect(again.queueEntry).toMatchObject({
      id: first.queueEntry!.id,
      createdAt: first.queueEntry!.createdAt,
      state: 'testing',
    });
    expect((await read(1)).queueEntry!.id).toBe(first.queueEntry!.id);
    const listed = await v2.ok<V2<'PullRequestList'>>('mergeQueues.listPullRequests', {
      path: { id: queueId },
    });
    expect(listed.data.map((pr) => [pr.number, pr.queueEntry?.state])).toEqual([[1, 'testing']]);
    const v1 = await emulator.api<{ pullRequests: { prNumber: number; id: string }[] }>('/listPullRequests', {
      repo: queue.repo,
      targetBranch: 'main',
    });
    expect(v1.json.pullRequests.map((pr) => [pr.prNumber, pr.id])).toEqual([[1, first.queueEntry!.id]]);
  });
});

describe('time windows', () => {
  it('include their upper bounds: concludedBefore and the testing results until', async () => {
    const { queue, queueId, submit, read } = await scenario();
    await submit(1);
    await queue.advance(10);
    const merged = (await read(1)).queueEntry!;
    expect(merged.state).toBe('merged');
    const concluded = await v2.ok<V2<'PullRequestList'>>('mergeQueues.listPullRequests', {
      path: { id: queueId },
      query: { concludedBefore: merged.stateChangedAt },
    });
    expect(concluded.data.map((pr) => pr.number)).toEqual([1]);
    const results = await v2.ok<V2<'TestingResultList'>>('mergeQueues.listTestingResults', {
      path: { id: queueId },
      query: {
        since: new Date(Date.parse(merged.stateChangedAt) - 3_600_000).toISOString(),
        until: merged.stateChangedAt,
      },
    });
    expect(results.data.map((r) => [r.pullRequestNumber, r.outcome])).toEqual([[1, 'passed']]);
  });
  it("end the testing results at the first page's time when until is not given, on every page", async () => {
    const { queue, queueId, submit } = await scenario();
    for (const pr of [1, 2, 3]) {
      await submit(pr);
      await queue.advance(10);
    }
    const { now } = (await emulator.control<{ now: string }>('GET', '/clock')).json;
    const since = new Date(Date.parse(now) - 86_400_000).toISOString();
    const page = (cursor?: string) =>
      v2.ok<V2<'TestingResultList'>>('mergeQueues.listTestingResults', {
        path: { id: queueId },
        query: { since, limit: 2, includeTotal: true, ...(cursor ? { cursor } : {}) },
      });
    const first = await page();
    expect([first.data.map((r) => r.pullRequestNumber), first.total]).toEqual([[3, 2], 3]);
    await submit(4);
    await queue.advance(10);
    const second = await page(first.nextCursor!);
    expect([second.data.map((r) => r.pullRequestNumber), second.total, second.hasMore]).toEqual([
      [1],
      3,
      false,
    ]);
    expect((await page()).data.map((r) => r.pullRequestNumber)).toEqual([4, 3]);
  });
});

describe('verification runs', () => {
  async function runOf(queueId: string): Promise<V2<'VerificationRun'>> {
    const runs = await v2.ok<V2<'VerificationRunList'>>('mergeQueues.listVerificationRuns', {
      path: { id: queueId },
      query: { limit: 1 },
    });
    return v2.ok<V2<'VerificationRun'>>('mergeQueueVerificationRuns.get', { path: { id: runs.data[0]!.id } });
  }

  it('keep the required statuses they started with and list their checks while in progress', async () => {
    const { queue, queueId, submit } = await scenario({ requiredStatuses: ['ci/build'] });
    await submit(1);
    await v2.ok('mergeQueues.updateConfig', {
      path: { id: queueId },
      body: { requiredStatuses: ['ci/build', 'ci/lint'] },
    });
    const running = await runOf(queueId);
    expect(running).toMatchObject({ status: 'inProgress', requiredStatuses: ['ci/build'] });
    expect(running.checks.map((c) => [c.name, c.kind, c.status])).toEqual([
      ['ci/build', 'checkRun', 'inProgress'],
      ['ci/build', 'statusCheck', 'inProgress'],
    ]);
    await queue.advance(10);
    const done = await runOf(queueId);
    expect(done).toMatchObject({ status: 'succeeded', requiredStatuses: ['ci/build'] });
    const details = await queue.testingDetails(done.id);
    expect(details.json).toMatchObject({ requiredStatuses: ['ci/build'] });
  });

  it('show the status checks v1 shows for the same run, without a provider status', async () => {
    const { queue, queueId, submit } = await scenario();
    await submit(1);
    await queue.advance(10);
    const run = await runOf(queueId);
    const v1 = (await queue.testingDetails(run.id)).json as {
      statusChecks: { context: string; state: string }[];
    };
    const statusChecks = run.checks.filter((c) => c.kind === 'statusCheck');
    expect(statusChecks.map((c) => [c.name, c.providerConclusion])).toEqual(
      v1.statusChecks.map((s) => [s.context, s.state]),
    );
    expect(statusChecks.every((c) => c.providerStatus === undefined)).toBe(true);
  });

  it("name a failure's failing checks as the document spells them: FAILURE, TIMED_OUT", async () => {
    const { queue, submit, history } = await scenario({ testingTimeoutMinutes: 30 });
    await queue.ci(1, { outcome: 'fail', durationMinutes: 10 });
    await queue.ci(2, { outcome: 'hang' });
    await submit(1);
    await queue.advance(10);
    await submit(2);
    await queue.advance(30);
    expect(await queue.states(1, 2)).toEqual({ 1: 'failed', 2: 'failed' });
    const failedWith = async (pr: number) =>
      (await history(pr))
        .find((t) => t.state === 'failed')!
        .failed!.failureCausingChecks.map((c) => c.conclusion);
    expect(await failedWith(1)).toEqual(['FAILURE']);
    expect(await failedWith(2)).toEqual(['TIMED_OUT']);
  });
});

describe('direct', () => {
  it('sends a PR past unmet branch protection into the queue, and still tests it', async () => {
    const { queue, submit, read } = await scenario();
    const blocked = [{ code: 'failingCheck', check: 'ci/lint' }, { code: 'reviewRequired' }];
    await queue.setPr(1, { blockedBy: blocked });
    await queue.setPr(2, { blockedBy: blocked });
    await submit(1, { direct: true });
    await submit(2);
    expect(await queue.states(1, 2)).toEqual({ 1: 'testing', 2: 'not_ready' });
    const direct = (await read(1)).queueEntry!;
    expect(direct).toMatchObject({ direct: true, readiness: { mergeability: 'notMergeable' } });
    expect(direct.readiness.mergeabilityDetails?.reasons.map((r) => [r.code, r.check])).toEqual([
      ['failingCheck', 'ci/lint'],
      ['reviewRequired', undefined],
    ]);
    expect((await queue.pr(1)).forceEnqueued).toBe(true);
    await queue.advance(10);
    expect(await queue.states(1, 2)).toEqual({ 1: 'merged', 2: 'not_ready' });
    expect((await queue.history()).filter((e) => e.kind === 'run').map((e) => e.prNumbers)).toEqual([
      [1],
      [1],
    ]);
  });

  it('takes a queued PR past unmet branch protection once set on its entry, but never past a conflict', async () => {
    const { queue, submit, read } = await scenario();
    await queue.setPr(1, { mergeability: 'not_mergeable' });
    await queue.setPr(2, { blockedBy: [{ code: 'conflict' }] });
    await submit(1);
    await submit(2, { direct: true });
    expect(await queue.states(1, 2)).toEqual({ 1: 'not_ready', 2: 'not_ready' });
    await v2.ok('pullRequests.updateQueueEntry', {
      path: { id: (await read(1)).id },
      body: { direct: true },
    });
    expect(await queue.states(1, 2)).toEqual({ 1: 'testing', 2: 'not_ready' });
  });
});

describe('dispatch order and graph', () => {
  it('leave not-ready PRs out of the order and number predicted batches from 1', async () => {
    const { queue, queueId, submit } = await scenario({ concurrency: 1, batch: true, batchingMinSize: 2 });
    for (const pr of [1, 2, 3, 4]) await submit(pr);
    await queue.setPr(5, { mergeability: 'not_mergeable' });
    await submit(5);
    const order = await v2.ok<V2<'MergeQueueOrder'>>('mergeQueues.order', { path: { id: queueId } });
    expect(order.pending.map((p) => [p.pullRequest.number, p.predictedBatch])).toEqual([
      [3, 1],
      [4, 1],
    ]);
  });

  it('name what each waiting PR depends on directly while batching, and nothing without batching', async () => {
    const batching = await scenario({
      mode: 'parallel',
      batch: true,
      batchingMinSize: 10,
      batchingMaxWaitTimeMinutes: 60,
    });
    const targets: Record<number, string[]> = { 1: ['//a'], 2: ['//b'], 3: ['//a', '//b'], 4: ['//a'] };
    for (const [pr, list] of Object.entries(targets)) {
      await batching.queue.targets(Number(pr), `sha-${pr}`, list);
      await batching.submit(Number(pr));
    }
    const ahead = async (queueId: string) =>
      (await v2.ok<V2<'MergeQueueOrder'>>('mergeQueues.order', { path: { id: queueId } })).pending.map(
        (p) => [p.pullRequest.number, p.directlyAhead.map((a) => a.number).sort()],
      );
    expect(await ahead(batching.queueId)).toEqual([
      [1, []],
      [2, []],
      [3, [1, 2]],
      [4, [3]],
    ]);
    const single = await scenario({ concurrency: 1 });
    for (const pr of [1, 2, 3]) await single.submit(pr);
    expect(await ahead(single.queueId)).toEqual([
      [2, []],
      [3, []],
    ]);
  });

  it('list the waiting PRs held behind a failure after the schedulable ones', async () => {
    const { queue, queueId, submit } = await scenario(
      { mode: 'parallel', concurrency: 2, pendingFailureDepth: 1 },
      { durationMinutes: 30 },
    );
    await queue.ci(1, { outcome: 'fail', durationMinutes: 5 });
    const targets: Record<number, string[]> = { 1: ['//a'], 2: ['//a'], 3: ['//c'], 4: ['//a'], 5: ['//b'] };
    for (const [pr, list] of Object.entries(targets)) {
      await queue.targets(Number(pr), `sha-${pr}`, list);
      await submit(Number(pr));
    }
    await queue.advance(5);
    expect(await queue.states(1, 2, 3, 4, 5)).toEqual({
      1: 'pending_failure',
      2: 'testing',
      3: 'testing',
      4: 'pending',
      5: 'pending',
    });
    const order = await v2.ok<V2<'MergeQueueOrder'>>('mergeQueues.order', { path: { id: queueId } });
    expect(order.pending.map((p) => [p.pullRequest.number, p.schedulability])).toEqual([
      [5, 'schedulable'],
      [4, 'heldBehindFailure'],
    ]);
  });

  it('test a PR an isolate rule names alone while batching, in graph mode only, and refuse a bare * rule', async () => {
    const settings = { batch: true, concurrency: 3, batchingMinSize: 3, batchingMaxWaitTimeMinutes: 60 };
    const targets: Record<number, string[]> = {
      1: ['//app'],
      2: ['//db:schema'],
      3: ['//app'],
      4: ['//app'],
    };
    const isolating = async (mode: string) => {
      const made = await scenario({ mode, ...settings });
      await v2.ok('mergeQueues.updateConfig', {
        path: { id: made.queueId },
        body: { batchingRules: [{ targetPattern: '//db*', policy: 'isolate' }] },
      });
      for (const pr of [1, 2, 3, 4]) {
        await made.queue.targets(pr, `sha-${pr}`, targets[pr]!);
        await made.submit(pr);
      }
      return made;
    };
    const order = (queueId: string) =>
      v2.ok<V2<'MergeQueueOrder'>>('mergeQueues.order', { path: { id: queueId } });
    const graph = await isolating('parallel');
    const predicted = await order(graph.queueId);
    expect(predicted.isolationResolved).toBe(true);
    expect(predicted.pending.map((p) => [p.pullRequest.number, p.predictedBatch])).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
      [4, 3],
    ]);
    await graph.queue.advance(60);
    const started = await order(graph.queueId);
    expect(started.batches.map((b) => b.pullRequests.map((pr) => pr.number))).toEqual([[1], [2], [3, 4]]);

    const single = await isolating('single');
    const unruled = await order(single.queueId);
    expect(unruled.batches.map((b) => b.pullRequests.map((pr) => pr.number))).toEqual([[1, 2, 3]]);
    for (const targetPattern of ['*', '//db*:*'])
      expect(
        await v2.refused('mergeQueues.updateConfig', 400, {
          path: { id: graph.queueId },
          body: { batchingRules: [{ targetPattern, policy: 'isolate' }] },
        }),
      ).toBe('VALIDATION_FAILED');
  });

  it("hold ready PRs past a graph queue's soft cap awaiting admission, admitting them as the line empties", async () => {
    const { queue, queueId, submit, read } = await scenario({
      mode: 'parallel',
      concurrency: 2,
      admissionCap: 2,
    });
    for (const pr of [1, 2, 3, 4, 5]) await queue.targets(pr, `sha-${pr}`, [`//t${pr}`]);
    for (const pr of [1, 2, 3, 4]) await submit(pr);
    const order = () => v2.ok<V2<'MergeQueueOrder'>>('mergeQueues.order', { path: { id: queueId } });
    const awaiting = async () => {
      const { awaitingAdmission, awaitingAdmissionTotal } = await order();
      return [awaitingAdmission.map((pr) => pr.number), awaitingAdmissionTotal];
    };
    expect(await awaiting()).toEqual([[3, 4], 2]);
    expect((await read(3)).queueEntry!.state).toBe('pending');
    // Soft: an urgent PR is admitted past the cap.
    await submit(5, { priorityName: 'urgent' });
    expect(await awaiting()).toEqual([[3, 4], 2]);
    expect((await order()).pending.map((p) => p.pullRequest.number)).toEqual([5]);
    await queue.advance(10);
    expect(await queue.states(1, 2, 3, 4, 5)).toEqual({
      1: 'merged',
      2: 'merged',
      3: 'testing',
      4: 'pending',
      5: 'testing',
    });
    expect(await awaiting()).toEqual([[4], 1]);

    const single = await scenario({ concurrency: 1, admissionCap: 1 });
    for (const pr of [1, 2, 3]) await single.submit(pr);
    expect(
      (await v2.ok<V2<'MergeQueueOrder'>>('mergeQueues.order', { path: { id: single.queueId } }))
        .awaitingAdmissionTotal,
    ).toBe(0);
  });

  it('admit PRs awaiting admission by priority, then arrival, and all of them in queue mode', async () => {
    const { queue, queueId, submit } = await scenario({ mode: 'parallel', concurrency: 1, admissionCap: 1 });
    for (const pr of [1, 2, 3, 4]) await queue.targets(pr, `sha-${pr}`, [`//t${pr}`]);
    await submit(1);
    await submit(2);
    await submit(3, { priorityName: 'high' });
    await submit(4);
    const order = () => v2.ok<V2<'MergeQueueOrder'>>('mergeQueues.order', { path: { id: queueId } });
    expect((await order()).awaitingAdmission.map((pr) => pr.number)).toEqual([3, 2, 4]);
    await queue.advance(10);
    expect(await queue.states(1, 3)).toEqual({ 1: 'merged', 3: 'testing' });
    await v2.ok('mergeQueues.switchModes', { path: { id: queueId }, body: { mode: 'queue' } });
    await queue.advance(10);
    const switched = await order();
    expect([switched.mode, switched.awaitingAdmissionTotal]).toEqual(['queue', 0]);
    expect(switched.pending.map((p) => p.pullRequest.number)).toEqual([4]);
  });

  it('draw the dependency graph transitively reduced: no edge a path already makes', async () => {
    const { queue, queueId, submit } = await scenario({ mode: 'parallel', concurrency: 1 });
    const targets: Record<number, string[]> = {
      1: ['//a'],
      2: ['//a', '//b'],
      3: ['//a', '//b'],
      4: ['//c'],
    };
    for (const pr of [1, 2, 3, 4]) {
      await queue.setPr(pr, { headSha: `${pr}`.repeat(40), impactedTargets: targets[pr] });
      await submit(pr);
    }
    const graph = await v2.ok<V2<'MergeGraph'>>('mergeQueues.graph', { path: { id: queueId } });
    expect(graph.edges.map((e) => [e.fromPullRequestNumber, e.toPullRequestNumber])).toEqual([
      [1, 2],
      [2, 3],
    ]);
  });
});

describe('queue-entry history', () => {
  it('names the prerequisite PR whose failure or cancellation sent an entry back', async () => {
    const { queue, submit, read, history } = await scenario({ concurrency: 3 });
    await queue.ci(1, { outcome: 'fail', durationMinutes: 10 });
    for (const pr of [1, 2, 3]) await submit(pr);
    await queue.advance(5);
    await v2.ok('pullRequests.dequeue', { path: { id: (await read(2)).id } });
    const third = await history(3);
    const cancelledAhead = third.find((t) => t.reason === 'PREREQUISITE_MERGE_ITEM_CANCELLED')!;
    expect(cancelledAhead.prerequisitePullRequestId).toBe((await read(2)).id);
    await queue.advance(30);
    const failedAhead = (await history(3)).find((t) => t.reason === 'PREREQUISITE_MERGE_ITEM_FAILED')!;
    expect(failedAhead.prerequisitePullRequestId).toBe((await read(1)).id);
    expect(third.filter((t) => !t.reason?.startsWith('PREREQUISITE_'))).not.toContainEqual(
      expect.objectContaining({ prerequisitePullRequestId: expect.anything() }),
    );
  });

  it('stays readable after its queue is deleted', async () => {
    const { queue, queueId, submit, read } = await scenario();
    await submit(1);
    await queue.advance(10);
    const id = (await read(1)).id;
    await v2.ok('mergeQueues.delete', { path: { id: queueId } });
    const after = await v2.ok<V2<'QueueEntryHistoryList'>>('pullRequests.queueEntryHistory', {
      path: { id },
    });
    expect(after.data.map((t) => t.state)).toEqual([
      'notReady',
      'pending',
      'testing',
      'testsPassed',
      'merged',
    ]);
  });

  it('matches pull request ids in upper case in the batch read, and echoes them lower-cased', async () => {
    const { queue, submit, read } = await scenario();
    await submit(1);
    await queue.advance(10);
    const id = (await read(1)).id;
    const batch = await v2.ok<V2<'BatchQueueEntryHistoryList'>>('pullRequests.queueEntryHistoryBatch', {
      query: { pullRequestIds: id.toUpperCase() },
    });
    expect(batch.data.map((group) => [group.pullRequestId, group.transitions.length])).toEqual([[id, 5]]);
  });
});

describe('reads and their parameters', () => {
  it('leave hasImpactedTargets out of list rows, as the document does, and keep it on a single read', async () => {
    const { queueId, repositoryId, submit, read } = await scenario();
    await submit(1);
    const listed = await v2.ok<V2<'PullRequestList'>>('mergeQueues.listPullRequests', {
      path: { id: queueId },
    });
    expect(listed.data[0]!.queueEntry!.readiness).not.toHaveProperty('hasImpactedTargets');
    const resolved = await v2.ok<V2<'PullRequestList'>>('pullRequests.resolveByCoordinates', {
      query: { repositoryId, number: '1' },
    });
    expect(resolved.data[0]!.queueEntry!.readiness).not.toHaveProperty('hasImpactedTargets');
    const one = await v2.ok<V2<'PullRequest'>>('pullRequests.get', { path: { id: (await read(1)).id } });
    expect(one.queueEntry!.readiness.hasImpactedTargets).toBe(false);
  });

  it('resolve only the PR numbers the service knows of', async () => {
    const { queue, repositoryId } = await scenario();
    await queue.setPr(7, { title: 'Known' });
    const resolved = await v2.ok<V2<'PullRequestList'>>('pullRequests.resolveByCoordinates', {
      query: { repositoryId, number: '7,8' },
    });
    expect(resolved.data.map((pr) => pr.number)).toEqual([7]);
  });

  it('refuse targetBranch without repositoryId when listing queues', async () => {
    expect(await v2.refused('mergeQueues.list', 400, { query: { targetBranch: 'main' } })).toBe(
      'VALIDATION_FAILED',
    );
  });

  it("take sort=createdAt&direction=desc, the lists' own order, and refuse another", async () => {
    const { queueId, submit } = await scenario();
    await submit(1);
    await submit(2);
    const listed = await v2.ok<V2<'PullRequestList'>>('mergeQueues.listPullRequests', {
      path: { id: queueId },
      query: { sort: 'createdAt', direction: 'desc' },
    });
    expect(listed.data.map((pr) => pr.number)).toEqual([2, 1]);
    const runs = await v2.ok<V2<'VerificationRunList'>>('mergeQueues.listVerificationRuns', {
      path: { id: queueId },
      query: { sort: 'createdAt', direction: 'desc' },
    });
    expect(runs.data.map((run) => run.testedPullRequests.map((pr) => pr.number))).toEqual([[1]]);
    expect(
      await v2.refused('mergeQueues.listPullRequests', 400, {
        path: { id: queueId },
        query: { sort: 'createdAt', direction: 'asc' },
      }),
    ).toBe('VALIDATION_FAILED');
  });
});

describe('writes without a body', () => {
  it('ignore a JSON body on pause, resume, drain, restart-tests and dequeue', async () => {
    const { queue, queueId, submit, read } = await scenario();
    await submit(1);
    const id = (await read(1)).id;
    const body = { reason: 'ignored', state: 'running' };
    for (const [operation, state] of [
      ['mergeQueues.pause', 'paused'],
      ['mergeQueues.drain', 'draining'],
      ['mergeQueues.resume', 'running'],
    ] as const) {
      const change = await v2.ok<V2<'MergeQueueStateChange'>>(operation, { path: { id: queueId }, body });
      expect(change.state).toBe(state);
    }
    expect(
      (await v2.ok<V2<'PullRequest'>>('pullRequests.restartTests', { path: { id }, body })).queueEntry!.state,
    ).toBe('testing');
    expect(
      (await v2.ok<V2<'PullRequest'>>('pullRequests.dequeue', { path: { id }, body })).queueEntry!.state,
    ).toBe('cancelled');
    expect(await queue.state(1)).toBe('cancelled');
  });
});

describe('rate limits', () => {
  it("count the batch history read in the organization's bucket, not the per-key pull-request one", () => {
    expect(bucketOf('pullRequests.queueEntryHistoryBatch', 'admin')).toEqual({
      name: 'organization',
      perSecond: 100,
    });
    expect(bucketOf('pullRequests.queueEntryHistory', 'admin')).toEqual({
      name: 'pull-requests:admin',
      perSecond: 5,
    });
  });

  it("count an Actions login's uploads 10 a second per repository, a fork PR's apart from the run's", () => {
    const repo = { host: 'github.com', owner: 'acme', name: 'app' };
    const run = { repo, repositoryId: 'r', expiresAt: 0 };
    const fork = { ...run, pullRequest: { number: 7, sha: 'c3'.repeat(20) } };
    const elsewhere = { ...run, repo: { ...repo, name: 'web' } };
    const buckets = [run, fork, elsewhere].map((login) => bucketOf('impactedTargets.upload', 'a', login));
    expect(buckets.map((b) => b.perSecond)).toEqual([10, 10, 10]);
    expect(new Set(buckets.map((b) => b.name)).size).toBe(3);
    expect(buckets.map((b) => b.name)).not.toContain('organization');
  });
});

describe('GitHub Actions logins', () => {
  const login = async (repo: string, pullRequest?: { number: number; sha: string }) =>
    (
      await emulator.control<{ token: string; expiresAt: string }>('POST', '/actions-logins', {
        repo,
        ...(pullRequest ? { pullRequest } : {}),
      })
    ).json.token;
  const upload = (token: string, body: Record<string, unknown>) => ({
    key: null,
    headers: { 'x-trunk-token': token },
    body: { targetBranch: 'main', impactedTargets: ['//app'], ...body },
  });

  it("upload impacted targets for their run's repository only, and may call nothing else", async () => {
    const { queue, repositoryId, queueId, submit, read } = await scenario({ mode: 'parallel' });
    const token = await login(`twin/v2-${repoCount}`);
    await v2.ok('impactedTargets.upload', upload(token, { repositoryId, number: 1, sha: 'a1'.repeat(20) }));
    await queue.setPr(1, { headSha: 'a1'.repeat(20) });
    await submit(1);
    expect((await read(1)).queueEntry!.state).toBe('testing');
    const other = await scenario({ mode: 'parallel' });
    const elsewhere = upload(token, { repositoryId: other.repositoryId, number: 1, sha: 'b2'.repeat(20) });
    expect(await v2.refused('impactedTargets.upload', 403, elsewhere)).toBe('INSUFFICIENT_PERMISSIONS');
    const asLogin = { key: null, headers: { 'x-trunk-token': token } };
    expect(await v2.refused('mergeQueues.order', 403, { ...asLogin, path: { id: queueId } })).toBe(
      'INSUFFICIENT_PERMISSIONS',
    );
    expect(
      await v2.refused('mergeQueues.submitPullRequest', 403, {
        ...asLogin,
        path: { id: queueId },
        body: { number: 2 },
      }),
    ).toBe('INSUFFICIENT_PERMISSIONS');
  });

  it("bind a fork PR's login to that PR's number and head sha", async () => {
    const { repositoryId } = await scenario({ mode: 'parallel' });
    const sha = 'c3'.repeat(20);
    const token = await login(`twin/v2-${repoCount}`, { number: 7, sha });
    await v2.ok('impactedTargets.upload', upload(token, { repositoryId, number: 7, sha: sha.toUpperCase() }));
    for (const body of [
      { repositoryId, number: 8, sha },
      { repositoryId, number: 7, sha: 'd4'.repeat(20) },
      { repositoryId, branch: 'fork-feature', sha },
    ])
      expect(await v2.refused('impactedTargets.upload', 403, upload(token, body))).toBe(
        'INSUFFICIENT_PERMISSIONS',
      );
  });

  it('are no API key: refused as a bearer over v2 and by v1, and the control route needs its token', async () => {
    const { repositoryId, queue } = await scenario({ mode: 'parallel' });
    const token = await login(`twin/v2-${repoCount}`);
    const body = { repositoryId, number: 1, sha: 'a7'.repeat(20) };
    expect(
      await v2.refused('impactedTargets.upload', 401, { ...upload(token, body), key: token, headers: {} }),
    ).toBe('INVALID_TOKEN');
    const v1 = await request(
      `${emulator.current.url}/setImpactedTargets`,
      'POST',
      {
        repo: { host: 'github.com', owner: 'twin', name: `v2-${repoCount}` },
        pr: { number: 1, sha: 'a7'.repeat(20) },
        targetBranch: 'main',
        impactedTargets: ['//app'],
      },
      { 'x-api-token': token },
    );
    expect(v1.status).toBe(401);
    const minted = await request(
      `${emulator.current.origin}/_emulator/actions-logins`,
      'POST',
      { repo: queue.repo },
      {
        'x-trunk-token': token,
      },
    );
    expect(minted.status).toBe(401);
  });

  it('last 15 minutes, then are refused as an invalid token', async () => {
    const { queue, repositoryId } = await scenario({ mode: 'parallel' });
    const token = await login(`twin/v2-${repoCount}`);
    const body = { repositoryId, number: 1, sha: 'e5'.repeat(20) };
    await queue.advance(14);
    await v2.ok('impactedTargets.upload', upload(token, body));
    await queue.advance(1);
    expect(await v2.refused('impactedTargets.upload', 401, upload(token, body))).toBe('INVALID_TOKEN');
  });
});

describe('validation', () => {
  it('answers a malformed repository URL as one that names no repository: 404 PROVIDER_URL_NOT_FOUND', async () => {
    expect(
      await v2.refused('repositories.resolveByProviderUrl', 404, { query: { providerUrl: 'not a url' } }),
    ).toBe('PROVIDER_URL_NOT_FOUND');
  });

  it('takes impacted targets for GitHub and GitLab only: 422 IMPACTED_TARGETS_UNSUPPORTED elsewhere', async () => {
    const upload = async (providerUrl: string) => {
      const repos = await v2.ok<V2<'RepositoryList'>>('repositories.resolveByProviderUrl', {
        query: { providerUrl },
      });
      return v2.call<{ error?: { code: string } }>('impactedTargets.upload', {
        body: {
          repositoryId: repos.data[0]!.id,
          targetBranch: 'main',
          number: 1,
          sha: 'ab12cd34',
          impactedTargets: ['//app'],
        },
      });
    };
    const answers = await Promise.all(
      [
        'https://github.com/acme/up',
        'https://gitlab.com/acme/up',
        'https://bitbucket.org/acme/up',
        'https://git.example.com/acme/up',
      ].map(upload),
    );
    expect(answers.map((a) => [a.status, a.json?.error?.code])).toEqual([
      [202, undefined],
      [202, undefined],
      [422, 'IMPACTED_TARGETS_UNSUPPORTED'],
      [422, 'IMPACTED_TARGETS_UNSUPPORTED'],
    ]);
  });

  it('refuses Dynamic CI for a host other than github.com: 400 CI_HOST_UNSUPPORTED', async () => {
    const repo = { host: 'gitlab.com', owner: 'acme', name: 'app' };
    expect(
      await v2.refused('dynamicCi.listPrJobs', 400, {
        query: { host: 'gitlab.com', owner: 'acme', name: 'app' },
      }),
    ).toBe('CI_HOST_UNSUPPORTED');
    expect(
      await v2.refused('dynamicCi.setForceOverrides', 400, {
        body: { repo, prNumber: 1, headSha: 'a'.repeat(40), overrides: [] },
      }),
    ).toBe('CI_HOST_UNSUPPORTED');
  });
});

describe('settings and forces the document limits', () => {
  it('refuse an enqueueing label with the reserved trunk- prefix; a create refused so leaves its queue', async () => {
    const { queueId, repositoryId } = await scenario();
    expect(
      await v2.refused('mergeQueues.updateConfig', 400, {
        path: { id: queueId },
        body: { enqueueingLabel: 'trunk-merge' },
      }),
    ).toBe('VALIDATION_FAILED');
    const create = { repositoryId, targetBranch: 'release', enqueueingLabel: 'Trunk-ready' };
    expect(await v2.refused('mergeQueues.create', 400, { body: create })).toBe('VALIDATION_FAILED');
    const left = await v2.ok<V2<'MergeQueueList'>>('mergeQueues.list', {
      query: { repositoryId, targetBranch: 'release' },
    });
    expect(left.data.map((q) => q.targetBranch)).toEqual(['release']);
    expect(await v2.refused('mergeQueues.create', 409, { body: create })).toBe('QUEUE_ALREADY_EXISTS');
  });

  it('take a force naming what its scope needs, from the workflows and jobs the repository ran', async () => {
    const repo = { owner: 'twin', name: 'forces' };
    await v2.ok('dynamicCi.generatePlan', {
      body: {
        repo,
        commitSha: 'abc',
        baseSha: null,
        branch: 'feature',
        prNumber: 1,
        runId: '1',
        runAttempt: 1,
        workflowPath: '.github/workflows/ci.yml',
        jobKeys: ['test'],
      },
    });
    const [workflow] = (
      await v2.ok<V2<'CiWorkflowList'>>('dynamicCi.listPrJobs', { query: { owner: 'twin', name: 'forces' } })
    ).data;
    const { workflowId } = workflow!;
    const jobId = workflow!.jobs[0]!.jobId;
    const force = (override: Record<string, unknown>) => ({
      body: { repo, prNumber: 1, headSha: 'abc', overrides: [override] },
    });
    for (const wrong of [
      { scope: 'pullRequest', workflowId },
      { scope: 'workflow' },
      { scope: 'workflow', workflowId, jobId },
      { scope: 'job', workflowId },
    ]) {
      expect(await v2.refused('dynamicCi.setForceOverrides', 400, force(wrong))).toBe('VALIDATION_FAILED');
    }
    const unknown = '00000000-0000-4000-8000-0000000000f0';
    expect(
      await v2.refused('dynamicCi.setForceOverrides', 404, force({ scope: 'workflow', workflowId: unknown })),
    ).toBe('CI_SCOPE_NOT_FOUND');
    expect(
      await v2.refused(
        'dynamicCi.setForceOverrides',
        404,
        force({ scope: 'job', workflowId, jobId: unknown }),
      ),
    ).toBe('CI_SCOPE_NOT_FOUND');
    expect(
      (await v2.call('dynamicCi.setForceOverrides', force({ scope: 'job', workflowId, jobId }))).status,
    ).toBe(204);
  });
});

describe('test-case parameters', () => {
  const testId = '00000000-0000-4000-8000-00000000e2e1';
  async function seedOneFlakyTest(): Promise<void> {
    const seeded = await emulator.control('POST', '/flaky-tests', {
      repositories: [
        {
          repo: { host: 'github.com', owner: 'twin', name: 'test-case-rules' },
          tests: [
            {
              id: testId,
              name: 'checkout retries',
              status: 'flaky',
              failures: [{ at: '2025-01-05T10:00:00Z', summary: 'timeout' }],
            },
          ],
        },
      ],
    });
    expect(seeded.status).toBe(200);
  }

  it('refuse include=metrics, a metric sort and newlyFlaky without period: 400 VALIDATION_FAILED', async () => {
    await seedOneFlakyTest();
    const needingPeriod: Record<string, string | boolean>[] = [
      { include: 'metrics' },
      { sort: 'failureRate' },
      { newlyFlaky: true },
    ];
    for (const query of needingPeriod) {
      expect(await v2.refused('testCases.list', 400, { query })).toBe('VALIDATION_FAILED');
      const withPeriod = await v2.ok<V2<'TestCaseList'>>('testCases.list', {
        query: { ...query, period: '30d' },
      });
      expect(withPeriod.data.length).toBeLessThanOrEqual(1);
    }
    expect(await v2.ok<V2<'TestCaseList'>>('testCases.list', { query: { sort: 'name' } })).toMatchObject({
      data: [expect.objectContaining({ id: testId })],
    });
    const path = { testCaseId: testId };
    expect(await v2.refused('testCases.get', 400, { path, query: { include: 'metrics' } })).toBe(
      'VALIDATION_FAILED',
    );
    const detail = await v2.ok<V2<'TestCase'>>('testCases.get', {
      path,
      query: { include: 'metrics', period: '7d' },
    });
    expect(detail.metrics?.failureCount).toBe(1);
  });

  it('refuse branches with pullRequestOnly, and match branches as globs', async () => {
    await seedOneFlakyTest();
    const path = { testCaseId: testId };
    expect(
      await v2.refused('testCases.listTestRuns', 400, {
        path,
        query: { branches: 'main', pullRequestOnly: false },
      }),
    ).toBe('VALIDATION_FAILED');
    const runsOn = async (branches: string) =>
      (await v2.ok<V2<'TestRunList'>>('testCases.listTestRuns', { path, query: { branches } })).data.length;
    // The store does not keep a failure's branch: its runs are on `unknown`.
    expect(await runsOn('main')).toBe(0);
    expect(await runsOn('main, unkn*')).toBe(1);
    expect(await runsOn('unkno?n')).toBe(1);
    expect(await runsOn('?nknown?')).toBe(0);
  });

  it('link one ticket to a test: another replaces it, the same again changes nothing', async () => {
    await seedOneFlakyTest();
    const link = (externalTicketId: string) =>
      v2.ok<V2<'Ticket'>>('testCases.linkTicket', {
        path: { testCaseId: testId },
        body: { externalTicketId },
      });
    expect((await link('APP-1')).key).toBe('APP-1');
    expect(await link('APP-2')).toMatchObject({ key: 'APP-2', url: expect.stringContaining('APP-2') });
    expect(await link('APP-2')).toMatchObject({ key: 'APP-2' });
  });

  it('answer a malformed test case id as one that names no test: 404 TEST_CASE_NOT_FOUND', async () => {
    expect(await v2.refused('testCases.get', 404, { path: { testCaseId: 'not an id/..' } })).toBe(
      'TEST_CASE_NOT_FOUND',
    );
  });
});

describe('queue settings of 0', () => {
  it('take a testing timeout of 0 as none and a bisection concurrency of 0 as the testing one', async () => {
    const { queue, queueId, submit } = await scenario({}, { durationMinutes: 600 });
    const patch = (body: Record<string, unknown>) =>
      v2.ok<V2<'MergeQueue'>>('mergeQueues.updateConfig', { path: { id: queueId }, body });
    expect((await patch({ testingTimeoutMinutes: 0 })).config.testingTimeoutMinutes).toBe(0);
    await submit(1);
    await queue.advance(599);
    expect(await queue.state(1)).toBe('testing');
    await queue.advance(1);
    expect(await queue.state(1)).toBe('merged');

    const batching = await scenario({ batch: true, batchingMinSize: 2 });
    await v2.ok('mergeQueues.updateConfig', {
      path: { id: batching.queueId },
      body: { bisectionConcurrency: 0 },
    });
    await batching.queue.ci(2, { outcome: 'fail', durationMinutes: 10 });
    await batching.submit(1);
    await batching.submit(2);
    await batching.queue.advance(60);
    expect(await batching.queue.states(1, 2)).toEqual({ 1: 'merged', 2: 'failed' });
  });
});

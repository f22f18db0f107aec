// Every operation of the v2 document, called over HTTP against the emulator and its answer checked
// against the document (V2Calls does, on every call): a queue made, configured, paused and switched over
// v2, pull requests submitted, tested, merged and taken out, their runs and histories read, and the
// flaky-tests and Dynamic CI endpoints used.
import { expect, it } from '@jest/globals';
import { V2_ROUTES, type V2 } from '../../../src/wire/v2/index.js';
import { useEmulator } from '../../helpers/emulator.js';
import { V2Calls } from '../../helpers/v2-calls.js';

// Pinned: the testing results and the flaky test's failure below are dated January 2025.
const emulator = useEmulator({ v2RateLimits: false, startTime: Date.UTC(2025, 0, 6, 9) });
const v2 = new V2Calls(emulator);
const REPO = { host: 'github.com', owner: 'acme', name: 'app' };
const URL_OF_REPO = 'https://github.com/acme/app';
const TEST_ID = '0b5f0d9e-3f9a-4c3e-9a4e-1d2c3b4a5f60';

let repositoryId = '';
let queueId = '';
const prIds: Record<number, string> = {};

async function pr(number: number, facts: Record<string, unknown> = {}) {
  const answer = await emulator.control('POST', '/pull-requests', {
    repo: 'acme/app',
    number,
    title: `Change ${number}`,
    author: 'dev',
    headSha: `a${number}`.padEnd(40, '0'),
    branch: `feature-${number}`,
    ...facts,
  });
  expect(answer.status).toBe(200);
}

it('resolves the repository from its URL and reads it by id', async () => {
  const list = await v2.ok<V2<'RepositoryList'>>('repositories.resolveByProviderUrl', {
    query: { providerUrl: URL_OF_REPO },
  });
  expect(list.data).toHaveLength(1);
  repositoryId = list.data[0]!.id;
  const repository = await v2.ok<V2<'Repository'>>('repositories.get', { path: { id: repositoryId } });
  expect(repository).toMatchObject({
    path: 'acme/app',
    host: 'github.com',
    provider: 'github',
    url: URL_OF_REPO,
  });
});

it('creates, lists, reads, configures, pauses, resumes, drains and switches a queue', async () => {
  const created = await v2.ok<V2<'MergeQueue'>>('mergeQueues.create', {
    body: {
      repositoryId,
      targetBranch: 'main',
      mode: 'queue',
      concurrency: 2,
      enqueueingLabel: 'merge-me',
    },
  });
  queueId = created.id;
  expect(created).toMatchObject({ targetBranch: 'main', state: 'running', mode: 'queue' });
  expect(created.config).toMatchObject({ concurrency: 2, enqueueingLabel: 'merge-me' });
  const list = await v2.ok<V2<'MergeQueueList'>>('mergeQueues.list', {
    query: { repositoryId, targetBranch: 'main' },
  });
  expect(list.data.map((q) => q.id)).toEqual([queueId]);
  const patched = await v2.ok<V2<'MergeQueue'>>('mergeQueues.updateConfig', {
    path: { id: queueId },
    body: { mergeMethod: 'mergeCommit', notReadyTimeoutMinutes: 120, requiredStatuses: ['ci/test'] },
  });
  expect(patched.config).toMatchObject({
    mergeMethod: 'mergeCommit',
    notReadyTimeoutMinutes: 120,
    requiredStatuses: ['ci/test'],
  });
  expect(
    (await v2.ok<V2<'MergeQueue'>>('mergeQueues.get', { path: { id: queueId } })).config.mergeMethod,
  ).toBe('mergeCommit');
  for (const [operation, state] of [
    ['mergeQueues.pause', 'paused'],
    ['mergeQueues.drain', 'draining'],
    ['mergeQueues.resume', 'running'],
  ] as const) {
    expect((await v2.ok<V2<'MergeQueueStateChange'>>(operation, { path: { id: queueId } })).state).toBe(
      state,
    );
  }
  const switched = await v2.ok<V2<'MergeQueueStateChange'>>('mergeQueues.switchModes', {
    path: { id: queueId },
    body: { mode: 'graph' },
  });
  expect(switched).toMatchObject({ mode: 'graph', state: 'running' });
});

it('takes impacted targets, submits, orders, graphs and lists pull requests', async () => {
  for (const number of [1, 2, 3]) {
    await pr(number);
    await v2.ok('impactedTargets.upload', {
      body: {
        repositoryId,
        targetBranch: 'main',
        sha: `a${number}`.padEnd(40, '0'),
        number,
        impactedTargets: ['//app:all'],
      },
    });
    const submitted = await v2.ok<V2<'PullRequest'>>('mergeQueues.submitPullRequest', {
      path: { id: queueId },
      body: { number },
    });
    prIds[number] = submitted.id;
    expect(submitted.queueEntry?.mergeQueueId).toBe(queueId);
  }
  const order = await v2.ok<V2<'MergeQueueOrder'>>('mergeQueues.order', { path: { id: queueId } });
  expect(order.batches.flatMap((b) => b.pullRequests.map((p) => p.number))).toEqual([1, 2]);
  expect(order.pending.map((p) => p.pullRequest.number)).toEqual([3]);
  const graph = await v2.ok<V2<'MergeGraph'>>('mergeQueues.graph', {
    path: { id: queueId },
    query: { includeImpactedTargets: true },
  });
  expect(graph.nodes.map((n) => n.pullRequestNumber)).toEqual([1, 2, 3]);
  expect(graph.edges).toContainEqual(
    expect.objectContaining({
      fromPullRequestNumber: 2,
      toPullRequestNumber: 3,
      commonImpactedTargets: ['//app:all'],
    }),
  );
  const listed = await v2.ok<V2<'PullRequestList'>>('mergeQueues.listPullRequests', {
    path: { id: queueId },
    query: { state: 'testing,pending' },
  });
  expect(listed.data.map((p) => p.number)).toEqual([3, 2, 1]);
});

it('resolves, reads, reprioritizes, updates and restarts pull requests', async () => {
  const byNumber = await v2.ok<V2<'PullRequestList'>>('pullRequests.resolveByCoordinates', {
    query: { repositoryId, number: '3,1' },
  });
  expect(byNumber.data.map((p) => p.id)).toEqual([prIds[1], prIds[3]]);
  const byBranch = await v2.ok<V2<'PullRequestList'>>('pullRequests.resolveByCoordinates', {
    query: { repositoryId, branch: 'feature-2', baseBranch: 'main' },
  });
  expect(byBranch.data.map((p) => p.number)).toEqual([2]);
  const read = await v2.ok<V2<'PullRequest'>>('pullRequests.get', { path: { id: prIds[1]! } });
  expect(read).toMatchObject({
    number: 1,
    title: 'Change 1',
    branch: 'feature-1',
    queueEntry: { state: 'testing' },
  });
  const high = await v2.ok<V2<'PullRequest'>>('pullRequests.reprioritize', {
    path: { id: prIds[3]! },
    body: { priorityName: 'high' },
  });
  expect(high.queueEntry).toMatchObject({ priorityValue: 10, priorityName: 'high' });
  const updated = await v2.ok<V2<'PullRequest'>>('pullRequests.updateQueueEntry', {
    path: { id: prIds[3]! },
    body: { allowBatching: false, direct: true },
  });
  expect(updated.queueEntry).toMatchObject({ allowBatching: false, direct: true });
  const restarted = await v2.ok<V2<'PullRequest'>>('pullRequests.restartTests', {
    path: { id: prIds[1]! },
  });
  expect(restarted.queueEntry?.state).toBe('testing');
});

it('reads runs, histories, testing results and metrics once the runs end', async () => {
  await emulator.control('POST', '/clock/run-until-idle', {});
  const merged = await v2.ok<V2<'PullRequest'>>('pullRequests.get', { path: { id: prIds[1]! } });
  expect(merged.queueEntry?.state).toBe('merged');
  const runs = await v2.ok<V2<'VerificationRunList'>>('pullRequests.listVerificationRuns', {
    path: { id: prIds[1]! },
  });
  expect(runs.data.length).toBeGreaterThanOrEqual(2);
  const queueRuns = await v2.ok<V2<'VerificationRunList'>>('mergeQueues.listVerificationRuns', {
    path: { id: queueId },
    query: { status: 'succeeded' },
  });
  expect(queueRuns.data.every((run) => run.status === 'succeeded')).toBe(true);
  const run = await v2.ok<V2<'VerificationRun'>>('mergeQueueVerificationRuns.get', {
    path: { id: queueRuns.data[0]!.id },
  });
  expect(run.checks).toEqual([
    expect.objectContaining({ name: 'ci/test', kind: 'checkRun', conclusion: 'success' }),
    expect.objectContaining({ name: 'ci/test', kind: 'statusCheck', conclusion: 'success' }),
  ]);
  expect(run.impactedTargets?.testedPullRequestsOnly?.impactedTargets).toEqual(['//app:all']);
  const history = await v2.ok<V2<'QueueEntryHistoryList'>>('pullRequests.queueEntryHistory', {
    path: { id: prIds[1]! },
    query: { direction: 'newest', limit: 1 },
  });
  expect(history.data[0]).toMatchObject({ state: 'merged', reason: 'MERGE_GRAPH_MERGE' });
  const batch = await v2.ok<V2<'BatchQueueEntryHistoryList'>>('pullRequests.queueEntryHistoryBatch', {
    query: { pullRequestIds: `${prIds[2]},not-a-pr` },
  });
  expect(batch.data.map((group) => group.transitions.length > 0)).toEqual([true, false]);
  const results = await v2.ok<V2<'TestingResultList'>>('mergeQueues.listTestingResults', {
    path: { id: queueId },
    query: { since: '2025-01-01T00:00:00Z', until: '2025-02-01T00:00:00Z' },
  });
  expect(results.data.some((r) => r.pullRequestNumber === 1 && r.outcome === 'interrupted')).toBe(true);
  const metrics = await v2.call('mergeQueues.metrics', { path: { id: queueId } });
  expect(metrics.text).toContain('mq_depth_current');
  const all = await v2.call('mergeQueues.organizationMetrics', { query: { repositoryId } });
  expect(all.status).toBe(200);
});

it('dequeues a pull request and deletes an empty queue', async () => {
  await pr(4);
  await v2.ok('mergeQueues.submitPullRequest', { path: { id: queueId }, body: { number: 4 } });
  const id = (
    await v2.ok<V2<'PullRequestList'>>('pullRequests.resolveByCoordinates', {
      query: { repositoryId, number: '4' },
    })
  ).data[0]!.id;
  const dequeued = await v2.ok<V2<'PullRequest'>>('pullRequests.dequeue', { path: { id } });
  expect(dequeued.queueEntry?.state).toBe('cancelled');
  const release = await v2.ok<V2<'MergeQueue'>>('mergeQueues.create', {
    body: { repositoryId, targetBranch: 'release' },
  });
  await v2.ok('mergeQueues.delete', { path: { id: release.id } });
  expect(await v2.refused('mergeQueues.get', 404, { path: { id: release.id } })).toBe(
    'MERGE_QUEUE_NOT_FOUND',
  );
});

it('answers the Dynamic CI endpoints', async () => {
  const repo = { owner: 'acme', name: 'app' };
  const plan = await v2.ok<V2<'CiPlan'>>('dynamicCi.generatePlan', {
    body: {
      repo,
      commitSha: 'abc',
      baseSha: null,
      branch: 'feature-1',
      prNumber: 1,
      runId: '1',
      runAttempt: 1,
      workflowPath: '.github/workflows/ci.yml',
      jobKeys: ['test', 'lint'],
    },
  });
  expect(plan.jobs.map((job) => [job.jobKey, job.run])).toEqual([
    ['test', true],
    ['lint', true],
  ]);
  await v2.ok('dynamicCi.generateBuildkitePlan', {
    body: {
      repo,
      commitSha: 'abc',
      baseSha: null,
      branch: 'b',
      prNumber: null,
      runId: '2',
      runAttempt: 1,
      buildkiteOrganizationSlug: 'acme',
      buildkitePipelineSlug: 'app',
      jobKeys: ['build'],
    },
  });
  const jobs = await v2.ok<V2<'CiWorkflowList'>>('dynamicCi.listPrJobs', {
    query: { owner: 'acme', name: 'app' },
  });
  expect(jobs.data.map((w) => w.name)).toEqual(['.github/workflows/ci.yml', 'acme/app']);
  await v2.ok('dynamicCi.setForceOverrides', {
    body: { repo, prNumber: 1, headSha: 'abc', overrides: [{ scope: 'pullRequest' }] },
  });
  const overrides = await v2.ok<V2<'ForceOverrideList'>>('dynamicCi.listForceOverrides', {
    query: { owner: 'acme', name: 'app', prNumber: 1 },
  });
  expect(overrides.data).toEqual([expect.objectContaining({ scope: 'pullRequest', headShaAtSave: 'abc' })]);
});

it('answers the test collection and test case endpoints from the flaky-tests store', async () => {
  const seeded = await emulator.control('POST', '/flaky-tests', {
    repositories: [
      {
        repo: REPO,
        tests: [
          {
            id: TEST_ID,
            name: 'login works',
            status: 'flaky',
            quarantine_override: 'ALWAYS_QUARANTINE',
            failures: [{ at: '2025-01-05T10:00:00Z', summary: 'timeout' }],
          },
          { name: 'logout works', status: 'healthy' },
        ],
      },
    ],
  });
  expect(seeded.status).toBe(200);
  const collections = await v2.ok<V2<'TestCollectionList'>>('testCollections.list', {});
  expect(collections.data.map((c) => [c.name, c.testCaseCount])).toEqual([['acme/app', 2]]);
  await v2.ok('testCollections.get', { path: { id: collections.data[0]!.id } });
  const made = await v2.ok<V2<'TestCollection'>>('testCollections.create', {
    body: { name: 'Login suite' },
  });
  expect(made).toMatchObject({ name: 'Login suite', testCaseCount: 0 });
  const quarantined = await v2.ok<V2<'TestCaseList'>>('testCases.list', {
    query: { quarantineState: 'quarantined', include: 'metrics', period: '7d' },
  });
  expect(quarantined.data.map((t) => [t.name, t.status, t.metrics?.failureCount])).toEqual([
    ['login works', 'flaky', 1],
  ]);
  const test = await v2.ok<V2<'TestCase'>>('testCases.get', { path: { testCaseId: TEST_ID } });
  expect(test.quarantineOverride?.mode).toBe('alwaysQuarantine');
  const history = await v2.ok<V2<'StatusHistoryEntryList'>>('testCases.listStatusHistory', {
    path: { testCaseId: TEST_ID },
  });
  expect(history.data.map((h) => h.toStatus)).toEqual(['flaky']);
  const runs = await v2.ok<V2<'TestRunList'>>('testCases.listTestRuns', { path: { testCaseId: TEST_ID } });
  expect(runs.data.map((r) => [r.conclusion, r.startedAt])).toEqual([
    ['failure', '2025-01-05T10:00:00.000Z'],
  ]);
  const ticket = await v2.ok<V2<'Ticket'>>('testCases.linkTicket', {
    path: { testCaseId: TEST_ID },
    body: { externalTicketId: 'APP-7' },
  });
  expect(ticket).toMatchObject({ key: 'APP-7', url: expect.stringContaining('APP-7') });
});

it('has answered every operation of the document with its success status', () => {
  const missing = Object.keys(V2_ROUTES).filter((operation) => !v2.succeeded.has(operation as never));
  expect(missing).toEqual([]);
  expect(v2.succeeded.size).toBe(43);
});

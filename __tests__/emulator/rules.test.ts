// The merge queue's rules, one scenario each, driven over the public API and the control surface.
// Every scenario uses its own repository, so they share one emulator without interfering.
import { describe, expect, it } from '@jest/globals';
import { QueueDriver, useEmulator } from '../helpers/emulator.js';

const emu = useEmulator();
let repoCount = 0;

/** A fresh queue; CI takes 5 minutes and passes unless a scenario says otherwise. */
async function freshQueue(settings: Record<string, unknown> = {}): Promise<QueueDriver> {
  const driver = new QueueDriver(emu, `rules/repo-${++repoCount}`);
  await driver.create(settings);
  return driver;
}

async function reasonsOf(queue: QueueDriver, pr: number): Promise<(string | null | undefined)[]> {
  return (await queue.history())
    .filter((e) => e.kind === 'pr_state' && e.prNumber === pr)
    .map((e) => e.reason);
}

describe('slots and order', () => {
  it('tests at most `concurrency` PRs at a time', async () => {
    const queue = await freshQueue({ concurrency: 2 });
    for (const pr of [1, 2, 3, 4]) await queue.submit(pr);
    expect(await queue.states(1, 2, 3, 4)).toEqual({
      1: 'testing',
      2: 'testing',
      3: 'pending',
      4: 'pending',
    });
    await queue.advance(5);
    expect(await queue.states(1, 2, 3, 4)).toEqual({ 1: 'merged', 2: 'merged', 3: 'testing', 4: 'testing' });
  });

  it('orders waiting PRs by priority, first in first out among equals', async () => {
    const queue = await freshQueue();
    await queue.submit(1);
    await queue.submit(2, { priority: 'low' });
    await queue.submit(3, { priority: 'high' });
    await queue.submit(4);
    await queue.submit(5, { priority: 10 });
    expect((await queue.queue()).enqueuedPullRequests.map((p) => p.prNumber)).toEqual([1, 3, 5, 4, 2]);
    await queue.runUntilIdle();
    expect(await queue.mergeOrder()).toEqual([1, 3, 5, 4, 2]);
  });

  it('lets an urgent PR interrupt the PRs testing behind it', async () => {
    const queue = await freshQueue({ concurrency: 2 });
    await queue.submit(1);
    await queue.submit(2);
    await queue.advance(2);
    await queue.submit(3, { priority: 'urgent' });
    expect(await queue.states(1, 2, 3)).toEqual({ 1: 'testing', 2: 'pending', 3: 'testing' });
    expect(await queue.pr(3)).toMatchObject({ skipTheLine: true, priorityName: 'urgent' });
    expect(await reasonsOf(queue, 2)).toContain('SKIP_THE_LINE_INTERRUPTED');
    await queue.runUntilIdle();
    expect(await queue.mergeOrder()).toEqual([3, 1, 2]);
  });

  it('places a queued PR resubmitted urgent at once, interrupting the PR testing behind it (v1)', async () => {
    const queue = await freshQueue({ concurrency: 2 });
    await queue.submit(1);
    await queue.submit(2);
    await queue.submit(3);
    await queue.advance(2);
    await queue.submit(3, { priority: 'urgent' });
    expect(await queue.states(1, 2, 3)).toEqual({ 1: 'testing', 2: 'pending', 3: 'testing' });
    expect(await reasonsOf(queue, 2)).toContain('SKIP_THE_LINE_INTERRUPTED');
    await queue.runUntilIdle();
    expect(await queue.mergeOrder()).toEqual([3, 1, 2]);
  });

  it('keeps urgent PRs first in first out among themselves', async () => {
    const queue = await freshQueue();
    await queue.submit(1);
    await queue.submit(2, { priority: 'urgent' });
    await queue.submit(3, { priority: 'urgent' });
    await queue.runUntilIdle();
    expect(await queue.mergeOrder()).toEqual([2, 3, 1]);
  });
});

describe('predictive testing', () => {
  it('tests a PR on top of the PRs ahead and merges it only after them', async () => {
    const queue = await freshQueue({ concurrency: 2 });
    await queue.ci(1, { durationMinutes: 10 });
    await queue.ci(2, { durationMinutes: 2 });
    await queue.submit(1);
    await queue.submit(2);
    await queue.advance(3);
    expect(await queue.states(1, 2)).toEqual({ 1: 'testing', 2: 'tests_passed' });
    const run = (await queue.pr(2)).verifiedByTestRun as string;
    expect((await queue.testingDetails(run)).json).toMatchObject({
      dependentPrs: [1],
      testedPullRequests: [{ prNumber: 2 }],
    });
    await queue.advance(7);
    expect(await queue.states(1, 2)).toEqual({ 1: 'merged', 2: 'merged' });
    expect(await queue.mergeOrder()).toEqual([1, 2]);
  });

  it('holds a failure in pending_failure until the run behind it finishes, then restarts that run without it', async () => {
    const queue = await freshQueue({ concurrency: 2, pendingFailureDepth: 1 });
    await queue.ci(1, { outcome: 'fail', durationMinutes: 5 });
    await queue.ci(2, { durationMinutes: 10 });
    await queue.submit(1);
    await queue.submit(2);
    await queue.advance(5);
    expect(await queue.states(1, 2)).toEqual({ 1: 'pending_failure', 2: 'testing' });
    await queue.advance(5);
    expect(await queue.pr(1)).toMatchObject({ state: 'failed' });
    expect(await reasonsOf(queue, 1)).toContain('TEST_RUN_REQUIRED_STATUS_FAILED');
    expect(await queue.state(2)).toBe('testing');
    expect(await reasonsOf(queue, 2)).toContain('PREREQUISITE_MERGE_ITEM_FAILED');
    await queue.runUntilIdle();
    expect(await queue.states(1, 2)).toEqual({ 1: 'failed', 2: 'merged' });
  });

  it('waits for `pendingFailureDepth` runs behind a failure before failing it', async () => {
    const queue = await freshQueue({ concurrency: 3, pendingFailureDepth: 2 });
    await queue.ci(1, { outcome: 'flaky', durationMinutes: 1 });
    await queue.ci(2, { durationMinutes: 4 });
    await queue.ci(3, { durationMinutes: 8 });
    for (const pr of [1, 2, 3]) await queue.submit(pr);
    await queue.advance(5);
    expect(await queue.states(1, 2, 3)).toEqual({ 1: 'pending_failure', 2: 'tests_passed', 3: 'testing' });
    await queue.advance(3);
    expect(await queue.state(1)).toBe('failed');
    expect(await queue.states(2, 3)).toEqual({ 2: 'testing', 3: 'testing' });
  });

  it('merges a flaky failure optimistically when a run built on top of it passes', async () => {
    const queue = await freshQueue({ concurrency: 2, canOptimisticallyMerge: true, pendingFailureDepth: 1 });
    await queue.ci(1, { outcome: 'flaky', durationMinutes: 2 });
    await queue.ci(2, { durationMinutes: 6 });
    await queue.submit(1);
    await queue.submit(2);
    await queue.advance(2);
    expect(await queue.state(1)).toBe('pending_failure');
    await queue.advance(4);
    expect(await queue.states(1, 2)).toEqual({ 1: 'merged', 2: 'merged' });
    expect(await queue.mergeOrder()).toEqual([1, 2]);
  });

  it('lets a later passing PR carry the PRs ahead that it was tested with', async () => {
    const queue = await freshQueue({ concurrency: 2, canOptimisticallyMerge: true });
    await queue.ci(1, { durationMinutes: 30 });
    await queue.ci(2, { durationMinutes: 5 });
    await queue.submit(1);
    await queue.submit(2);
    await queue.advance(5);
    expect(await queue.states(1, 2)).toEqual({ 1: 'merged', 2: 'merged' });
  });

  it('fails a run that exceeds testingTimeoutMinutes with TEST_RUN_TIMEOUT', async () => {
    const queue = await freshQueue({ testingTimeoutMinutes: 30 });
    await queue.ci(1, { outcome: 'hang' });
    await queue.submit(1);
    await queue.advance(29);
    expect(await queue.state(1)).toBe('testing');
    await queue.advance(1);
    expect(await queue.state(1)).toBe('failed');
    expect(await reasonsOf(queue, 1)).toContain('TEST_RUN_TIMEOUT');
  });

  it('restarts one PR in place without retesting the others', async () => {
    const queue = await freshQueue({ concurrency: 2 });
    await queue.submit(1);
    await queue.submit(2);
    await queue.advance(2);
    const [first, second] = [await queue.pr(1), await queue.pr(2)];
    expect((await queue.restart(1)).status).toBe(200);
    const [restarted, untouched] = [await queue.pr(1), await queue.pr(2)];
    expect(restarted.state).toBe('testing');
    expect(restarted.verifiedByTestRun).not.toBe(first.verifiedByTestRun);
    expect(untouched.verifiedByTestRun).toBe(second.verifiedByTestRun);
    expect(await reasonsOf(queue, 1)).toContain('TESTS_RESTARTED_BY_API_REQUEST');
    await queue.runUntilIdle();
    expect(await queue.mergeOrder()).toEqual([1, 2]);
  });

  it('restarts the runs built on top of a cancelled PR', async () => {
    const queue = await freshQueue({ concurrency: 2 });
    await queue.submit(1);
    await queue.submit(2);
    const before = (await queue.pr(2)).verifiedByTestRun;
    await queue.cancel(1);
    expect(await queue.state(2)).toBe('testing');
    expect((await queue.pr(2)).verifiedByTestRun).not.toBe(before);
    expect(await reasonsOf(queue, 2)).toContain('PREREQUISITE_MERGE_ITEM_CANCELLED');
  });
});

describe('batching', () => {
  it('waits for batchingMinSize PRs and tests them in one run', async () => {
    const queue = await freshQueue({ batch: true, batchingMinSize: 3, batchingMaxWaitTimeMinutes: 10 });
    await queue.submit(1);
    await queue.submit(2);
    await queue.advance(5);
    expect(await queue.states(1, 2)).toEqual({ 1: 'pending', 2: 'pending' });
    await queue.submit(3);
    const runs = new Set([1, 2, 3].map(async (pr) => (await queue.pr(pr)).verifiedByTestRun));
    const ids = await Promise.all(runs);
    expect(new Set(ids).size).toBe(1);
    const details = await queue.testingDetails(ids[0] as string);
    expect((details.json.testedPullRequests as { prNumber: number }[]).map((p) => p.prNumber)).toEqual([
      1, 2, 3,
    ]);
    await queue.advance(5);
    expect(await queue.states(1, 2, 3)).toEqual({ 1: 'merged', 2: 'merged', 3: 'merged' });
  });

  it('starts a smaller batch once the first PR has waited batchingMaxWaitTimeMinutes', async () => {
    const queue = await freshQueue({ batch: true, batchingMinSize: 4, batchingMaxWaitTimeMinutes: 15 });
    await queue.submit(1);
    await queue.submit(2);
    await queue.advance(14);
    expect(await queue.state(1)).toBe('pending');
    await queue.advance(1);
    expect(await queue.states(1, 2)).toEqual({ 1: 'testing', 2: 'testing' });
  });

  it('tests a noBatch PR alone', async () => {
    const queue = await freshQueue({ batch: true, batchingMinSize: 2, concurrency: 2 });
    await queue.submit(1, { noBatch: true });
    await queue.submit(2);
    await queue.submit(3);
    const [one, two, three] = await Promise.all([1, 2, 3].map((pr) => queue.pr(pr)));
    expect(one!.state).toBe('testing');
    expect(two!.verifiedByTestRun).toBe(three!.verifiedByTestRun);
    expect(one!.verifiedByTestRun).not.toBe(two!.verifiedByTestRun);
  });

  it('bisects a failed batch with bisectionConcurrency runs, fails the culprit and merges the rest', async () => {
    const queue = await freshQueue({ batch: true, batchingMinSize: 4, bisectionConcurrency: 2 });
    await queue.ci(3, { outcome: 'fail' });
    for (const pr of [1, 2, 3, 4]) await queue.submit(pr);
    await queue.advance(5);
    const bisecting = (await queue.history()).filter((e) => e.kind === 'run' && e.runKind === 'bisection');
    expect(bisecting.filter((e) => e.status === 'in_progress').map((e) => e.prNumbers)).toEqual([
      [1, 2],
      [3, 4],
    ]);
    await queue.runUntilIdle();
    expect(await queue.states(1, 2, 3, 4)).toEqual({ 1: 'merged', 2: 'merged', 3: 'failed', 4: 'merged' });
    const metrics = await fetch(
      `${emu.current.url}/getMergeQueueMetrics?repo=${queue.repo.owner}/${queue.repo.name}&repoHost=github.com`,
      {
        headers: { 'x-api-token': emu.current.token },
      },
    );
    expect(await metrics.text()).toMatch(
      /mq_pr_test_duration_1h_seconds_count\{[^}]*queue_type="bisection"\} [1-9]/,
    );
  });

  it('with bisection_skip_redundant_tests, reuses a failure instead of repeating it, never a pass', async () => {
    const queue = await freshQueue({
      batch: true,
      batchingMinSize: 4,
      bisectionConcurrency: 2,
      optimizationMode: 'bisection_skip_redundant_tests',
    });
    await queue.ci(3, { outcome: 'fail' });
    for (const pr of [1, 2, 3, 4]) await queue.submit(pr);
    await queue.runUntilIdle();
    expect(await queue.states(1, 2, 3, 4)).toEqual({ 1: 'merged', 2: 'merged', 3: 'failed', 4: 'merged' });
    const history = await queue.history();
    const started = history.filter((e) => e.kind === 'run' && e.status === 'in_progress');
    // [3, 4] on top of [1, 2] would repeat the batch that failed: not run. The cleared [1, 2] are tested again.
    expect(started.filter((e) => e.runKind === 'bisection').map((e) => e.prNumbers)).toEqual([[1, 2], [3]]);
    expect(started.filter((e) => e.runKind === 'main').map((e) => e.prNumbers)).toEqual([
      [1, 2, 3, 4],
      [1, 2],
      [4],
    ]);
    const reused = history.filter((e) => e.kind === 'run' && e.reason === 'TEST_RUN_FAILED_BY_OPTIMIZATION');
    expect(reused.map((e) => [e.prNumbers, e.status])).toEqual([[[3, 4], 'failed']]);
  });
});

describe('parallel mode', () => {
  async function parallelQueue(concurrency = 4) {
    return freshQueue({ mode: 'parallel', concurrency });
  }

  it('keeps a PR not_ready until targets exist for its current head sha; a push cancels it', async () => {
    const queue = await parallelQueue();
    await queue.setPr(1, { headSha: 'sha-1' });
    await queue.submit(1);
    expect(await queue.pr(1)).toMatchObject({
      state: 'not_ready',
      readiness: { requiresImpactedTargets: true, hasImpactedTargets: false },
    });
    expect((await queue.queue()).enqueuedPullRequests).toEqual([]);
    await queue.targets(1, 'sha-1', ['//app']);
    expect(await queue.pr(1)).toMatchObject({ state: 'testing', readiness: { hasImpactedTargets: true } });
    await queue.setPr(1, { headSha: 'sha-2' });
    expect(await queue.pr(1)).toMatchObject({ state: 'cancelled', readiness: { hasImpactedTargets: false } });
    expect(await reasonsOf(queue, 1)).toContain('PR_PUSHED_TO');
    await queue.submit(1);
    expect(await queue.state(1)).toBe('not_ready');
    await queue.targets(1, 'sha-2', ['//app']);
    expect(await queue.state(1)).toBe('testing');
  });

  it('makes a PR wait only for the PRs whose targets it overlaps', async () => {
    const queue = await parallelQueue();
    await queue.ci(1, { durationMinutes: 20 });
    const targets: Record<number, string[] | 'ALL'> = { 1: ['//a'], 2: ['//b'], 3: ['//a', '//c'] };
    for (const [pr, list] of Object.entries(targets)) {
      await queue.targets(Number(pr), `sha-${pr}`, list);
      await queue.submit(Number(pr));
    }
    const runOf = async (pr: number) =>
      (await queue.testingDetails((await queue.pr(pr)).verifiedByTestRun as string)).json;
    expect(await runOf(2)).toMatchObject({ dependentPrs: [] });
    expect(await runOf(3)).toMatchObject({ dependentPrs: [1], impactedTargetsForTestedPrs: ['//a', '//c'] });
    await queue.advance(5);
    expect(await queue.states(1, 2, 3)).toEqual({ 1: 'testing', 2: 'merged', 3: 'tests_passed' });
    await queue.advance(15);
    expect(await queue.mergeOrder()).toEqual([2, 1, 3]);
  });

  it('treats ALL as overlapping everything and [] as overlapping nothing, but behind an ALL PR', async () => {
    const queue = await parallelQueue(5);
    await queue.ci(1, { durationMinutes: 20 });
    const targets: [number, string[] | 'ALL'][] = [
      [1, ['//a']],
      [2, ['//b']],
      [3, 'ALL'],
      [4, []],
      [5, ['//z']],
    ];
    for (const [pr, list] of targets) {
      await queue.targets(pr, `sha-${pr}`, list);
      await queue.submit(pr);
    }
    const dependents = async (pr: number) =>
      (
        (await queue.testingDetails((await queue.pr(pr)).verifiedByTestRun as string)).json as {
          dependentPrs: number[];
        }
      ).dependentPrs;
    expect(await dependents(3)).toEqual([1, 2]);
    expect(await dependents(4)).toEqual([1, 2, 3]);
    expect(await dependents(5)).toEqual([3, 1, 2].sort());
    await queue.advance(5);
    expect(await queue.states(1, 2, 3, 4, 5)).toEqual({
      1: 'testing',
      2: 'merged',
      3: 'tests_passed',
      4: 'tests_passed',
      5: 'tests_passed',
    });
  });
});

describe('readiness', () => {
  it('keeps a PR not_ready while it is not mergeable or targets another base branch', async () => {
    const queue = await freshQueue();
    await queue.setPr(1, { mergeability: 'not_mergeable' });
    await queue.setPr(2, { baseBranch: 'release' });
    await queue.submit(1);
    await queue.submit(2);
    expect(await queue.pr(1)).toMatchObject({
      state: 'not_ready',
      readiness: { gitHubMergeability: 'not_mergeable' },
    });
    expect(await queue.pr(2)).toMatchObject({
      state: 'not_ready',
      readiness: { doesBaseBranchMatch: false },
    });
    await queue.setPr(1, { mergeability: 'mergeable' });
    expect(await queue.state(1)).toBe('testing');
  });
});

describe('queue states', () => {
  it('paused: running tests finish but nothing merges and nothing new starts', async () => {
    const queue = await freshQueue();
    await queue.submit(1);
    await queue.submit(2);
    await queue.update({ state: 'paused' });
    await queue.advance(10);
    expect(await queue.states(1, 2)).toEqual({ 1: 'tests_passed', 2: 'pending' });
    await queue.update({ state: 'running' });
    expect(await queue.states(1, 2)).toEqual({ 1: 'merged', 2: 'testing' });
  });

  it('draining: the line is tested and merged, new PRs do not enter it', async () => {
    const queue = await freshQueue();
    await queue.submit(1);
    await queue.submit(2);
    await queue.update({ state: 'draining' });
    await queue.submit(3);
    await queue.runUntilIdle();
    expect(await queue.states(1, 2, 3)).toEqual({ 1: 'merged', 2: 'merged', 3: 'not_ready' });
    await queue.update({ state: 'running' });
    expect(await queue.state(3)).toBe('testing');
  });

  it('switching_modes: a mode change waits for running tests, then applies', async () => {
    const queue = await freshQueue();
    await queue.submit(1);
    await queue.submit(2);
    const answer = await queue.update({ mode: 'parallel' });
    expect(answer.json).toMatchObject({ state: 'switching_modes', mode: 'single' });
    await queue.advance(5);
    expect(await queue.queue()).toMatchObject({ state: 'running', mode: 'parallel' });
    expect(await queue.states(1, 2)).toEqual({ 1: 'merged', 2: 'not_ready' });
  });
});

// The operations only v2 serves, run as the runner runs the action against the emulator (which serves v1
// and v2 from one engine): over v2 each does its work and says so in its outputs and summary; over v1
// each stops with one line naming api-version. Every v2 request passes a proxy that checks it against
// the v2 document.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { emulatorClock } from '../helpers/virtual-clock.js';
import { useEmulator } from '../helpers/emulator.js';
import { overVersion, type Version } from '../helpers/over-versions.js';
import { startCheckingProxy, type CheckingProxy } from '../helpers/v2-requests.js';

const emulator = useEmulator({
  timeScale: 600,
  apiKeys: [{ name: 'merger', permissions: ['mergeAndCancel'] }],
});
let proxy: CheckingProxy;

beforeAll(async () => {
  proxy = await startCheckingProxy(emulator.current.origin);
});

afterAll(async () => {
  await proxy.close();
  expect(proxy.problems).toEqual([]);
});

function setUp(name: string, version: Version = 'v2') {
  return overVersion(emulator, () => proxy, version, `octo-org/${name}`, { 'pr-number': '17' });
}

describe('over v1, each stops with one line naming api-version', () => {
  it.each([
    ['reprioritize-pull-request', { priority: 'urgent' }],
    ['update-queue-entry', { 'no-batch': 'true' }],
    ['get-queue-entry-history', {}],
    ['list-verification-runs', {}],
    ['get-verification-run', { 'test-run-id': 'abc' }],
    ['list-testing-results', {}],
  ])('%s', async (operation, inputs) => {
    const { queue, act } = setUp(`v1-${operation}`, 'v1');
    await queue.create();
    const result = await act({ operation, ...inputs });
    expect(result.failed).toBe(true);
    expect(result.error).toBe(
      `Input "api-version": is v1, and operation ${operation} needs the v2 API. Set api-version to v2 and api-token to a v2 API key (trunk_v2_..., from Settings > Developer > API Keys).`,
    );
  });

  it('submit-pull-request with direct', async () => {
    const { queue, act } = setUp('v1-direct', 'v1');
    await queue.create();
    const result = await act({ operation: 'submit-pull-request', direct: 'true' });
    expect(result.failed).toBe(true);
    expect(result.error).toMatch(
      /^Input "api-version": is v1, and input direct needs the v2 API\. Set api-version to v2/,
    );
    await expect(queue.pr(17)).rejects.toThrow(/404/);
  });
});

describe('over v2', () => {
  it('reprioritizes a queued PR in place', async () => {
    const { queue, act } = setUp('reprioritize');
    await queue.create();
    await queue.ci(17, { outcome: 'hang' });
    await act({ operation: 'submit-pull-request' });
    const result = await act({ operation: 'reprioritize-pull-request', priority: 'urgent' });
    expect(result.failed).toBe(false);
    expect(result.outputs).toMatchObject({
      'priority-name': 'urgent',
      'priority-value': '0',
      'skips-the-line': 'true',
      state: 'TESTING',
    });
    expect(result.summary).toMatch(/^## ⚙️ Priority set to urgent \(0\): \[#<!-- -->17\]/);
    expect(result.summary).toContain('| testing | urgent (0) | yes | allowed | no |');
    expect(await queue.pr(17)).toMatchObject({ priorityValue: 0 });
  });

  it('reprioritize without a priority says which input to set', async () => {
    const { queue, act } = setUp('reprioritize-empty');
    await queue.create();
    const result = await act({ operation: 'reprioritize-pull-request' });
    expect(result.error).toMatch(/^Input "priority": is empty\. Set priority to urgent/);
  });

  it('updates the queue entry: tested alone, then batched again', async () => {
    const { queue, act } = setUp('update-entry');
    await queue.create();
    await queue.ci(17, { outcome: 'hang' });
    await act({ operation: 'submit-pull-request' });
    const alone = await act({ operation: 'update-queue-entry', 'no-batch': 'true', priority: 'high' });
    expect(alone.failed).toBe(false);
    expect(alone.outputs).toMatchObject({
      'allow-batching': 'false',
      'priority-name': 'high',
      direct: 'false',
    });
    expect(alone.summary).toMatch(/^## ⚙️ Queue entry updated: /);
    expect(await queue.pr(17)).toMatchObject({ noBatch: true, priorityValue: 10 });
    const batched = await act({ operation: 'update-queue-entry', 'no-batch': 'false', direct: 'true' });
    expect(batched.outputs).toMatchObject({ 'allow-batching': 'true', direct: 'true' });
    expect(batched.summary).toContain('| allowed | yes |');
    expect(await queue.pr(17)).toMatchObject({ noBatch: false });
  });

  it('update-queue-entry with nothing to change says what to set', async () => {
    const { queue, act } = setUp('update-empty');
    await queue.create();
    const result = await act({ operation: 'update-queue-entry' });
    expect(result.error).toMatch(
      /^Input "priority": is empty, and so are no-batch and direct\. Set at least one/,
    );
  });

  it('with a key that may not set priorities, names the permission to grant', async () => {
    const { queue, act } = setUp('reprioritize-denied');
    await queue.create();
    await queue.ci(17, { outcome: 'hang' });
    await act({ operation: 'submit-pull-request' });
    const merger = emulator.current.apiKeys.find((key) => key.name === 'merger')!.key;
    const result = await act({
      operation: 'reprioritize-pull-request',
      priority: 'urgent',
      'api-token': merger,
    });
    expect(result.failed).toBe(true);
    expect(result.error).toMatch(
      /^pullRequests\.reprioritize failed: the API answered 403 INSUFFICIENT_PERMISSIONS\. The API key needs the permission "Set priority on PRs": an organization admin grants it in Settings > Developer > API Keys\. \(the service said: .*\)$/,
    );
    expect(result.error).not.toContain(merger);
    expect(await queue.pr(17)).toMatchObject({ priorityValue: 100 });
  });

  it('submits direct to the queue', async () => {
    const { queue, act } = setUp('direct');
    await queue.create();
    await queue.ci(17, { outcome: 'hang' });
    const result = await act({ operation: 'submit-pull-request', direct: 'true' });
    expect(result.failed).toBe(false);
    expect(result.outputs['is-submitted']).toBe('true');
    expect(result.summary).toContain('Direct to queue');
    // Read with another key: pull-request reads are limited per key, and the run just used the admin key's.
    const merger = emulator.current.apiKeys.find((key) => key.name === 'merger')!.key;
    const v2 = await emulator.v2<{ data: { queueEntry?: { direct: boolean } }[] }>(
      'GET',
      `/v2/pull-requests?repositoryId=${await repositoryId('octo-org/direct', merger)}&number=17`,
      undefined,
      merger,
    );
    expect(v2.json.data[0]?.queueEntry?.direct).toBe(true);
  });
});

/** The summary with markdown's escapes of PR numbers undone ("#<!-- -->12" is "#12" on the page). */
function unescaped(summary: string): string {
  return summary.replace(/#<!-- -->/g, '#');
}

async function repositoryId(repo: string, key: string): Promise<string> {
  const answer = await emulator.v2<{ data: { id: string }[] }>(
    'GET',
    `/v2/repositories?providerUrl=${encodeURIComponent(`https://github.com/${repo}`)}`,
    undefined,
    key,
  );
  return answer.json.data[0]!.id;
}

describe('over v2, what happened to a PR', () => {
  it('tells the history of a failed PR, its runs and the failing check, required first', async () => {
    const { queue, act } = setUp('failed-story');
    await queue.create();
    await queue.ci(17, { outcome: 'fail', durationMinutes: 3 });
    await act({ operation: 'submit-pull-request' });
    await queue.runUntilIdle();

    const history = await act({ operation: 'get-queue-entry-history' });
    expect(history.failed).toBe(false);
    expect(history.outputs).toMatchObject({ state: 'FAILED', reason: 'a required check failed' });
    expect(history.summary).toMatch(/^## ❌ Failed (just now|.+? ago) \(a required check failed\): /);
    expect(history.summary).toContain('tested once');
    const steps = JSON.parse(history.outputs.transitions!) as { state: string }[];
    expect(steps.map((s) => s.state)).toEqual(expect.arrayContaining(['PENDING', 'TESTING', 'FAILED']));
    expect(history.summary).not.toMatch(/unknown/i);

    const runs = await act({ operation: 'list-verification-runs' });
    expect(runs.outputs).toMatchObject({ count: '1', 'latest-status': 'FAILED' });
    expect(runs.summary).toMatch(
      /^## ❌ The latest verification run of PR #17 failed \(started .+ ago; 1 run\)\n/,
    );

    const run = await act({ operation: 'get-verification-run' });
    expect(run.failed).toBe(false);
    expect(run.outputs['verification-run-id']).toBe(runs.outputs['latest-run-id']);
    expect(run.outputs).toMatchObject({ status: 'FAILED', 'tested-pr-numbers': '17' });
    expect(JSON.parse(run.outputs['failing-checks']!)).toEqual([
      expect.objectContaining({ name: 'emulated-ci/test', conclusion: 'FAILURE', required: true }),
    ]);
    expect(run.summary).toMatch(/^## ❌ Verification run failed: /);
    expect(run.summary).toContain('The required check **emulated-ci/test** concluded **FAILURE**');
    expect(run.summary).toMatch(/took 3m/);
    expect(run.summary).toContain(
      "| Required statuses from | the target branch's protection rules on GitHub |",
    );

    const queueRuns = await act({
      operation: 'list-verification-runs',
      'runs-of': 'queue',
      'run-status': 'succeeded',
    });
    expect(queueRuns.outputs.count).toBe('0');
    expect(queueRuns.summary).toMatch(
      /^## 🧪 No succeeded verification runs of the queue for <code>main<\/code> yet/,
    );
  });

  it('lists the testing results of a window, and refuses one over 45 days in one line', async () => {
    const { queue, act } = setUp('results');
    await queue.create();
    await queue.ci(17, { outcome: 'pass', durationMinutes: 2 });
    await act({ operation: 'submit-pull-request' });
    await queue.runUntilIdle();
    const results = await act({ operation: 'list-testing-results' }, await emulatorClock(emulator));
    expect(results.failed).toBe(false);
    expect(results.outputs).toMatchObject({
      count: '1',
      passed: '1',
      failed: '0',
      'median-testing-seconds': '120',
    });
    expect(results.summary).toMatch(
      /^## ✅ 1 of 1 testing result passed, 0 failed in the queue for <code>main<\/code>/,
    );

    const tooLong = await act({
      operation: 'list-testing-results',
      since: '2026-01-01T00:00:00Z',
      until: '2026-03-01T00:00:00Z',
    });
    expect(tooLong.failed).toBe(true);
    expect(tooLong.error).toBe(
      'Input "since": is 59 days before until, and the API answers at most 45 days. Set since and until at most 45 days apart (ask for longer spans window by window).',
    );
  });
});

describe('wait-for over v2, on a queue of several PRs', () => {
  async function busyQueue(name: string, concurrency: number) {
    const { queue, act } = setUp(name);
    const look = act;
    // Batches of one: tested as without batching, and /order names what is directly ahead only while
    // batching (MergeQueueOrder.batchingEnabled).
    await queue.create({ concurrency, batch: true, batchingMinSize: 1 });
    await queue.ci(undefined, { outcome: 'pass', durationMinutes: 30 });
    await queue.ci(10, { outcome: 'pass', durationMinutes: 60 });
    await queue.ci(11, { outcome: 'fail', durationMinutes: 10 });
    await queue.submit(10);
    await queue.submit(11);
    const wait = async () =>
      act(
        {
          operation: 'submit-pull-request',
          'wait-for': 'merged',
          'poll-interval-seconds': '300',
          'progress-interval-seconds': '3600',
          'wait-timeout-minutes': '600',
        },
        await emulatorClock(emulator),
      );
    return { queue, wait, act: look };
  }

  it('says what is directly ahead of the PR and which failure holds it', async () => {
    const { queue, wait, act } = await busyQueue('held', 2);
    // #11 has failed by then; while #10 (below it) still tests, the queue cannot tell whose fault it is.
    await queue.advance(15);
    await queue.submit(12);
    expect(await queue.states(10, 11, 12)).toEqual({ 10: 'testing', 11: 'pending_failure', 12: 'testing' });
    await queue.submit(17);
    const looked = await act({ operation: 'get-submitted-pull-request' });
    const summary = unescaped(looked.summary);
    expect(summary).toMatch(/^## 🕒 PENDING \(directly behind #12, held by #11 \(failed; .*\)\): /);
    expect(summary).toContain('| State | Directly ahead | Held by | Queue | In this state | Priority |');
    expect(summary).toContain('| PENDING | #12 | #11 (failed, blame being worked out) | running |');
    expect(summary).not.toMatch(/approximate|unknown/);
    const result = await wait();
    expect(result.failed).toBe(false);
    expect(result.outputs.state).toBe('MERGED');
    expect(result.log).toMatch(
      /PR #17: PENDING, directly behind #12, held by #11 \(failed; the queue is working out which PR is to blame\)/,
    );
    expect(result.log).not.toMatch(/\(approximate\)/);
  });

  it('explains a step back from the queue-entry history', async () => {
    const { wait, act } = await busyQueue('sent-back', 3);
    const result = await wait();
    expect(result.outputs.state).toBe('MERGED');
    expect(result.log).toMatch(/PR #17 stepped back \([^)]*\): a PR it was tested on top of failed\./);
    expect(result.summary).toMatch(/sent back once \(a PR it was tested on top of failed\)/);
    // Looked at later, without waiting, the summary tells the same story from the history.
    const looked = await act({ operation: 'get-submitted-pull-request' });
    expect(looked.summary).toMatch(/^## ✅ Merged after \S+/);
    expect(looked.summary).toMatch(/Tested twice, sent back once \(a PR it was tested on top of failed\)/);
    expect(looked.summary).toContain('```mermaid');
  });
});

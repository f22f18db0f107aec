// The pull-request operations end to end: the action run as the runner runs it (inputs, a real event
// payload, output and summary files) against the emulator over HTTP.
import { describe, expect, it } from '@jest/globals';
import { runAction, type RunOptions } from '../helpers/action-runner.js';
import { QueueDriver, TEST_TOKEN, useEmulator } from '../helpers/emulator.js';
import { example } from '../helpers/webhook-examples.js';

const emulator = useEmulator();

/** A real `pull_request` payload moved to its own repository, so that tests do not share a queue. */
function pullRequestEvent(repoName: string) {
  const payload = example('pull_request', (p) => p.action === 'opened');
  payload.repository.name = repoName;
  payload.repository.full_name = `${payload.repository.owner.login}/${repoName}`;
  payload.pull_request.base.repo.full_name = payload.repository.full_name;
  payload.pull_request.head.repo!.full_name = payload.repository.full_name;
  return payload;
}

async function setUp(repoName: string) {
  const payload = pullRequestEvent(repoName);
  const queue = new QueueDriver(emulator, payload.repository.full_name, payload.pull_request.base.ref);
  await queue.create();
  const act = (inputs: Record<string, string>, options: Partial<RunOptions> = {}) =>
    runAction({
      eventName: 'pull_request',
      payload,
      env: { GITHUB_REPOSITORY: payload.repository.full_name },
      ...options,
      inputs: { 'api-url': emulator.current.url, 'api-token': TEST_TOKEN, ...inputs },
    });
  return { payload, queue, act, number: payload.pull_request.number };
}

describe('submit-pull-request', () => {
  it('submits the PR of the event with its priority and batching, and says so in the summary', async () => {
    const { queue, act, number, payload } = await setUp('submit-basic');
    const result = await act({ operation: 'submit-pull-request', priority: 'high', 'no-batch': 'true' });

    expect(result.failed).toBe(false);
    expect(result.outputs).toMatchObject({
      'is-submitted': 'true',
      'already-queued': 'false',
      'priority-name': 'high',
      'priority-value': '10',
      'pr-number': String(number),
      'target-branch': payload.pull_request.base.ref,
      repo: payload.repository.full_name,
      'is-merge-queue-test-run': 'false',
    });
    expect(await queue.pr(number)).toMatchObject({ priorityValue: 10, noBatch: true, prNumber: number });
    expect(result.summary).toContain(`(https://github.com/${payload.repository.full_name}/pull/${number})`);
    expect(result.summary).toMatch(/^## 🕒 TESTING at position 1 of 1: \[/);
    expect(result.summary).toMatch(/\| Priority \|\n\| --- .*\n\| TESTING \| .* \| high \(10\) \|/);
    expect(result.summary).toContain('| Batching | tested alone (no-batch) |');
  });

  it('takes a 409 as "already queued", not a failure', async () => {
    const { act } = await setUp('submit-409');
    await emulator.control('POST', '/faults', {
      path: '/submitPullRequest',
      faults: [{ kind: 'status', status: 409, body: 'Conflict' }],
    });
    const result = await act({ operation: 'submit-pull-request' });
    expect(result.failed).toBe(false);
    expect(result.outputs).toMatchObject({ 'already-queued': 'true', 'is-submitted': 'true' });
  });

  it('submitting twice keeps one entry and updates its priority', async () => {
    const { queue, act, number } = await setUp('submit-twice');
    await act({ operation: 'submit-pull-request', priority: 'low' });
    const again = await act({ operation: 'submitPullRequest', priority: '42' });
    expect(again.failed).toBe(false);
    expect(await queue.pr(number)).toMatchObject({ priorityValue: 42 });
    const submissions = (await queue.history()).filter((e) => e.kind === 'pr_state' && e.to === 'not_ready');
    expect(submissions).toHaveLength(1);
  });
});

describe('get-submitted-pull-request', () => {
  it('answers is-submitted=false for a PR never submitted, without failing', async () => {
    const { act } = await setUp('lookup-none');
    const result = await act({ operation: 'get-submitted-pull-request' });
    expect(result.failed).toBe(false);
    expect(result.outputs).toMatchObject({ 'is-submitted': 'false', state: '', response: '' });
    expect(result.summary).toContain('never submitted');
  });

  it('reports the state in the seed spelling and the priority', async () => {
    const { queue, act, number } = await setUp('lookup-state');
    await act({ operation: 'submit-pull-request', priority: 'urgent' });
    await queue.advance(1);
    const result = await act({ operation: 'get-submitted-pull-request' });
    expect(result.outputs).toMatchObject({
      'is-submitted': 'true',
      state: 'TESTING',
      'priority-name': 'urgent',
      'priority-value': '0',
    });
    expect(JSON.parse(result.outputs.response!)).toMatchObject({ prNumber: number, state: 'testing' });
    expect(result.summary.split('\n')[0]).toMatch(/^## 🕒 TESTING at position 1 of 1: /);
    expect(result.summary).toContain('| TESTING | position 1 of 1 (approximate) | running |');
  });
});

describe('cancel-pull-request and restart-tests-on-pull-request', () => {
  it('cancels a queued PR', async () => {
    const { queue, act, number } = await setUp('cancel');
    await act({ operation: 'submit-pull-request' });
    const result = await act({ operation: 'cancel-pull-request' });
    expect(result.failed).toBe(false);
    expect(await queue.state(number)).toBe('cancelled');
  });

  it('fails with one line when the PR is not in the queue', async () => {
    const { act, number } = await setUp('cancel-missing');
    const result = await act({ operation: 'cancel-pull-request' });
    expect(result.failed).toBe(true);
    expect(result.error).toMatch(
      new RegExp(`^PR #${number} is not in the merge queue of .* Check pr-number and target-branch`),
    );
  });

  it('restarts the tests of a PR that is testing', async () => {
    const { queue, act, number } = await setUp('restart');
    await act({ operation: 'submit-pull-request' });
    await queue.advance(1);
    const before = (await queue.pr(number)).verifiedByTestRun;
    const result = await act({ operation: 'restart-tests-on-pull-request' });
    expect(result.failed).toBe(false);
    await queue.advance(1);
    const after = await queue.pr(number);
    expect(after.state).toBe('testing');
    expect(after.verifiedByTestRun).not.toBe(before);
  });
});

describe('get-merge-queue-testing-details', () => {
  it('takes the test run from a push to trunk-merge/pr-<N>/<id>', async () => {
    const { queue, act, number, payload } = await setUp('details');
    await act({ operation: 'submit-pull-request' });
    await queue.advance(1);
    const testRunId = String((await queue.pr(number)).verifiedByTestRun);
    const push = example('push');
    push.ref = `refs/heads/trunk-merge/pr-${number}/${testRunId}`;
    push.repository.full_name = payload.repository.full_name;

    const result = await runAction({
      eventName: 'push',
      payload: push,
      env: { GITHUB_REPOSITORY: payload.repository.full_name, GITHUB_REF: push.ref },
      inputs: {
        operation: 'get-merge-queue-testing-details',
        'api-url': emulator.current.url,
        'api-token': TEST_TOKEN,
        'target-branch': payload.pull_request.base.ref,
      },
    });
    expect(result.failed).toBe(false);
    expect(result.outputs).toMatchObject({
      'is-merge-queue-test-run': 'true',
      'pr-number': String(number),
      'test-run-id': testRunId,
      'test-status': 'in_progress',
      'test-branch': `trunk-merge/pr-${number}/${testRunId}`,
      'tested-pr-numbers': String(number),
    });
    expect(result.summary.split('\n')[0]).toMatch(/^## 🕒 Test run in progress: <code>trunk-merge\/pr-\d+\//);
  });

  it('asks for test-run-id when the event has none', async () => {
    const { act } = await setUp('details-missing');
    const result = await act({ operation: 'get-merge-queue-testing-details' });
    expect(result.failed).toBe(true);
    expect(result.error).toMatch(/^Input "test-run-id": is empty .* Set test-run-id/);
  });
});

// describe-merge-queue-run and the outputs every operation gives on a merge-queue test run: the PRs it
// tests, their impacted targets, and an early end when none of them is still in the queue.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAction } from '../helpers/action-runner.js';
import { QueueDriver, TEST_TOKEN, useEmulator } from '../helpers/emulator.js';
import { tempDir } from '../helpers/git-repo.js';
import { startTamperingProxy, type TamperingProxy } from '../helpers/tampering-proxy.js';
import { example } from '../helpers/webhook-examples.js';

const emulator = useEmulator();
const temp = tempDir('mqa-mq-run-');
afterAll(temp.cleanup);

let proxy: TamperingProxy;
beforeAll(async () => {
  proxy = await startTamperingProxy(emulator.current.origin);
});
afterAll(() => proxy.close());

async function testRun(name: string, apiUrl = () => emulator.current.url) {
  const repo = `octo-org/${name}`;
  const queue = new QueueDriver(emulator, repo, 'main');
  await queue.create({ mode: 'parallel' });
  await queue.ci(undefined, { outcome: 'pass', durationMinutes: 30 });
  await queue.setPr(12, { headSha: '1'.repeat(40), impactedTargets: ['//app:web', '//lib:auth'] });
  await queue.submit(12);
  const testRunId = String((await queue.pr(12)).verifiedByTestRun);
  const push = example('push');
  push.ref = `refs/heads/trunk-merge/pr-12/${testRunId}`;
  push.repository.full_name = repo;
  const act = (inputs: Record<string, string>) =>
    runAction({
      eventName: 'push',
      payload: push,
      env: { GITHUB_REPOSITORY: repo, GITHUB_REF: push.ref },
      inputs: {
        'api-url': apiUrl(),
        'api-token': TEST_TOKEN,
        'target-branch': 'main',
        ...inputs,
      },
    });
  return { queue, act, testRunId };
}

describe('describe-merge-queue-run', () => {
  it('names the tested PRs and their impacted targets', async () => {
    const { act, testRunId } = await testRun('mq-run');
    const result = await act({ operation: 'describe-merge-queue-run' });
    expect(result.failed).toBe(false);
    expect(result.outputs).toMatchObject({
      'is-merge-queue-run': 'true',
      'test-run-id': testRunId,
      'tested-pr-numbers': '12',
      'impacted-targets-for-tested-prs': '["//app:web","//lib:auth"]',
      dequeued: 'false',
      'prs-still-queued': '12',
    });
    expect(result.log).toContain(
      `Merge-queue test run ${testRunId}: tests #12; impacted targets: //app:web, //lib:auth.`,
    );
    // The branch as people quote it: the run id cut to the eight characters the timeline shows.
    expect(result.summary.split('\n')[0]).toBe(
      `## 🧪 Merge-queue test run: <code>trunk-merge/pr-12/${testRunId.slice(0, 8)}…</code>`,
    );
    expect(result.summary).toContain(
      '| [#<!-- -->12](https://github.com/octo-org/mq-run/pull/12) | TESTING |',
    );
  });

  it('titles a run whose answer gives no test branch by the PRs it tests, never by its uuid', async () => {
    const { act, testRunId } = await testRun('mq-run-unnamed', () => `${proxy.origin}/v1`);
    proxy.on('POST', /\/getMergeQueueTestingDetails$/, (answer) => {
      (answer.json as { testBranch: string }).testBranch = '';
      return answer;
    });
    const described = await act({ operation: 'describe-merge-queue-run' }).finally(() => proxy.reset());
    expect(described.error).toBe('');
    expect(described.failed).toBe(false);
    expect(described.summary.split('\n')[0]).toBe('## 🧪 Merge-queue test run of PR #<!-- -->12');
    expect(described.summary).not.toContain(testRunId);
  });

  it('gives the same outputs beside any other operation run there', async () => {
    const { act } = await testRun('mq-run-any');
    const result = await act({ operation: 'get-queue' });
    expect(result.failed).toBe(false);
    expect(result.outputs).toMatchObject({
      'is-merge-queue-run': 'true',
      'tested-pr-numbers': '12',
      'impacted-targets-for-tested-prs': '["//app:web","//lib:auth"]',
      'queue-state': 'running',
    });
  });

  it('gives them beside an operation that calls no service otherwise (compute-impacted-targets)', async () => {
    // Such an operation loads no API client for itself; on a merge-queue run the client still comes.
    const { act } = await testRun('mq-run-offline');
    writeFileSync(join(temp.dir, 'targets.yml'), 'rules:\n  - match: "app/**"\n    targets: [app]\n');
    writeFileSync(join(temp.dir, 'changed.txt'), 'app/main.ts\n');
    const result = await act({
      operation: 'compute-impacted-targets',
      'working-directory': temp.dir,
      'targets-config': 'targets.yml',
      'changed-files-file': 'changed.txt',
    });
    expect(result.failed).toBe(false);
    expect(result.outputs).toMatchObject({
      'is-merge-queue-run': 'true',
      'tested-pr-numbers': '12',
      'impacted-targets-for-tested-prs': '["//app:web","//lib:auth"]',
      'impacted-targets': '["app"]',
    });
  });

  it('ends the job with exit-if-dequeued once none of its PRs is still queued', async () => {
    const { queue, act } = await testRun('mq-run-dequeued');
    const kept = await act({ operation: 'describe-merge-queue-run', 'exit-if-dequeued': 'true' });
    expect(kept.failed).toBe(false);
    await queue.cancel(12);
    const ended = await act({ operation: 'describe-merge-queue-run', 'exit-if-dequeued': 'true' });
    expect(ended.failed).toBe(true);
    expect(ended.error).toBe(
      'None of the PRs this merge-queue run tests (#12) is still in the queue, so its result no longer matters; ending the job here (exit-if-dequeued).',
    );
    expect(ended.outputs).toMatchObject({ dequeued: 'true', 'prs-still-queued': '' });
    expect(ended.summary.split('\n')[0]).toMatch(/^## 🛑 Obsolete merge-queue test run: /);
  });

  it('says so, without failing, on a run that is not a merge-queue test run', async () => {
    const result = await runAction({
      eventName: 'workflow_dispatch',
      env: { GITHUB_REPOSITORY: 'octo-org/mq-none' },
      inputs: {
        operation: 'describe-merge-queue-run',
        'api-url': emulator.current.url,
        'api-token': TEST_TOKEN,
        'target-branch': 'main',
      },
    });
    expect(result.failed).toBe(false);
    expect(result.outputs).toMatchObject({
      'is-merge-queue-run': 'false',
      'tested-pr-numbers': '',
      dequeued: 'false',
    });
    expect(result.summary.split('\n')[0]).toBe('## ➖ Not a merge-queue test run');
  });
});

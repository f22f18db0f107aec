// The same operations, inputs, outputs and summaries over v1 and over v2, run as the runner runs the
// action against the emulator, which serves both from one engine: a PR submitted over one is seen over the
// other. Every v2 request passes a proxy that checks it against the v2 document.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { runCli } from '../../src/cli/main.js';
import { useEmulator } from '../helpers/emulator.js';
import { VERSIONS, overVersion, type Version } from '../helpers/over-versions.js';
import { startCheckingProxy, type CheckingProxy } from '../helpers/v2-requests.js';

const emulator = useEmulator({
  timeScale: 600,
  apiKeys: [{ name: 'reader', permissions: [] }],
});
let proxy: CheckingProxy;

beforeAll(async () => {
  proxy = await startCheckingProxy(emulator.current.origin);
});

afterAll(async () => {
  await proxy.close();
  expect(proxy.problems).toEqual([]);
});

function setUp(version: Version, name: string) {
  return overVersion(emulator, () => proxy, version, `octo-org/${name}-${version}`, { 'pr-number': '17' });
}

describe.each(VERSIONS)('over %s', (version) => {
  it('submits with a priority and no batching, then reads the PR back', async () => {
    const { queue, act } = setUp(version, 'submit');
    await queue.create();
    await queue.ci(17, { outcome: 'hang' });
    const submitted = await act({ operation: 'submit-pull-request', priority: 'high', 'no-batch': 'true' });

    expect(submitted.failed).toBe(false);
    expect(submitted.outputs).toMatchObject({
      'is-submitted': 'true',
      'already-queued': 'false',
      'priority-name': 'high',
      'priority-value': '10',
    });
    expect(submitted.summary).toContain('| Batching | tested alone (no-batch) |');
    expect(await queue.pr(17)).toMatchObject({ priorityValue: 10, noBatch: true, prNumber: 17 });

    const looked = await act({ operation: 'get-submitted-pull-request' });
    expect(looked.failed).toBe(false);
    expect(looked.outputs).toMatchObject({ state: 'TESTING' });
    expect(looked.summary).toMatch(/^## 🕒 TESTING/);
  });

  // v1 took a second submit as an update of the entry; v2 refuses it (409 PR_ALREADY_ENQUEUED), which is
  // read as "already queued". Neither fails the step.
  it('submits a queued PR again without failing', async () => {
    const { queue, act } = setUp(version, 'twice');
    await queue.create();
    await queue.ci(17, { outcome: 'hang' });
    await act({ operation: 'submit-pull-request' });
    const again = await act({ operation: 'submit-pull-request' });
    expect(again.failed).toBe(false);
    expect(again.outputs['already-queued']).toBe(version === 'v2' ? 'true' : 'false');
    expect(await queue.state(17)).toBe('testing');
  });

  it('submits and waits until the PR is merged', async () => {
    const { queue, act } = setUp(version, 'wait');
    await queue.create();
    const result = await act({ operation: 'submit-pull-request', 'wait-for': 'merged' });
    expect(result.failed).toBe(false);
    expect(result.outputs).toMatchObject({ state: 'MERGED' });
    expect(result.summary).toMatch(/^## ✅ Merged/);
  });

  it('restarts the tests of a PR in the queue, then cancels it', async () => {
    const { queue, act } = setUp(version, 'cancel');
    await queue.create();
    await queue.ci(17, { outcome: 'hang' });
    await act({ operation: 'submit-pull-request' });

    const restarted = await act({ operation: 'restart-tests-on-pull-request' });
    expect(restarted.failed).toBe(false);
    expect(restarted.summary).toMatch(/^## 🔁 Tests restarted/);

    const cancelled = await act({ operation: 'cancel-pull-request' });
    expect(cancelled.failed).toBe(false);
    expect(cancelled.summary).toMatch(/^## ⏹️ Cancelled in the merge queue/);
    expect(await queue.state(17)).toBe('cancelled');

    const again = await act({ operation: 'cancel-pull-request' });
    expect(again.failed).toBe(true);
    expect(again.error).toMatch(/^PR #17 is not in the merge queue of octo-org\/cancel-v\d for main/);
  });

  it('says a PR never submitted is not in the queue', async () => {
    const { queue, act } = setUp(version, 'never');
    await queue.create();
    const result = await act({ operation: 'get-submitted-pull-request' });
    expect(result.failed).toBe(false);
    expect(result.outputs).toMatchObject({ 'is-submitted': 'false' });
  });
});

describe('v2 only', () => {
  it('chooses v2 for a v2 key when api-version is not set, and says so once', async () => {
    const { queue, act } = setUp('v2', 'auto');
    await queue.create();
    const result = await act({ operation: 'submit-pull-request', 'api-version': '' });
    expect(result.failed).toBe(false);
    expect(result.log.match(/Speaking API v2: api-token is a v2 API key/g)).toHaveLength(1);
    // The runner is told the key (::add-mask::) and nothing else shows it.
    const shown = result.log.split('\n').filter((line) => !line.startsWith('::add-mask::'));
    expect(shown.join('\n')).not.toContain(emulator.current.v2Key);
    expect(
      proxy.seen.filter((line) => /^POST \/v2\/merge-queues\/[^/]+\/pull-requests$/.test(line)),
    ).not.toEqual([]);
  });

  it('names the permission a key lacks and where an admin grants it, and exits as refused', async () => {
    const { queue, act } = setUp('v2', 'denied');
    await queue.create();
    const reader = emulator.current.apiKeys.find((key) => key.name === 'reader')!.key;
    const result = await act({ operation: 'submit-pull-request', 'api-token': reader });
    expect(result.failed).toBe(true);
    expect(result.error).toMatch(
      /^mergeQueues\.submitPullRequest failed: the API answered 403 INSUFFICIENT_PERMISSIONS\. The API key needs the permission "Merge and cancel PRs": an organization admin grants it in Settings > Developer > API Keys\. \(the service said: .*\)$/,
    );
    expect(result.error).not.toContain(reader);
  });

  it('is chosen on the command line by --api-version or MERGE_QUEUE_API_VERSION, with exit code 3 for a refused key', async () => {
    const { queue } = setUp('v2', 'cli');
    await queue.create();
    const reader = emulator.current.apiKeys.find((key) => key.name === 'reader')!.key;
    const cli = async (argv: string[], env: Record<string, string>) => {
      let text = '';
      const stream = { write: (chunk: string) => (text += chunk) };
      const before = proxy.seen.length;
      const exitCode = await runCli({
        argv,
        env: {
          MERGE_QUEUE_API_URL: `${proxy.origin}/v1`,
          MERGE_QUEUE_REPO: 'octo-org/cli-v2',
          MERGE_QUEUE_TARGET_BRANCH: 'main',
          MERGE_QUEUE_PR_NUMBER: '21',
          ...env,
        },
        cwd: process.cwd(),
        stdout: stream,
        stderr: stream,
      });
      return { exitCode, text, v2Requests: proxy.seen.length - before };
    };
    const flag = await cli(['submit-pull-request', '--api-version', 'v2'], {
      MERGE_QUEUE_API_TOKEN: emulator.current.v2Key,
    });
    expect(flag.exitCode).toBe(0);
    expect(flag.v2Requests).toBeGreaterThan(0);
    const variable = await cli(['get-submitted-pull-request', '--json'], {
      MERGE_QUEUE_API_TOKEN: emulator.current.v2Key,
      MERGE_QUEUE_API_VERSION: 'v2',
    });
    expect(variable.exitCode).toBe(0);
    expect(variable.v2Requests).toBeGreaterThan(0);
    const refused = await cli(['cancel-pull-request'], {
      MERGE_QUEUE_API_TOKEN: reader,
      MERGE_QUEUE_API_VERSION: 'v2',
    });
    expect(refused.exitCode).toBe(3);
    expect(refused.text).toContain('"Merge and cancel PRs"');
    expect(refused.text).not.toContain(reader);
  });
});

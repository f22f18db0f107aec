// The operations only v2 serves, run as the runner runs the action against the emulator (which serves v1
// and v2 from one engine): over v2 each does its work and says so in its outputs and summary; over v1
// each stops with one line naming api-version. Every v2 request passes a proxy that checks it against
// the v2 document.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { runAction } from '../helpers/action-runner.js';
import { QueueDriver, TEST_TOKEN, useEmulator } from '../helpers/emulator.js';
import { startCheckingProxy, type CheckingProxy } from '../helpers/v2-requests.js';

const emulator = useEmulator({ timeScale: 600 });
let proxy: CheckingProxy;

beforeAll(async () => {
  proxy = await startCheckingProxy(emulator.current.origin);
});

afterAll(async () => {
  await proxy.close();
  expect(proxy.problems).toEqual([]);
});

function setUp(name: string, version: 'v1' | 'v2' = 'v2') {
  const repo = `octo-org/${name}`;
  const queue = new QueueDriver(emulator, repo, 'main');
  const act = (inputs: Record<string, string>) =>
    runAction({
      eventName: 'workflow_dispatch',
      env: { GITHUB_REPOSITORY: repo },
      inputs: {
        'api-url': `${proxy.origin}/v1`,
        'api-token': version === 'v1' ? TEST_TOKEN : emulator.current.v2Key,
        'api-version': version,
        'target-branch': 'main',
        'pr-number': '17',
        'poll-interval-seconds': '1',
        'wait-timeout-minutes': '1',
        ...inputs,
      },
    });
  return { queue, act };
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
      `Input "api-version": is v1, and operation ${operation} needs the v2 API. Set api-version: v2 and api-token to a v2 API key (trunk_v2_..., from Settings > Developer > API Keys).`,
    );
  });

  it('submit-pull-request with direct', async () => {
    const { queue, act } = setUp('v1-direct', 'v1');
    await queue.create();
    const result = await act({ operation: 'submit-pull-request', direct: 'true' });
    expect(result.failed).toBe(true);
    expect(result.error).toMatch(
      /^Input "api-version": is v1, and input direct needs the v2 API\. Set api-version: v2/,
    );
    await expect(queue.pr(17)).rejects.toThrow(/404/);
  });
});

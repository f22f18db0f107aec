// One scenario over v1 or over v2: the action run as the runner runs it, against the emulator through the
// proxy that checks every v2 request against the document, with the v1 token or the v2 key, and a driver
// for the repository's queue.
import type { Clock } from '../../src/core/clock.js';
import { runAction } from './action-runner.js';
import { QueueDriver, TEST_TOKEN, type EmulatorHandle } from './emulator.js';
import type { CheckingProxy } from './v2-requests.js';

export const VERSIONS = ['v1', 'v2'] as const;
export type Version = (typeof VERSIONS)[number];

export function overVersion(
  emulator: EmulatorHandle,
  proxy: () => CheckingProxy,
  version: Version,
  repo: string,
  defaults: Record<string, string> = {},
) {
  const queue = new QueueDriver(emulator, repo, 'main');
  const act = (inputs: Record<string, string>, clock?: Clock, env: Record<string, string> = {}) =>
    runAction({
      clock,
      eventName: 'workflow_dispatch',
      env: { GITHUB_REPOSITORY: repo, ...env },
      inputs: {
        'api-url': `${proxy().origin}/v1`,
        'api-token': version === 'v1' ? TEST_TOKEN : emulator.current.v2Key,
        'api-version': version,
        'target-branch': 'main',
        'poll-interval-seconds': '1',
        'wait-timeout-minutes': '1',
        ...defaults,
        ...inputs,
      },
    });
  return { repo, queue, act };
}

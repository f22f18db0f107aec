// wait-for: the action polls until the PR reaches a state, ends, or the wait times out. The emulator's
// virtual clock runs 600x real time here, so that a 5-minute CI run takes half a second.
import { describe, expect, it } from '@jest/globals';
import { runAction } from '../helpers/action-runner.js';
import { QueueDriver, TEST_TOKEN, useEmulator } from '../helpers/emulator.js';

const emulator = useEmulator({ timeScale: 600 });

async function setUp(name: string) {
  const queue = new QueueDriver(emulator, `octo-org/${name}`, 'main');
  await queue.create();
  const act = (inputs: Record<string, string>) =>
    runAction({
      eventName: 'workflow_dispatch',
      env: { GITHUB_REPOSITORY: `octo-org/${name}` },
      inputs: {
        'api-url': emulator.current.url,
        'api-token': TEST_TOKEN,
        'target-branch': 'main',
        'pr-number': '17',
        'poll-interval-seconds': '1',
        'wait-timeout-minutes': '1',
        ...inputs,
      },
    });
  return { queue, act };
}

describe('wait-for', () => {
  it('submits and waits until the PR is merged', async () => {
    const { act } = await setUp('wait-merged');
    const result = await act({ operation: 'submit-pull-request', 'wait-for': 'merged' });
    expect(result.failed).toBe(false);
    expect(result.outputs).toMatchObject({ state: 'MERGED', 'is-submitted': 'false' });
    expect(result.log).toMatch(/PR #17: MERGED/);
    expect(result.summary).toMatch(/^## ✅ Merged/);
    // How long each state lasted; merged is where it ended, and no state had a note to show.
    expect(result.summary).toMatch(/^\| State \| For \|$/m);
    expect(result.summary).toMatch(/^\| TESTING \| \d+m( \d+s)? \|$/m);
    expect(result.summary).toMatch(/^\| MERGED \| {2}\|$/m);
  });

  it('fails the step with the state when the PR fails', async () => {
    const { queue, act } = await setUp('wait-failed');
    await queue.ci(17, { outcome: 'fail', durationMinutes: 1 });
    const result = await act({ operation: 'submit-pull-request', 'wait-for': 'tests-passed' });
    expect(result.failed).toBe(true);
    expect(result.error).toMatch(
      /^PR #17 ended FAILED while waiting for TESTS_PASSED: emulated-ci\/test concluded FAILURE \(the job summary links its logs\)\. Fix what the check reports/,
    );
    expect(result.outputs.state).toBe('FAILED');
  });

  it('waits on a PR submitted earlier, and fails when the wait runs out', async () => {
    const { queue, act } = await setUp('wait-timeout');
    await queue.ci(17, { outcome: 'hang' });
    await act({ operation: 'submit-pull-request' });
    const result = await act({
      operation: 'get-submitted-pull-request',
      'wait-for': 'merged',
      'wait-timeout-minutes': '0.05',
    });
    expect(result.failed).toBe(true);
    expect(result.error).toMatch(
      /^PR #17 is still TESTING at position 1 of 1 after \d+s\. Raise wait-timeout-minutes to wait longer\.$/,
    );
  });
});

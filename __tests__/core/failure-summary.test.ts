// The summary of a run the service refused: what happened once (the answer's status), what to fix once.
import { describe, expect, it } from '@jest/globals';
import { runAction } from '../helpers/action-runner.js';
import { QueueDriver, useEmulator } from '../helpers/emulator.js';

const emulator = useEmulator();

const count = (text: string, part: string) => text.split(part).length - 1;

describe('the summary of a refused run', () => {
  it('says the 401 once and the fix once', async () => {
    await new QueueDriver(emulator, 'octo-org/refused', 'main').create();
    const run = await runAction({
      env: { GITHUB_REPOSITORY: 'octo-org/refused' },
      inputs: {
        operation: 'get-queue',
        'api-url': emulator.current.url,
        'api-token': 'not-the-token',
        'target-branch': 'main',
      },
    });

    expect(run.failed).toBe(true);
    expect(run.summary.split('\n')[0]).toBe('## ❌ get-queue: the service refused the API token');
    expect(count(run.summary, '401')).toBe(1);
    expect(count(run.summary, 'holds your organization API token')).toBe(1);
    expect(run.summary).toContain('> getQueue failed: the API answered 401');
    expect(run.summary).toContain(
      '**What to fix:** check that `api-token` holds your organization API token',
    );
  });
});

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startEmulator, type Emulator } from '../../emulator/server.js';
import { runAction } from '../helpers/action-runner.js';
import { example } from '../helpers/webhook-examples.js';
import { apiClient } from '../helpers/queue-harness.js';

describe('the action end to end', () => {
  let shared: Emulator;
  beforeAll(async () => {
    shared = await startEmulator({ token: 'e2e-token-123' });
  });
  afterAll(async () => {
    await shared.close();
  });

  it('pauses the queue of the default branch from a workflow_dispatch event', async () => {
    const payload = example('workflow_dispatch', (p) => p.ref === 'refs/heads/main');
    const repo = { host: 'github.com', owner: 'octo-org', name: 'octo-repo' };
    await apiClient(shared).call('createQueue', { repo, targetBranch: 'main' });

    const run = await runAction({
      inputs: { operation: 'pauseQueue', 'api-token': shared.token, 'api-url': shared.url },
      eventName: 'workflow_dispatch',
      payload,
    });

    expect(run.error).toBe('');
    expect(run.outputs).toMatchObject({
      repo: 'octo-org/octo-repo',
      'target-branch': 'main',
      'queue-state': 'paused',
      'queue-mode': 'single',
      concurrency: '1',
      'enqueued-count': '0',
      'queue-exists': 'true',
    });
    expect(run.summary).toContain('## ⏸️ Merge queue paused for <code>main</code>: state running → paused');
    // The runner is told to mask the token; nothing else carries it.
    const logLines = run.log.split('\n').filter((line) => !line.startsWith('::add-mask::'));
    for (const text of [...logLines, run.summary, ...Object.values(run.outputs)]) {
      expect(text).not.toContain('e2e-token-123');
    }
  });
});

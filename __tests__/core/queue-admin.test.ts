import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { startEmulator, type Emulator } from '../../emulator/server.js';
import { prepareFrom } from '../helpers/prepare.js';
import { runOperation } from '../helpers/prepare.js';
import { REPO, apiClient, control } from '../helpers/queue-harness.js';

let emulator: Emulator;

beforeEach(async () => {
  emulator = await startEmulator();
});

afterEach(async () => {
  await emulator.close();
});

const ref = { repo: REPO, targetBranch: 'main' };

async function queueOnServer() {
  return (await apiClient(emulator).call('getQueue', ref)).json as Record<string, unknown>;
}

async function submit(...numbers: number[]) {
  for (const number of numbers)
    await apiClient(emulator).call('submitPullRequest', { ...ref, pr: { number } });
}

describe('create-queue', () => {
  it('creates a fully configured queue in one step, settings given as JSON included', async () => {
    const run = await runOperation(emulator, 'create-queue', {
      mode: 'parallel',
      concurrency: '3',
      batch: 'true',
      'batching-min-size': '4',
      'required-statuses': 'build, test',
      settings: '{"commentsEnabled": false}',
    });

    expect(run.failure).toBeUndefined();
    expect(run.outputs).toMatchObject({
      'queue-created': true,
      'queue-exists': true,
      'queue-state': 'running',
      'queue-mode': 'parallel',
      concurrency: 3,
      'enqueued-count': 0,
    });
    expect(await queueOnServer()).toMatchObject({
      mode: 'parallel',
      concurrency: 3,
      batch: true,
      batchingMinSize: 4,
      requiredStatuses: ['build', 'test'],
      commentsEnabled: false,
    });
    expect(run.summaryText).toContain(
      '## 🆕 Merge queue created for <code>main</code>: running, parallel mode, concurrency 3, 0 PRs in line',
    );
    expect(run.summaryText).toContain('| **batching-min-size** | 4 |');
    expect(run.summaryText).toContain('| **comments-enabled** | false |');
    expect(run.summaryText).toContain('| merge-method | squash |');
  });

  it('says the queue was created when the settings after it fail', async () => {
    emulator.faults.plan('/updateQueue', [
      { kind: 'status', status: 400, body: 'batchingMinSize is too large' },
    ]);
    await expect(runOperation(emulator, 'create-queue', { 'batching-min-size': '6' })).rejects.toThrow(
      /^Created the merge queue for branch main of github\.com\/octo-org\/octo-repo, but applying the other settings failed: updateQueue failed: the API answered 400\..* Run update-queue with the same inputs to apply them\. \(the service said: "batchingMinSize is too large.*"\)$/,
    );
    // The new queue keeps the service's default.
    expect(await queueOnServer()).toMatchObject({ batchingMinSize: 4 });
  });

  it('fails on an existing queue by default, naming if-exists', async () => {
    await runOperation(emulator, 'create-queue', {});
    await expect(runOperation(emulator, 'create-queue', { concurrency: '5' })).rejects.toThrow(
      'A merge queue for branch main of github.com/octo-org/octo-repo already exists (createQueue answered 409). Set if-exists to update (apply the given settings to it) or skip (leave it as it is).',
    );
    expect(await queueOnServer()).toMatchObject({ concurrency: 1 });
  });

  it('applies the settings to an existing queue with if-exists: update', async () => {
    await runOperation(emulator, 'create-queue', { batch: 'true' });
    const run = await runOperation(emulator, 'create-queue', {
      'if-exists': 'update',
      mode: 'parallel',
      concurrency: '4',
    });
    expect(run.outputs).toMatchObject({ 'queue-created': false, 'queue-mode': 'parallel', concurrency: 4 });
    expect(run.summaryText).toContain('## ⚙️ Merge queue updated for <code>main</code>');
    // Only what was given is sent: batching from the first step is still on.
    expect(await queueOnServer()).toMatchObject({ mode: 'parallel', concurrency: 4, batch: true });
  });

  it('leaves an existing queue alone with if-exists: skip', async () => {
    await runOperation(emulator, 'create-queue', { concurrency: '2' });
    const run = await runOperation(emulator, 'create-queue', { 'if-exists': 'skip', concurrency: '9' });
    expect(run.outputs).toMatchObject({ 'queue-created': false, concurrency: 2 });
    expect(run.summaryText).toContain('## ➖ Merge queue left as it was for <code>main</code>');
    expect(await queueOnServer()).toMatchObject({ concurrency: 2 });
  });
});

describe('get-queue', () => {
  it('sets queue-exists=false and fails naming create-queue when the branch has no queue', async () => {
    const run = await runOperation(emulator, 'get-queue', {}, { targetBranch: 'release' });
    expect(run.outputs['queue-exists']).toBe(false);
    expect(run.outputs['queue-state']).toBe('');
    expect(run.failure).toBe(
      'No merge queue exists for branch release of github.com/octo-org/octo-repo (getQueue answered 404). Create one with operation create-queue, or check target-branch, repo and repo-host.',
    );
    expect(run.summaryText).toContain('create-queue');
  });

  it('shows the settings and the enqueued PRs with their states', async () => {
    await runOperation(emulator, 'create-queue', { concurrency: '1' });
    await control(emulator, 'pull-requests', {
      repo: 'octo-org/octo-repo',
      number: 7,
      title: 'Fix <the> | pipe',
    });
    await submit(7, 8, 9);

    const run = await runOperation(emulator, 'get-queue', {});
    expect(run.outputs).toMatchObject({
      'queue-exists': true,
      'queue-state': 'running',
      'enqueued-count': 3,
    });
    expect(JSON.parse(String(run.outputs.response)).enqueuedPullRequests).toHaveLength(3);
    expect(run.summaryText).toContain(
      '## 🟢 Merge queue for <code>main</code>: running, single mode, concurrency 1, 3 PRs in line',
    );
    expect(run.summaryText).toContain('### In line (3)');
    expect(run.summaryText).toMatch(
      /\| \[#<!-- -->7\]\(https:\/\/github\.com\/octo-org\/octo-repo\/pull\/7\) \| Fix &lt;the&gt; &#124; pipe \| TESTING \|/,
    );
    expect(run.summaryText).toMatch(
      /\| 2 \| \[#<!-- -->8\]\([^)]*\) \| [^|]* \| PENDING \| [^|]+ \| \d+s \|/,
    );
  });
});

describe('update-queue', () => {
  it('sends only the settings given, and says when a mode change waits for running tests', async () => {
    await runOperation(emulator, 'create-queue', { 'comments-enabled': 'false', 'merge-method': 'rebase' });
    await submit(1);
    const run = await runOperation(emulator, 'update-queue', { mode: 'parallel', concurrency: '2' });

    expect(run.outputs).toMatchObject({
      'queue-state': 'switching_modes',
      'queue-mode': 'single',
      concurrency: 2,
    });
    expect(await queueOnServer()).toMatchObject({
      commentsEnabled: false,
      mergeMethod: 'rebase',
      concurrency: 2,
    });
    expect(run.summaryText).toContain(
      'mode parallel takes effect once the PRs testing now have finished; until then the queue is switching\\_modes and drains.',
    );

    await control(emulator, 'clock/run-until-idle', {});
    const after = await runOperation(emulator, 'get-queue', {});
    expect(after.outputs).toMatchObject({ 'queue-state': 'running', 'queue-mode': 'parallel' });
  });

  it('keeps the change and warns when the queue cannot be read back afterwards', async () => {
    await runOperation(emulator, 'create-queue', {});
    // The read before the change passes; the read back after it fails.
    emulator.faults.plan('/getQueue', [
      { kind: 'delay', ms: 0 },
      { kind: 'status', status: 400, body: 'Bad Request' },
    ]);
    const run = await runOperation(emulator, 'update-queue', { concurrency: '4' });
    expect(run.infos[0]).toBe(
      'Set concurrency to 4 on the merge queue for branch main of github.com/octo-org/octo-repo.',
    );

    expect(run.failure).toBeUndefined();
    expect(run.outputs).toMatchObject({ concurrency: 4, 'queue-state': 'running', 'enqueued-count': '' });
    expect(run.warnings).toEqual([
      expect.stringMatching(
        /^The change was made, but reading the queue back failed: getQueue failed: the API answered 400\. .* \(the service said: "Bad Request"\) Outputs show/,
      ),
    ]);
  });

  it('names create-queue when the branch has no queue', async () => {
    await expect(runOperation(emulator, 'drain-queue', {}, { targetBranch: 'release' })).rejects.toThrow(
      'No merge queue exists for branch release of github.com/octo-org/octo-repo (getQueue answered 404). Create one with operation create-queue, or check target-branch, repo and repo-host.',
    );
  });

  it('refuses to run with no setting to send', () => {
    expect(() => prepareFrom({ operation: 'update-queue', 'api-token': 'secret-token' })).toThrow(
      /^Input "settings": is empty, and so is every other queue setting/,
    );
  });
});

describe('pause-queue, resume-queue and drain-queue', () => {
  it('change only the state, and the queue behaves accordingly', async () => {
    await runOperation(emulator, 'create-queue', {});
    const paused = await runOperation(emulator, 'pause-queue', {
      concurrency: '5',
      'testing-timeout-minutes': '9',
    });
    expect(paused.outputs['queue-state']).toBe('paused');
    // The log says what was set, whole: not "…: state." as if cut off.
    expect(paused.infos).toContain(
      'Set state to paused on the merge queue for branch main of github.com/octo-org/octo-repo.',
    );
    expect(paused.warnings).toEqual([
      'Input "concurrency" is not used by operation pause-queue; it was ignored.',
      'Input "testing-timeout-minutes" is not used by operation pause-queue; it was ignored.',
    ]);
    expect(paused.summaryText).toContain(
      '**paused**: the order is kept; nothing merges and no new testing starts',
    );
    expect(await queueOnServer()).toMatchObject({ state: 'paused', concurrency: 1 });

    // A paused queue admits no PR: #3 waits out of line until the queue runs again.
    await submit(3);
    await control(emulator, 'clock/advance', { minutes: 30 });
    expect((await runOperation(emulator, 'get-queue', {})).summaryText).toContain(
      'No pull requests are in line.',
    );

    const resumed = await runOperation(emulator, 'resume-queue', {});
    expect(resumed.outputs).toMatchObject({ 'queue-state': 'running', 'enqueued-count': 1 });
    expect(resumed.summaryText).toMatch(/\| \[#<!-- -->3\]\([^)]*\) \| TESTING \|/);

    const draining = await runOperation(emulator, 'drain-queue', {});
    expect(draining.outputs['queue-state']).toBe('draining');
  });
});

describe('delete-queue', () => {
  it('refuses while PRs remain, lists them and suggests drain-queue; deletes once empty', async () => {
    await runOperation(emulator, 'create-queue', {});
    await submit(11, 12);

    const refused = await runOperation(emulator, 'delete-queue', {});
    expect(refused.failure).toMatch(
      /^Could not delete the merge queue for branch main of github\.com\/octo-org\/octo-repo \(deleteQueue answered 400\)\. The queue still holds 2 PRs: #11 \(TESTING\), #12 \(PENDING\); a queue must be empty to be deleted\. Run drain-queue and wait until its PRs have merged \(or cancel them\), then run delete-queue again\.$/,
    );
    expect(refused.outputs).toMatchObject({ 'queue-exists': true, 'enqueued-count': 2 });
    expect(refused.summaryText).toContain(
      '## ❌ Merge queue not deleted for <code>main</code>: running, single mode, concurrency 1, 2 PRs in line',
    );

    await runOperation(emulator, 'drain-queue', {});
    await control(emulator, 'clock/run-until-idle', {});
    const deleted = await runOperation(emulator, 'delete-queue', {});
    expect(deleted.failure).toBeUndefined();
    expect(deleted.outputs['queue-exists']).toBe(false);
    expect((await runOperation(emulator, 'get-queue', {})).outputs['queue-exists']).toBe(false);
  });

  it('treats deleting a queue that does not exist as done', async () => {
    const run = await runOperation(emulator, 'delete-queue', {}, { targetBranch: 'nothing-here' });
    expect(run.failure).toBeUndefined();
    expect(run.outputs['queue-exists']).toBe(false);
  });
});

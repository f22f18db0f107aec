// Queue settings over v2: a config PATCH in v2's names reaches the engine v1 reads, the settings v1 has
// not are kept, Terraform's writes mark the queue, and the conflicts the document names are answered.
import { beforeAll, expect, it } from '@jest/globals';
import type { V2 } from '../../../src/wire/v2/index.js';
import { QueueDriver, useEmulator } from '../../helpers/emulator.js';
import { V2Calls } from '../../helpers/v2-calls.js';

const emulator = useEmulator({ v2RateLimits: false });
const v2 = new V2Calls(emulator);
const queue = new QueueDriver(emulator, 'acme/settings');
let queueId = '';

beforeAll(async () => {
  await queue.create({ concurrency: 1, requiredStatuses: ['ci/old'] });
  const repos = await v2.ok<V2<'RepositoryList'>>('repositories.resolveByProviderUrl', {
    query: { providerUrl: 'https://github.com/acme/settings' },
  });
  const queues = await v2.ok<V2<'MergeQueueList'>>('mergeQueues.list', {
    query: { repositoryId: repos.data[0]!.id },
  });
  queueId = queues.data[0]!.id;
});

it('applies a config PATCH in v2 names, which v1 reads in its own', async () => {
  const patched = await v2.ok<V2<'MergeQueue'>>('mergeQueues.updateConfig', {
    path: { id: queueId },
    body: {
      allowBatching: true,
      batchingMinSize: 3,
      areCommentsEnabled: false,
      optimizationMode: 'bisectionSkipRedundantTests',
      requiredStatuses: [],
      allowedBotSubmitters: ['renovate[bot]'],
    },
  });
  expect(patched.config).toMatchObject({
    allowBatching: true,
    batchingMinSize: 3,
    areCommentsEnabled: false,
    optimizationMode: 'bisectionSkipRedundantTests',
    requiredStatuses: [],
    allowedBotSubmitters: ['renovate[bot]'],
    concurrency: 1,
  });
  expect(await queue.queue()).toMatchObject({
    batch: true,
    batchingMinSize: 3,
    commentsEnabled: false,
    optimizationMode: 'bisection_skip_redundant_tests',
    requiredStatuses: [],
  });
});

it('refuses a setting it does not know, and minutes that are not whole hours', async () => {
  const unknown = await v2.call<{ error: { code: string; message: string } }>('mergeQueues.updateConfig', {
    path: { id: queueId },
    body: { batch: true },
  });
  expect([unknown.status, unknown.json.error.code]).toEqual([400, 'VALIDATION_FAILED']);
  expect(unknown.json.error.message).toContain('"batch"');
  const minutes = await v2.call<{ error: { message: string } }>('mergeQueues.updateConfig', {
    path: { id: queueId },
    body: { notReadyTimeoutMinutes: 90 },
  });
  expect([minutes.status, minutes.json.error.message]).toEqual([
    400,
    expect.stringContaining('multiple of 60'),
  ]);
});

it("marks the queue Terraform's after a write from Terraform, and drifted after a manual one", async () => {
  const terraform = { 'user-agent': 'Terraform/1.9.0 terraform-provider-trunk/0.3' };
  await v2.ok('mergeQueues.updateConfig', {
    path: { id: queueId },
    body: { concurrency: 2 },
    headers: terraform,
  });
  expect((await v2.ok<V2<'MergeQueue'>>('mergeQueues.get', { path: { id: queueId } })).managedState).toBe(
    'terraform',
  );
  await v2.ok('mergeQueues.updateConfig', { path: { id: queueId }, body: { concurrency: 3 } });
  expect((await v2.ok<V2<'MergeQueue'>>('mergeQueues.get', { path: { id: queueId } })).managedState).toBe(
    'terraformWithDrift',
  );
});

it('refuses a second queue for a branch, a mode change while switching, and deleting a queue in use', async () => {
  const repositoryId = (await v2.ok<V2<'MergeQueue'>>('mergeQueues.get', { path: { id: queueId } }))
    .repositoryId;
  expect(await v2.refused('mergeQueues.create', 409, { body: { repositoryId, targetBranch: 'main' } })).toBe(
    'QUEUE_ALREADY_EXISTS',
  );
  await queue.update({ batch: false });
  await queue.submit(1);
  expect(await queue.state(1)).toBe('testing');
  const switching = await v2.ok<V2<'MergeQueueStateChange'>>('mergeQueues.switchModes', {
    path: { id: queueId },
    body: { mode: 'graph' },
  });
  expect(switching).toMatchObject({ state: 'switchingModes', mode: 'queue' });
  expect(
    await v2.refused('mergeQueues.switchModes', 409, { path: { id: queueId }, body: { mode: 'queue' } }),
  ).toBe('MODE_CHANGE_IN_PROGRESS');
  expect(await v2.refused('mergeQueues.delete', 409, { path: { id: queueId } })).toBe(
    'QUEUE_HAS_ACTIVE_ENTRIES',
  );
  await queue.runUntilIdle();
  const settled = await v2.ok<V2<'MergeQueue'>>('mergeQueues.get', { path: { id: queueId } });
  expect([settled.state, settled.mode]).toEqual(['running', 'graph']);
  await v2.ok('mergeQueues.delete', { path: { id: queueId } });
});

// Webhooks from the emulator: registered through the control surface, signed Svix-style (verified here
// with the svix package), and retried while the receiver fails.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Webhook } from 'svix';
import { QueueDriver, useEmulator } from '../helpers/emulator.js';
import { Receiver, registerWebhook } from '../helpers/webhook-receiver.js';

const emu = useEmulator({ webhookRetryDelaysMs: [10, 20, 40, 80] });
const receiver = new Receiver();

beforeAll(() => receiver.start());
afterAll(() => receiver.stop());

const register = (eventTypes?: string[]) => registerWebhook(emu, receiver.url, eventTypes);

describe('webhooks', () => {
  it('sends signed pull_request and pull_request_batch events that svix verifies', async () => {
    const { secret } = await register(['pull_request.*', 'pull_request_batch.*']);
    expect(secret).toMatch(/^whsec_/);
    const queue = new QueueDriver(emu, 'hooks/batched');
    await queue.create({ batch: true, batchingMinSize: 2 });
    await queue.setPr(11, { author: 'mona' });
    await queue.submit(11);
    await queue.submit(12);
    await queue.runUntilIdle();
    await emu.current.webhooks.idle();

    const verifier = new Webhook(secret);
    for (const { body, headers } of receiver.received)
      expect(() => verifier.verify(body, headers)).not.toThrow();
    const tampered = receiver.received[0]!;
    expect(() => verifier.verify(tampered.body.replace('11', '13'), tampered.headers)).toThrow();

    const typesFor = (pr: number) =>
      receiver.received.filter((r) => r.payload.pr_number === pr).map((r) => r.payload.type);
    expect(typesFor(11)).toEqual([
      'pull_request.submitted',
      'pull_request.queued',
      'pull_request.testing',
      'pull_request.merged',
    ]);
    const merged = receiver.received.find(
      (r) => r.payload.type === 'pull_request.merged' && r.payload.pr_number === 11,
    )!;
    expect(merged.payload).toMatchObject({
      repository: { host: 'github.com', owner: 'hooks', name: 'batched' },
      target_branch: 'main',
      author: 'mona',
      action: 'merged',
      status: 'merged',
      merged_reason: 'MERGE_GRAPH_MERGE',
    });
    expect(merged.payload.http_details_url).toEqual(expect.stringMatching(/^https:\/\//));
    const testing = receiver.received.find((r) => r.payload.type === 'pull_request.testing')!;
    expect(testing.payload).toMatchObject({ batched: true, is_bisection: false });
    expect(testing.payload.test_branch).toEqual(expect.stringMatching(/^trunk-merge\/pr-11\//));
    const batchTypes = receiver.received.filter((r) => r.payload.type.startsWith('pull_request_batch.'));
    expect(batchTypes.map((r) => [r.payload.type, r.payload.pr_numbers])).toEqual([
      ['pull_request_batch.submitted', [11, 12]],
      ['pull_request_batch.queued', [11, 12]],
      ['pull_request_batch.testing', [11, 12]],
      ['pull_request_batch.merged', [11, 12]],
    ]);
  });

  it('sends cancellation and failure events with their reasons', async () => {
    receiver.received.length = 0;
    const queue = new QueueDriver(emu, 'hooks/failing');
    await queue.create();
    await queue.ci(1, { outcome: 'fail' });
    await queue.submit(1);
    await queue.submit(2);
    await queue.cancel(2);
    await queue.runUntilIdle();
    await emu.current.webhooks.idle();
    const find = (type: string) => receiver.received.find((r) => r.payload.type === type)?.payload;
    expect(find('pull_request.canceled')).toMatchObject({
      pr_number: 2,
      action: 'canceled',
      status: 'canceled',
      cancellation_reason: 'USER_REQUESTED',
      is_bisection: false,
    });
    expect(find('pull_request.pending_failure')).toMatchObject({
      pr_number: 1,
      failure_reason: 'TEST_RUN_REQUIRED_STATUS_FAILED',
    });
    expect(find('pull_request.failed')).toMatchObject({
      pr_number: 1,
      failure_reason: 'TEST_RUN_REQUIRED_STATUS_FAILED',
      is_bisection: false,
    });
  });

  it('retries a delivery with backoff while the receiver fails, keeping its message id', async () => {
    receiver.received.length = 0;
    receiver.failures = 2;
    const { id } = await register(['pull_request.submitted']);
    const queue = new QueueDriver(emu, 'hooks/retry');
    await queue.create();
    await queue.submit(5);
    await emu.current.webhooks.idle();
    receiver.failures = 0;
    const submitted = receiver.received.filter((r) => r.payload.type === 'pull_request.submitted');
    expect(submitted.length).toBeGreaterThan(0);
    const messageId = submitted.at(-1)!.headers['svix-id']!;
    expect(receiver.attemptsOf(messageId)).toBe(3);
    const endpoints = await emu.control<{
      endpoints: { id: string; deliveries: { status: string; attempts: number }[] }[];
    }>('GET', '/webhooks');
    const mine = endpoints.json.endpoints.find((e) => e.id === id)!;
    expect(mine.deliveries).toEqual([expect.objectContaining({ status: 'delivered', attempts: 3 })]);
  });

  it('gives up after the last retry and says so', async () => {
    receiver.failures = 100;
    const { id } = await register(['pull_request.submitted']);
    const queue = new QueueDriver(emu, 'hooks/down');
    await queue.create();
    await queue.submit(6);
    await emu.current.webhooks.idle();
    receiver.failures = 0;
    const endpoints = await emu.control<{
      endpoints: { id: string; deliveries: Record<string, unknown>[] }[];
    }>('GET', '/webhooks');
    expect(endpoints.json.endpoints.find((e) => e.id === id)!.deliveries).toEqual([
      expect.objectContaining({ status: 'failed', attempts: 5, lastResponseStatus: 500 }),
    ]);
  });

  it('delivers events that other parts of the emulator publish, such as test_case.*', async () => {
    receiver.received.length = 0;
    const { secret } = await register(['test_case.*']);
    const id = '00000000-0000-4000-8000-0000000000c1';
    const repository = { repo: { host: 'github.com', owner: 'hooks', name: 'flaky' } };
    await emu.control('POST', '/flaky-tests', {
      repositories: [{ ...repository, tests: [{ id, name: 'adds numbers', status: 'healthy' }] }],
    });
    await emu.control('POST', '/flaky-tests/test-case', { repo: 'hooks/flaky', id, status: 'flaky' });
    await emu.current.webhooks.idle();
    const [delivered] = receiver.received.filter((r) => r.payload.type === 'test_case.status_changed');
    expect(() => new Webhook(secret).verify(delivered!.body, delivered!.headers)).not.toThrow();
    expect(delivered!.payload).toMatchObject({
      status_change: { previous_status: 'healthy', current_status: { value: 'flaky' } },
    });
  });

  it('refuses a secret that is not a whsec_ secret', async () => {
    const answer = await emu.control('POST', '/webhooks', { url: receiver.url, secret: 'plain' });
    expect(answer.status).toBe(400);
  });
});

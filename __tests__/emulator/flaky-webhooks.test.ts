// test_case.* webhooks from the emulator's flaky-tests store: a test's status or quarantine setting
// changing (through the test-case control route or a re-seeded fixture) reaches a registered receiver,
// signed so that the svix package verifies it.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { Webhook } from 'svix';
import { useEmulator } from '../helpers/emulator.js';
import { Receiver, registerWebhook, type Received } from '../helpers/webhook-receiver.js';

const emu = useEmulator();
const receiver = new Receiver();
let secret = '';

const CHECKOUT_ID = '0b7c2e4a-1f3d-4c5e-9a8b-7d6e5f4a3b2c';
const LOGIN_ID = '5e1d9c8b-2a3f-4e6d-8c7b-1a2b3c4d5e6f';

interface FixtureTest {
  id?: string;
  name: string;
  status: 'healthy' | 'flaky' | 'broken';
  quarantine_override?: 'ALWAYS_QUARANTINE' | 'NEVER_QUARANTINE' | 'UNSPECIFIED';
}

async function seed(name: string, tests: FixtureTest[]): Promise<void> {
  const answer = await emu.control('POST', '/flaky-tests', {
    repositories: [{ repo: { host: 'github.com', owner: 'acme', name }, org_url_slug: 'acme', tests }],
  });
  expect(answer.status).toBe(200);
}

async function changeTestCase(body: Record<string, unknown>) {
  return emu.control<{ test: Record<string, unknown> }>('POST', '/flaky-tests/test-case', body);
}

async function virtualNow(): Promise<string> {
  return (await emu.control<{ now: string }>('GET', '/clock')).json.now;
}

/** The test_case.* deliveries so far, once every pending one has arrived; each checked with svix. */
async function deliveries(): Promise<Received[]> {
  await emu.current.webhooks.idle();
  const verifier = new Webhook(secret);
  for (const { body, headers } of receiver.received)
    expect(() => verifier.verify(body, headers)).not.toThrow();
  return receiver.received;
}

beforeAll(async () => {
  await receiver.start();
  ({ secret } = await registerWebhook(emu, receiver.url, ['test_case.*']));
});
afterAll(() => receiver.stop());
beforeEach(() => {
  receiver.received.length = 0;
});

describe('test_case webhooks', () => {
  it('announces a status change with the test as the API shows it, at virtual time', async () => {
    await seed('storefront', [
      { id: CHECKOUT_ID, name: 'CheckoutService > applies the discount', status: 'flaky' },
      { id: LOGIN_ID, name: 'LoginForm > shows an error', status: 'healthy' },
    ]);
    await emu.control('POST', '/clock/advance', { minutes: 90 });
    const now = await virtualNow();

    const answer = await changeTestCase({ repo: 'acme/storefront', id: CHECKOUT_ID, status: 'broken' });
    expect(answer.status).toBe(200);

    const [event, ...others] = await deliveries();
    expect(others).toEqual([]);
    expect(event!.payload).toMatchObject({
      type: 'test_case.status_changed',
      status_change: { previous_status: 'flaky', current_status: { value: 'broken', timestamp: now } },
      test_case: {
        id: CHECKOUT_ID,
        name: 'CheckoutService > applies the discount',
        status: { value: 'broken', timestamp: now },
        repository: { html_url: 'https://github.com/acme/storefront' },
        html_url: expect.stringContaining(`/acme/flaky-tests/test/${CHECKOUT_ID}`),
      },
    });
    const details = await emu.api<{ test: unknown }>('/flaky-tests/get-test-details', {
      repo: { host: 'github.com', owner: 'acme', name: 'storefront' },
      org_url_slug: 'acme',
      test_id: CHECKOUT_ID,
    });
    expect(event!.payload.test_case).toEqual(details.json.test);
  });

  it('announces a quarantine setting change with who made it and why', async () => {
    const actor = { email: 'riley@acme.dev', full_name: 'Riley Park' };
    const answer = await changeTestCase({
      repo: 'acme/storefront',
      id: CHECKOUT_ID,
      quarantineSetting: 'ALWAYS_QUARANTINE',
      actor,
      reason: 'Blocks every merge; quarantine until KAN-12 is fixed',
    });
    expect(answer.status).toBe(200);
    expect(answer.json.test).toMatchObject({ id: CHECKOUT_ID, quarantined: true });
    const now = await virtualNow();

    const [event, ...others] = await deliveries();
    expect(others).toEqual([]);
    expect(event!.payload).toMatchObject({
      type: 'test_case.quarantining_setting_changed',
      test_case: { id: CHECKOUT_ID, quarantined: true, status: { value: 'broken' } },
      quarantine_setting_changed: {
        actor,
        reason: 'Blocks every merge; quarantine until KAN-12 is fixed',
        timestamp: now,
        previous_quarantining_setting: 'UNSPECIFIED',
        updated_quarantining_setting: 'ALWAYS_QUARANTINE',
      },
    });
  });

  it('sends nothing for a change that changes nothing', async () => {
    const answer = await changeTestCase({
      repo: 'acme/storefront',
      id: CHECKOUT_ID,
      status: 'broken',
      quarantineSetting: 'ALWAYS_QUARANTINE',
    });
    expect(answer.status).toBe(200);
    expect(await deliveries()).toEqual([]);
  });

  it('announces what a re-seeded fixture changed, test by test, status first', async () => {
    await seed('payments', [
      { id: CHECKOUT_ID, name: 'Refunds > settle', status: 'healthy' },
      { id: LOGIN_ID, name: 'Refunds > notify', status: 'flaky' },
      { name: 'Refunds > without an id', status: 'healthy' },
    ]);
    expect(await deliveries()).toEqual([]);

    await seed('payments', [
      { id: CHECKOUT_ID, name: 'Refunds > settle', status: 'flaky', quarantine_override: 'NEVER_QUARANTINE' },
      { id: LOGIN_ID, name: 'Refunds > notify', status: 'flaky' },
      { name: 'Refunds > without an id', status: 'broken' },
    ]);

    const events = (await deliveries()).map(({ payload }) => payload);
    expect(events.map((p) => [p.type, (p.test_case as { id: string }).id])).toEqual([
      ['test_case.status_changed', CHECKOUT_ID],
      ['test_case.quarantining_setting_changed', CHECKOUT_ID],
    ]);
    expect(events[0]).toMatchObject({
      test_case: { repository: { html_url: 'https://github.com/acme/payments' } },
      status_change: { previous_status: 'healthy', current_status: { value: 'flaky' } },
    });
    expect(events[1]).toMatchObject({
      quarantine_setting_changed: {
        previous_quarantining_setting: 'UNSPECIFIED',
        updated_quarantining_setting: 'NEVER_QUARANTINE',
      },
    });
  });

  it('rejects a tampered delivery', async () => {
    await changeTestCase({ repo: 'acme/storefront', id: LOGIN_ID, status: 'flaky' });
    const [event] = await deliveries();
    const tampered = event!.body.replace(
      '"current_status":{"value":"flaky"',
      '"current_status":{"value":"healthy"',
    );
    expect(tampered).not.toBe(event!.body);
    expect(() => new Webhook(secret).verify(tampered, event!.headers)).toThrow();
  });

  it('refuses a test-case change it cannot make, in one plain line', async () => {
    const unknown = await changeTestCase({ repo: 'acme/storefront', id: 'no-such-test', status: 'flaky' });
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('no-such-test');
    const empty = await changeTestCase({ repo: 'acme/storefront', id: LOGIN_ID });
    expect(empty.status).toBe(400);
    expect(empty.text).toMatch(/status, quarantineSetting/);
    const badSetting = await changeTestCase({
      repo: 'acme/storefront',
      id: LOGIN_ID,
      quarantineSetting: 'AUTO_QUARANTINE',
    });
    expect(badSetting.status).toBe(400);
    expect(await deliveries()).toEqual([]);
  });
});

// The emulator's quarantined, unhealthy and failing lists of one repository agree with each other, as
// the service's do, so that a rehearsal of the quarantine gate (check-test-results) behaves like the
// service: a quarantined flaky or broken test is in the unhealthy list of its status and marked
// quarantined there, an unhealthy test marked quarantined is in the quarantined list, and every listing
// says the same of a test's quarantine and status.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Emulator } from '../../emulator/server.js';
import { ORG, REPO, TOKEN, seed, startFlakyEmulator } from '../helpers/flaky-harness.js';

let emulator: Emulator;
type Row = Record<string, unknown> & { name: string; variant: string };

beforeAll(async () => {
  emulator = await startFlakyEmulator();
});
afterAll(async () => {
  await emulator.close();
});

async function listAll(
  path: string,
  itemsField: string,
  extra: Record<string, unknown> = {},
): Promise<Row[]> {
  const rows: Row[] = [];
  let token = '';
  for (;;) {
    const response = await fetch(`${emulator.url}/flaky-tests/${path}`, {
      method: 'POST',
      headers: { 'x-api-token': TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({
        repo: REPO,
        org_url_slug: ORG,
        page_query: { page_size: 100, page_token: token },
        ...extra,
      }),
    });
    expect(response.status).toBe(200);
    const page = (await response.json()) as Record<string, unknown> & { page: { next_page_token: string } };
    rows.push(...(page[itemsField] as Row[]));
    token = page.page.next_page_token;
    if (!token) return rows;
  }
}

const idOf = (row: Row) => String(row.test_case_id ?? row.id);

describe.each([
  ['auto-quarantine on', true],
  ['auto-quarantine off', false],
])('with %s', (_, autoQuarantine) => {
  let quarantined: Row[];
  let flaky: Row[];
  let broken: Row[];
  let failing: Row[];

  beforeAll(async () => {
    await seed(emulator, {
      repositories: [
        {
          repo: REPO,
          org_url_slug: ORG,
          auto_quarantine: autoQuarantine,
          generate: { flaky: 240, broken: 60, healthy: 200, seed: 7 },
        },
      ],
    });
    const now = emulator.clock.now();
    const end = new Date(now + 3600_000).toISOString();
    const start = new Date(now + 3600_000 - 7 * 24 * 3600_000).toISOString();
    [quarantined, flaky, broken, failing] = await Promise.all([
      listAll('list-quarantined-tests', 'quarantined_tests'),
      listAll('list-unhealthy-tests', 'tests', { status: 'FLAKY' }),
      listAll('list-unhealthy-tests', 'tests', { status: 'BROKEN' }),
      listAll('list-failing-tests', 'tests', { start_time: start, end_time: end }),
    ]);
  });

  it('lists every quarantined flaky or broken test as quarantined in the unhealthy list of its status', () => {
    const unhealthy = new Map([...flaky, ...broken].map((row) => [idOf(row), row]));
    const quarantinedUnhealthy = quarantined.filter((row) => row.status !== 'HEALTHY');
    expect(quarantinedUnhealthy.length).toBeGreaterThan(0);
    for (const row of quarantinedUnhealthy) {
      const listed = unhealthy.get(idOf(row));
      expect(listed).toMatchObject({
        name: row.name,
        variant: row.variant,
        quarantined: true,
        status: expect.objectContaining({ value: String(row.status).toLowerCase() }),
      });
      // The identity the gate matches on is the same in both lists.
      expect(listed!.file_path ?? null).toBe(row.file);
      expect(listed!.parent ?? null).toBe(row.parent);
      expect(listed!.classname ?? null).toBe(row.classname);
    }
  });

  it('has every unhealthy test marked quarantined in the quarantined list', () => {
    const ids = new Set(quarantined.map(idOf));
    const marked = [...flaky, ...broken].filter((row) => row.quarantined === true);
    expect(marked.map(idOf).filter((id) => !ids.has(id))).toEqual([]);
    expect(marked.length).toBe(quarantined.filter((row) => row.status !== 'HEALTHY').length);
  });

  it('says the same of quarantine and status in the failing list', () => {
    const ids = new Set(quarantined.map(idOf));
    const statusOf = new Map(
      [...flaky, ...broken].map((row) => [idOf(row), (row.status as { value: string }).value]),
    );
    expect(failing.length).toBeGreaterThan(0);
    for (const row of failing) {
      expect({ id: idOf(row), quarantined: row.quarantined }).toEqual({
        id: idOf(row),
        quarantined: ids.has(idOf(row)),
      });
      const status = (row.status as { value: string }).value;
      if (status !== 'healthy') expect(statusOf.get(idOf(row))).toBe(status);
    }
  });
});

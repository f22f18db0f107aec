// The emulator's flaky-tests endpoints over HTTP: paging with opaque tokens, the status filter, the
// quarantine rule, the failing-tests window, linked tickets, seeding, and plain-text refusals.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '../../src/wire/index.js';
import { generateFlakyTests } from '../../emulator/flaky-tests/generate.js';
import { startEmulator, type Emulator } from '../../emulator/server.js';
import { ORG, REPO, TOKEN, seed, startFlakyEmulator, tests } from '../helpers/flaky-harness.js';

let emulator: Emulator;

interface TestJson {
  id: string;
  name: string;
  html_url: string;
  quarantined: boolean;
  [field: string]: unknown;
}

interface Answer {
  status: number;
  type: string;
  text: string;
  json: { tests: TestJson[]; quarantined_tests: TestJson[]; test: TestJson; page: Page };
}

beforeAll(async () => {
  emulator = await startFlakyEmulator();
});

afterAll(async () => {
  await emulator.close();
});

async function post(path: string, body: unknown, token = TOKEN): Promise<Answer> {
  const response = await fetch(`${emulator.url}${path}`, {
    method: 'POST',
    headers: { 'x-api-token': token, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const json = (
    response.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : {}
  ) as Answer['json'];
  return { status: response.status, type: response.headers.get('content-type') ?? '', text, json };
}

const base = { repo: REPO, org_url_slug: ORG };

describe('list-unhealthy-tests in the emulator', () => {
  beforeAll(async () => {
    await seed(emulator, {
      repositories: [
        {
          repo: REPO,
          org_url_slug: ORG,
          tests: [...tests(5, 'flaky'), ...tests(2, 'broken'), ...tests(3, 'healthy')],
        },
      ],
    });
  });

  it('pages through one status with opaque next, prev and last tokens', async () => {
    const first = await post('/flaky-tests/list-unhealthy-tests', {
      ...base,
      status: 'FLAKY',
      page_query: { page_size: 2 },
    });
    expect(first.status).toBe(200);
    expect(first.json.tests.map((t) => t.name)).toEqual(['flaky 0', 'flaky 1']);
    expect(first.json.page).toMatchObject({
      total_rows: 5,
      total_pages: 3,
      page_index: 0,
      prev_page_token: '',
    });
    expect(first.json.page.next_page_token).not.toBe('');

    const second = await post('/flaky-tests/list-unhealthy-tests', {
      ...base,
      status: 'FLAKY',
      page_query: { page_size: 2, page_token: first.json.page.next_page_token },
    });
    expect(second.json.tests.map((t) => t.name)).toEqual(['flaky 2', 'flaky 3']);
    expect(second.json.page.page_index).toBe(1);
    expect(second.json.page.prev_page_token).not.toBe('');

    const last = await post('/flaky-tests/list-unhealthy-tests', {
      ...base,
      status: 'FLAKY',
      page_query: { page_size: 2, page_token: first.json.page.last_page_token },
    });
    expect(last.json.tests.map((t) => t.name)).toEqual(['flaky 4']);
    expect(last.json.page).toMatchObject({ page_index: 2, next_page_token: '' });
  });

  it('filters by status, in any case, and answers the wire shape', async () => {
    const broken = await post('/flaky-tests/list-unhealthy-tests', {
      ...base,
      status: 'broken',
      page_query: { page_size: 100 },
    });
    expect(broken.json.page).toMatchObject({ total_rows: 2, total_pages: 1, next_page_token: '' });
    const test = broken.json.tests[0]!;
    expect(test).toMatchObject({
      name: 'broken 0',
      variant: '',
      status: { value: 'broken' },
      repository: { html_url: 'https://github.com/octo-org/octo-repo' },
      codeowners: [],
      pull_requests_impacted_last_7d: 0,
      quarantined: false,
    });
    expect(test.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4/);
    expect(test.html_url).toContain(test.id);
  });

  it('refuses a token of another listing or one it never issued, in plain text', async () => {
    const flaky = await post('/flaky-tests/list-unhealthy-tests', {
      ...base,
      status: 'FLAKY',
      page_query: { page_size: 2 },
    });
    const crossed = await post('/flaky-tests/list-unhealthy-tests', {
      ...base,
      status: 'BROKEN',
      page_query: { page_size: 2, page_token: flaky.json.page.next_page_token },
    });
    expect(crossed.status).toBe(400);
    expect(crossed.type).toMatch(/^text\/plain/);
    const forged = await post('/flaky-tests/list-unhealthy-tests', {
      ...base,
      status: 'FLAKY',
      page_query: { page_size: 2, page_token: 'not-a-token' },
    });
    expect(forged.status).toBe(400);
    expect(forged.text).toMatch(/page_token/);
  });

  it('rejects a body the wire schema rejects (page_size over 100) and a missing token with 401 plain text', async () => {
    const tooBig = await post('/flaky-tests/list-unhealthy-tests', {
      ...base,
      status: 'FLAKY',
      page_query: { page_size: 101 },
    });
    expect(tooBig.status).toBe(400);
    expect(tooBig.type).toMatch(/^text\/plain/);
    const unauthorized = await post(
      '/flaky-tests/list-unhealthy-tests',
      { ...base, status: 'FLAKY', page_query: { page_size: 1 } },
      'wrong',
    );
    expect(unauthorized).toMatchObject({ status: 401, text: 'Unauthorized' });
    expect(unauthorized.type).toMatch(/^text\/plain/);
  });

  it('answers an empty 200 page, as the service does, for a repository it has no data for or another organization', async () => {
    const emptyPage = {
      total_rows: 0,
      total_pages: 0,
      page_index: 0,
      next_page_token: '',
      prev_page_token: '',
      last_page_token: '',
    };
    const lists = [
      ['/flaky-tests/list-unhealthy-tests', { status: 'FLAKY' }, 'tests'],
      ['/flaky-tests/list-quarantined-tests', {}, 'quarantined_tests'],
      [
        '/flaky-tests/list-failing-tests',
        { start_time: '2025-01-01T00:00:00Z', end_time: '2025-01-06T00:00:00Z' },
        'tests',
      ],
    ] as const;
    for (const [path, extra, field] of lists) {
      for (const where of [{ repo: { ...REPO, name: 'elsewhere' } }, { org_url_slug: 'not-ours' }]) {
        const answer = await post(path, { ...base, ...extra, ...where, page_query: { page_size: 1 } });
        expect([path, answer.status]).toEqual([path, 200]);
        expect(JSON.parse(answer.text)).toEqual({ [field]: [], page: emptyPage });
      }
    }
  });
});

describe('the quarantine rule', () => {
  const cases = [
    { name: 'auto flaky', status: 'flaky' as const },
    { name: 'auto healthy', status: 'healthy' as const },
    { name: 'always healthy', status: 'healthy' as const, quarantine_override: 'ALWAYS_QUARANTINE' as const },
    { name: 'never flaky', status: 'flaky' as const, quarantine_override: 'NEVER_QUARANTINE' as const },
  ];

  async function quarantinedNames(settings: {
    quarantining?: boolean;
    auto_quarantine?: boolean;
  }): Promise<string[]> {
    await seed(emulator, { repositories: [{ repo: REPO, ...settings, tests: cases }] });
    const listed = await post('/flaky-tests/list-quarantined-tests', {
      ...base,
      page_query: { page_size: 100 },
    });
    expect(listed.status).toBe(200);
    return listed.json.quarantined_tests.map((t) => t.name);
  }

  it('quarantines flaky tests when auto-quarantine is on, and those set to always', async () => {
    expect(await quarantinedNames({ auto_quarantine: true })).toEqual(['auto flaky', 'always healthy']);
  });

  it('never auto-quarantines a broken test: it fails every time, and hiding it would hide a real failure', async () => {
    const tests = [
      { name: 'auto broken', status: 'broken' as const },
      { name: 'auto flaky', status: 'flaky' as const },
      { name: 'always broken', status: 'broken' as const, quarantine_override: 'ALWAYS_QUARANTINE' as const },
    ];
    await seed(emulator, { repositories: [{ repo: REPO, auto_quarantine: true, tests }] });
    const listed = await post('/flaky-tests/list-quarantined-tests', {
      ...base,
      page_query: { page_size: 100 },
    });
    expect(listed.json.quarantined_tests.map((t) => t.name)).toEqual(['auto flaky', 'always broken']);
  });

  it('quarantines only tests set to always when auto-quarantine is off', async () => {
    expect(await quarantinedNames({ auto_quarantine: false })).toEqual(['always healthy']);
  });

  it('quarantines nothing when the repository does not quarantine', async () => {
    expect(await quarantinedNames({ quarantining: false, auto_quarantine: true })).toEqual([]);
  });

  it('says how each test came to be quarantined, and marks it in the unhealthy list', async () => {
    await seed(emulator, { repositories: [{ repo: REPO, auto_quarantine: true, tests: cases }] });
    const listed = await post('/flaky-tests/list-quarantined-tests', {
      ...base,
      page_query: { page_size: 100 },
    });
    expect(listed.json.quarantined_tests).toEqual([
      expect.objectContaining({
        name: 'auto flaky',
        status: 'FLAKY',
        quarantine_setting: 'AUTO_QUARANTINE',
        file: null,
      }),
      expect.objectContaining({
        name: 'always healthy',
        status: 'HEALTHY',
        quarantine_setting: 'ALWAYS_QUARANTINE',
      }),
    ]);
    const flaky = await post('/flaky-tests/list-unhealthy-tests', {
      ...base,
      status: 'FLAKY',
      page_query: { page_size: 100 },
    });
    expect(flaky.json.tests.map((t) => [t.name, t.quarantined])).toEqual([
      ['auto flaky', true],
      ['never flaky', false],
    ]);
  });
});

describe('failing tests, details and tickets', () => {
  const day = (d: number) => `2025-01-0${d}T12:00:00Z`;

  beforeAll(async () => {
    await seed(emulator, {
      repositories: [
        {
          repo: REPO,
          org_url_slug: ORG,
          ticket_url_template: 'https://tracker.example.com/browse/{id}',
          tests: [
            {
              id: '11111111-1111-4111-8111-111111111111',
              name: 'fails often',
              status: 'flaky',
              failures: [
                { at: day(2), summary: 'timeout' },
                { at: day(3), summary: 'timeout' },
                { at: day(3), summary: 'ECONNRESET' },
              ],
              failure_rate_last_7d: 0.25,
            },
            {
              name: 'failed long ago',
              status: 'broken',
              failures: [{ at: '2024-06-01T00:00:00Z', summary: 'boom' }],
            },
            { name: 'never failed', status: 'healthy' },
          ],
        },
      ],
    });
  });

  it('lists tests that failed in the window, with their most common failures', async () => {
    const failing = await post('/flaky-tests/list-failing-tests', {
      ...base,
      start_time: day(1),
      end_time: day(4),
      page_query: { page_size: 10 },
    });
    expect(failing.status).toBe(200);
    expect(failing.json.tests).toHaveLength(1);
    expect(failing.json.tests[0]).toMatchObject({
      name: 'fails often',
      failure_rate_last_7d: 0.25,
      most_common_failures: [
        { summary: 'timeout', occurrence_count: 2, last_occurrence: '2025-01-03T12:00:00.000Z' },
        { summary: 'ECONNRESET', occurrence_count: 1 },
      ],
    });
  });

  it('counts start_time in and end_time out, and refuses a window over 7 days', async () => {
    const exclusive = await post('/flaky-tests/list-failing-tests', {
      ...base,
      start_time: day(1),
      end_time: day(2),
      page_query: { page_size: 10 },
    });
    expect(exclusive.json.tests).toEqual([]);
    const inclusive = await post('/flaky-tests/list-failing-tests', {
      ...base,
      start_time: day(3),
      end_time: day(4),
      page_query: { page_size: 10 },
    });
    expect(inclusive.json.tests[0]?.most_common_failures).toHaveLength(2);
    const tooLong = await post('/flaky-tests/list-failing-tests', {
      ...base,
      start_time: '2025-01-01T00:00:00Z',
      end_time: '2025-01-08T00:00:01Z',
      page_query: { page_size: 10 },
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.text).toMatch(/7 days/);
  });

  it('links a ticket, which then shows up as ticket.html_url', async () => {
    const id = '11111111-1111-4111-8111-111111111111';
    const linked = await post('/flaky-tests/link-ticket-to-test-case', {
      repo: REPO,
      test_case_id: id,
      external_ticket_id: 'KAN-123',
    });
    expect(linked.status).toBe(200);
    const details = await post('/flaky-tests/get-test-details', { ...base, test_id: id });
    expect(details.json.test).toMatchObject({
      id,
      name: 'fails often',
      ticket: { html_url: 'https://tracker.example.com/browse/KAN-123' },
    });
  });

  it('answers 404 plain text for a test it does not know', async () => {
    const details = await post('/flaky-tests/get-test-details', {
      ...base,
      test_id: '00000000-0000-4000-8000-000000000000',
    });
    expect(details.status).toBe(404);
    expect(details.type).toMatch(/^text\/plain/);
    const link = await post('/flaky-tests/link-ticket-to-test-case', {
      repo: REPO,
      test_case_id: '00000000-0000-4000-8000-000000000000',
      external_ticket_id: 'KAN-1',
    });
    expect(link.status).toBe(404);
  });
});

describe('a list asked again after a write', () => {
  const ids = Array.from({ length: 4 }, (_, i) => `2222222${i}-2222-4222-8222-222222222222`);
  const unhealthy = { ...base, status: 'FLAKY', page_query: { page_size: 2 } };
  const quarantined = { ...base, page_query: { page_size: 10 } };

  async function control(path: string, body: unknown): Promise<void> {
    const response = await fetch(`${emulator.origin}/_emulator${path}`, {
      method: 'POST',
      headers: { 'x-api-token': TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
  }

  beforeAll(async () => {
    await seed(emulator, {
      repositories: [
        {
          repo: REPO,
          org_url_slug: ORG,
          ticket_url_template: 'https://tracker.example.com/browse/{id}',
          tests: ids.map((id, i) => ({ id, name: `flaky ${i}`, status: 'flaky' as const })),
        },
      ],
    });
  });

  it('answers the same page while nothing changes, and the changed page once a test changes status', async () => {
    const before = await post('/flaky-tests/list-unhealthy-tests', unhealthy);
    expect((await post('/flaky-tests/list-unhealthy-tests', unhealthy)).text).toBe(before.text);
    expect(before.json.tests.map((t) => t.name)).toEqual(['flaky 0', 'flaky 1']);
    expect(before.json.page.total_rows).toBe(4);

    await control('/flaky-tests/test-case', { repo: REPO, id: ids[0], status: 'broken' });
    const after = await post('/flaky-tests/list-unhealthy-tests', unhealthy);
    expect(after.json.tests.map((t) => t.name)).toEqual(['flaky 1', 'flaky 2']);
    expect(after.json.page.total_rows).toBe(3);
    const broken = await post('/flaky-tests/list-unhealthy-tests', { ...unhealthy, status: 'BROKEN' });
    expect(broken.json.tests.map((t) => t.name)).toEqual(['flaky 0']);
  });

  it('shows a ticket linked after the page was first asked for', async () => {
    const before = await post('/flaky-tests/list-unhealthy-tests', unhealthy);
    expect(before.json.tests[0]).not.toHaveProperty('ticket');
    const linked = await post('/flaky-tests/link-ticket-to-test-case', {
      repo: REPO,
      test_case_id: before.json.tests[0]!.id,
      external_ticket_id: 'KAN-7',
    });
    expect(linked.status).toBe(200);
    const after = await post('/flaky-tests/list-unhealthy-tests', unhealthy);
    expect(after.json.tests[0]).toMatchObject({
      ticket: { html_url: 'https://tracker.example.com/browse/KAN-7' },
    });
  });

  it('lists a test quarantined after the list was first asked for, and a re-seeded repository as seeded', async () => {
    expect((await post('/flaky-tests/list-quarantined-tests', quarantined)).json.quarantined_tests).toEqual(
      [],
    );
    await control('/flaky-tests/test-case', {
      repo: REPO,
      id: ids[3],
      quarantineSetting: 'ALWAYS_QUARANTINE',
    });
    const after = await post('/flaky-tests/list-quarantined-tests', quarantined);
    expect(after.json.quarantined_tests.map((t) => t.name)).toEqual(['flaky 3']);

    await seed(emulator, {
      repositories: [{ repo: REPO, org_url_slug: ORG, tests: tests(1, 'flaky', 'reseeded') }],
    });
    const reseeded = await post('/flaky-tests/list-unhealthy-tests', unhealthy);
    expect(reseeded.json.tests.map((t) => t.name)).toEqual(['reseeded 0']);
    expect((await post('/flaky-tests/list-quarantined-tests', quarantined)).json.quarantined_tests).toEqual(
      [],
    );
  });
});

describe('seeding', () => {
  it('refuses a fixture that does not match the format, naming the field', async () => {
    const response = await fetch(`${emulator.origin}/_emulator/flaky-tests`, {
      method: 'POST',
      headers: { 'x-api-token': TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({ repositories: [{ repo: REPO, tests: [{ name: 'x', status: 'sometimes' }] }] }),
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/\/repositories\/0\/tests\/0\/status/);
  });

  it('loads a fixture file given at start (--flaky-fixture)', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'flaky-fixture-')), 'fixture.json');
    writeFileSync(
      path,
      JSON.stringify({ repositories: [{ repo: REPO, generate: { flaky: 3, broken: 4, seed: 7 } }] }),
    );
    const fromFile = await startEmulator({ token: TOKEN, flakyFixture: path });
    try {
      const response = await fetch(`${fromFile.url}/flaky-tests/list-unhealthy-tests`, {
        method: 'POST',
        headers: { 'x-api-token': TOKEN, 'content-type': 'application/json' },
        body: JSON.stringify({ ...base, status: 'BROKEN', page_query: { page_size: 100 } }),
      });
      const body = (await response.json()) as { page: { total_rows: number } };
      expect(body.page.total_rows).toBe(4);
    } finally {
      await fromFile.close();
    }
  });
});

describe('the data generator', () => {
  it('makes the asked number of tests per status, the same for the same seed, with realistic fields', () => {
    const now = Date.UTC(2025, 0, 6);
    const generated = generateFlakyTests({ flaky: 30, broken: 20, healthy: 10, seed: 3 }, now);
    expect(generated.filter((t) => t.status === 'flaky')).toHaveLength(30);
    expect(generated.filter((t) => t.status === 'broken')).toHaveLength(20);
    expect(generateFlakyTests({ flaky: 30, broken: 20, healthy: 10, seed: 3 }, now)).toEqual(generated);
    expect(new Set(generated.map((t) => `${t.name}|${t.variant}`)).size).toBe(60);
    for (const test of generated) {
      expect(test.codeowners?.length).toBeGreaterThan(0);
      expect(test.file_path).toMatch(/\.(ts|py|go)$/);
      for (const failure of test.failures ?? []) {
        expect(Date.parse(failure.at)).toBeLessThanOrEqual(now);
        expect(Date.parse(failure.at)).toBeGreaterThan(now - 7 * 24 * 3600 * 1000);
      }
    }
    expect(new Set(generated.map((t) => t.pull_requests_impacted_last_7d)).size).toBeGreaterThan(5);
  });
});

// list-unhealthy-tests run in-process against the emulator over HTTP: paging to the end of both
// statuses, the counts, the report file, the summary (sorted, escaped, cut), the threshold, and the
// loop and max-pages guards.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FixtureTest } from '../../emulator/flaky-tests/fixture.js';
import type { Emulator } from '../../emulator/server.js';
import { InputError } from '../../src/core/errors.js';
import { ORG, REPO, TOKEN, failureOf, seed, startFlakyEmulator, tests } from '../helpers/flaky-harness.js';
import { runOperation } from '../helpers/prepare.js';

let emulator: Emulator;

beforeAll(async () => {
  emulator = await startFlakyEmulator();
});

afterAll(async () => {
  await emulator.close();
});

function seedTests(
  list: FixtureTest[],
  extra: { auto_quarantine?: boolean; repeat_page_tokens?: boolean } = {},
) {
  return seed(emulator, { repositories: [{ repo: REPO, org_url_slug: ORG, ...extra, tests: list }] });
}

const run = (inputs: Record<string, string> = {}) => runOperation(emulator, 'list-unhealthy-tests', inputs);

describe('list-unhealthy-tests', () => {
  it('follows every page of both statuses to the end and counts them', async () => {
    await seedTests(
      [...tests(23, 'flaky'), ...tests(7, 'broken'), ...tests(4, 'healthy')].map((t, i) => ({
        ...t,
        quarantine_override: i % 10 === 0 ? ('ALWAYS_QUARANTINE' as const) : undefined,
      })),
    );
    const result = await run({ 'page-size': '5' });
    expect(result.outputs).toMatchObject({
      'unhealthy-count': 30,
      'flaky-count': 23,
      'broken-count': 7,
      'quarantined-count': 3,
    });
    expect(result.failure).toBeUndefined();
    expect(result.infos).toEqual(
      expect.arrayContaining(['FLAKY: 23 tests on 5 pages.', 'BROKEN: 7 tests on 2 pages.']),
    );
    const report = JSON.parse(readFileSync(String(result.outputs['report-file']), 'utf8'));
    expect(report).toMatchObject({
      repo: REPO,
      org_url_slug: ORG,
      statuses: ['FLAKY', 'BROKEN'],
      counts: { unhealthy: 30, flaky: 23, broken: 7, quarantined: 3 },
    });
    expect(report.tests).toHaveLength(30);
    expect(new Set(report.tests.map((t: { name: string }) => t.name)).size).toBe(30);
    // `response` is the raw body of a last page: one whose next_page_token is empty.
    expect(JSON.parse(String(result.outputs.response)).page.next_page_token).toBe('');
  });

  it('writes the report as indented JSON, every test whole, a token a test echoes hidden', async () => {
    const [echo, ...rest] = tests(12, 'flaky');
    await seedTests([
      { ...echo!, name: `uses x-api-token ${TOKEN} in a fixture` },
      ...rest,
      ...tests(3, 'broken'),
    ]);
    const result = await run({ 'page-size': '5' });
    const text = readFileSync(String(result.outputs['report-file']), 'utf8');
    expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
    expect(text).not.toContain(TOKEN);
    const report = JSON.parse(text) as { tests: { name: string; status: { value: string } }[] };
    expect(report.tests.map((t) => t.name).sort()).toEqual(
      [
        'uses x-api-token *** in a fixture',
        ...rest.map((t) => t.name),
        'broken 0',
        'broken 1',
        'broken 2',
      ].sort(),
    );
    expect(report.tests.every((t) => typeof t.status.value === 'string')).toBe(true);
    // The CSV file: the same tests in the same order, the token hidden there too.
    const csv = readFileSync(String(result.outputs['report-csv-file']), 'utf8');
    expect(csv).not.toContain(TOKEN);
    const rows = csv
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(rows[0]).toMatch(/^name,variant,status,/);
    expect(rows.slice(1).map((row) => JSON.parse(row.slice(0, row.indexOf('",') + 1)))).toEqual(
      report.tests.map((t) => t.name),
    );
  });

  it('lists every test of many pages in the report most impactful first, then broken before flaky, then by name', async () => {
    // Impacts that repeat and arrive in no order, so that ties across pages and statuses decide.
    const impacted = (i: number) => (i * 37) % 23;
    const seeded = [
      ...tests(150, 'flaky').map((t, i) => ({ ...t, pull_requests_impacted_last_7d: impacted(i) })),
      ...tests(90, 'broken').map((t, i) => ({ ...t, pull_requests_impacted_last_7d: impacted(i + 5) })),
    ];
    await seedTests(seeded);
    const result = await run({ 'page-size': '7' });
    const report = JSON.parse(readFileSync(String(result.outputs['report-file']), 'utf8')) as {
      tests: { name: string }[];
    };
    const rank = (t: (typeof seeded)[number]) => [
      -t.pull_requests_impacted_last_7d,
      t.status === 'broken' ? 0 : 1,
    ];
    const expected = [...seeded]
      .sort((a, b) => {
        const [x, y] = [rank(a), rank(b)];
        return x[0]! - y[0]! || x[1]! - y[1]! || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
      })
      .map((t) => t.name);
    expect(report.tests.map((t) => t.name)).toEqual(expected);
  });

  it('fetches one status when test-status names it, leaving the other count empty', async () => {
    await seedTests([...tests(3, 'flaky'), ...tests(2, 'broken')]);
    const result = await run({ 'test-status': 'broken' });
    expect(result.outputs).toMatchObject({ 'unhealthy-count': 2, 'flaky-count': '', 'broken-count': 2 });
    expect(result.summary?.toString()).toContain('Flaky tests: not fetched (test-status).');
  });

  it('leads with the outcome, then the top tests by PRs impacted, every column of every test collapsed', async () => {
    await seedTests([
      { name: 'rarely matters', status: 'flaky', pull_requests_impacted_last_7d: 1 },
      {
        name: 'hurts everyone',
        status: 'broken',
        variant: 'linux-x64',
        reason: 'Failed the last 9 runs',
        codeowners: ['@octo-org/payments'],
        pull_requests_impacted_last_7d: 42,
        quarantine_override: 'ALWAYS_QUARANTINE',
        ticket_url: 'https://octo-org.atlassian.net/browse/KAN-7',
      },
      { name: 'in between', status: 'flaky', pull_requests_impacted_last_7d: 5 },
    ]);
    const summary = (await run()).summary!.toString();
    expect(summary.split('\n')[0]).toBe('## ⚠️ 1 broken · 2 flaky tests in octo-org/octo-repo');
    expect(summary).toContain('1 of the 3 are quarantined.');
    const top = summary.slice(summary.indexOf('### Top 10 by PRs impacted'), summary.indexOf('<details>'));
    const topRows = top.split('\n').filter((line) => line.startsWith('| ['));
    expect(topRows.map((row) => /^\| \[([^\]]+)\]/.exec(row)?.[1])).toEqual([
      'hurts everyone',
      'in between',
      'rarely matters',
    ]);
    expect(topRows[0]).toMatch(
      /^\| \[hurts everyone\]\(https:\/\/[^)]+\) \| broken \| @<!-- -->octo-org\/payments \| (today|\d+ days?) \| 42 \| yes \| \[KAN-7\]\(https:\/\/octo-org\.atlassian\.net\/browse\/KAN-7\) \|$/,
    );
    const all = summary.slice(summary.indexOf('<details><summary>All 3 tests, every column</summary>'));
    expect(all).toMatch(
      /\| \[hurts everyone\]\(https:\/\/[^)]+\) \| linux-x64 \| broken \| Failed the last 9 runs \| @<!-- -->octo-org\/payments \| 42 \| yes \| \[KAN-7\]/,
    );
  });

  it('draws unhealthy tests per owning team, broken in red over the total, as a mermaid chart and a table', async () => {
    await seedTests([
      ...tests(5, 'flaky', 'pay').map((t) => ({ ...t, codeowners: ['@acme/payments'] })),
      ...tests(2, 'broken', 'pay-broken').map((t) => ({
        ...t,
        codeowners: ['@acme/payments', '@acme/platform'],
      })),
      ...tests(3, 'flaky', 'id').map((t) => ({ ...t, codeowners: ['@acme/identity'] })),
      ...tests(1, 'broken', 'nobody'),
    ]);
    const summary = (await run()).summary!.toString();
    const chart = /```mermaid\n([\s\S]*?)\n```/.exec(summary)?.[1];
    const [init, ...body] = chart!.split('\n');
    // Amber for every unhealthy test, red for the broken drawn over them; as tall as three bars need.
    expect(JSON.parse(/^%%\{init: (.*)\}%%$/.exec(init!)![1]!)).toEqual({
      themeVariables: { xyChart: { plotColorPalette: '#d4a72c, #cf222e' } },
      xyChart: { width: 720, height: 212, yAxis: { showLabel: false, showTick: false } },
    });
    expect(body).toEqual([
      'xychart-beta horizontal',
      '  title "Unhealthy tests by owning team (red: broken, amber: flaky)"',
      // Each label says its count: the value axis has no ticks (zero is no bar, the longest fills it).
      '  x-axis ["payments: 2 of 7", "identity: 0 of 3", "(no owner): 1 of 1"]',
      '  y-axis "tests" 0 --> 7',
      '  bar [7, 3, 1]',
      '  bar [2, 0, 1]',
    ]);
    // The same numbers as a table, for a renderer that does not draw the chart.
    expect(summary).toContain(
      [
        '| Team | Broken | Flaky | All |',
        '| --- | --- | --- | --- |',
        '| payments | 2 | 5 | 7 |',
        '| identity | 0 | 3 | 3 |',
        '| (no owner) | 1 | 0 | 1 |',
      ].join('\n'),
    );
  });

  it('escapes test names and reasons from users code', async () => {
    await seedTests([
      {
        name: '<script>alert(1)</script> | `rm -rf` [x](javascript:evil)',
        status: 'flaky',
        reason: 'line one\nline two\r\n| not a cell\rstill one row',
        codeowners: ['<b>team</b>'],
      },
    ]);
    const summary = (await run()).summary!.toString();
    expect(summary).not.toContain('<script>');
    expect(summary).not.toContain('<b>');
    expect(summary).not.toContain('`rm');
    expect(summary).toContain('&lt;script&gt;');
    const lines = summary.split('\n');
    const row = lines.find((line) => line.includes('alert') && line.includes('line one'))!;
    const header = lines[lines.indexOf(row) - 2]!;
    // One row of as many cells as its header: no pipe, newline or carriage return from the data survives.
    expect(row.split(' | ')).toHaveLength(header.split(' | ').length);
    expect(header).toContain('| Reason |');
    expect(row).toContain('line one line two &#124; not a cell still one row');
    expect(summary).not.toMatch(/\r/);
  });

  it('lists the first 100 tests collapsed, degrading to stay under 200 KiB: wordy columns first, then rows', async () => {
    const listingOf = async (list: FixtureTest[]) => {
      await seedTests(list);
      const result = await run();
      const summary = result.summary!.toString();
      expect(Buffer.byteLength(summary)).toBeLessThanOrEqual(200 * 1024);
      const report = JSON.parse(readFileSync(String(result.outputs['report-file']), 'utf8'));
      expect(report.tests).toHaveLength(list.length);
      const csv = readFileSync(String(result.outputs['report-csv-file']), 'utf8');
      expect(csv.trimEnd().split('\r\n')).toHaveLength(list.length + 1);
      const all = summary.slice(summary.indexOf('<details>'), summary.indexOf('</details>'));
      // The way to the full list is there at every stage.
      expect(summary).toMatch(/\*\*Every test\*\* \(\d+\) is in the step's report files/);
      expect(summary).toMatch(/`[^`]*unhealthy-tests\.csv`, `[^`]*unhealthy-tests\.json`\.\n$/);
      return {
        log: result.infos.join('\n'),
        all,
        rows: all.split('\n').filter((line) => line.startsWith('| [')).length,
      };
    };
    const every = await listingOf(tests(50, 'flaky'));
    expect(every.rows).toBe(50);
    // These tests have no variant, owner or ticket: those columns are left out, and the title says so.
    expect(every.all).toContain('<summary>All 50 tests</summary>');
    expect(every.all).toContain('| Test | Status | Reason | PRs impacted (7d) | Quarantined |\n');
    expect(every.log).not.toContain('The summary lists');

    const first = await listingOf(tests(150, 'flaky'));
    expect(first.rows).toBe(100);
    expect(first.all).toContain('<summary>The first 100 of 150 tests by PRs impacted</summary>');
    expect(first.log).toContain(
      'The summary lists the first 100 of 150 tests; the report files have every one.',
    );

    // Cells of pipes (escaped, six bytes each): the reason and variant columns go, every row stays.
    const pipes = '|'.repeat(1000);
    const wordy = await listingOf(tests(100, 'flaky').map((t) => ({ ...t, reason: pipes, variant: pipes })));
    expect(wordy.rows).toBe(100);
    expect(wordy.all).not.toContain('| Reason |');
    expect(wordy.log).toContain('without the reason and variant columns');

    // Names and owners of pipes too: rows go, and the summary says how many it shows.
    const fewer = await listingOf(
      tests(100, 'flaky').map((t, i) => ({
        ...t,
        name: `${i}${pipes}`,
        codeowners: [`@acme/${pipes.slice(0, 240)}`],
      })),
    );
    expect(fewer.rows).toBeGreaterThan(0);
    expect(fewer.rows).toBeLessThan(100);
    expect(fewer.all).toContain(`<summary>The first ${fewer.rows} of 100 tests by PRs impacted</summary>`);
  }, 60_000);

  it('fails on the threshold after writing outputs and the summary, with the tests that tripped it in their own table', async () => {
    await seedTests([...tests(3, 'flaky'), ...tests(1, 'broken')]);
    const over = await run({ 'fail-on': 'flaky', 'max-unhealthy': '2' });
    expect(over.failure).toBe(
      'fail-on flaky: 3 flaky tests, more than max-unhealthy (2). The job summary lists them; report-file has every one.',
    );
    expect(over.outputs['flaky-count']).toBe(3);
    const summary = over.summary!.toString();
    expect(summary.split('\n')[0]).toBe('## ❌ 1 broken · 3 flaky tests in octo-org/octo-repo');
    expect(summary).toContain(
      '`fail-on: flaky` failed this step: 3 flaky tests, allowed 2. 0 of the 4 are quarantined.',
    );
    const tripped = summary.slice(
      summary.indexOf('### Flaky (3): why this step failed'),
      summary.indexOf('### Broken (1): top 10'),
    );
    expect(tripped.split('\n').filter((line) => line.startsWith('| ['))).toHaveLength(3);
    expect(tripped).not.toContain('broken 0');
    expect(summary).toContain('### Broken (1): top 10 by PRs impacted');
    // A section of one status does not repeat it in a column, nor show an owner column no test fills.
    expect(tripped).toContain('| Test | Since | PRs hit (7d) | Quarantined |');

    expect((await run({ 'fail-on': 'flaky', 'max-unhealthy': '3' })).failure).toBeUndefined();
    expect((await run({ 'fail-on': 'broken' })).failure).toMatch(/^fail-on broken: 1 broken test/);
    expect((await run({ 'fail-on': 'any', 'max-unhealthy': '3' })).failure).toMatch(
      /^fail-on any: 4 unhealthy/,
    );
    expect((await run({ 'fail-on': 'none' })).failure).toBeUndefined();
  });

  it('writes a badge in the shields endpoint format when badge-file is set', async () => {
    await seedTests([...tests(3, 'flaky'), ...tests(2, 'broken')]);
    const badgeFile = join(mkdtempSync(join(tmpdir(), 'mqa-badge-')), 'badge.json');
    const result = await run({ 'badge-file': badgeFile, 'fail-on': 'broken' });
    expect(result.outputs['badge-file']).toBe(badgeFile);
    expect(JSON.parse(readFileSync(badgeFile, 'utf8'))).toEqual({
      schemaVersion: 1,
      label: 'unhealthy tests',
      message: '2 broken, 3 flaky',
      color: 'red',
    });
    await run({ 'badge-file': badgeFile });
    expect(JSON.parse(readFileSync(badgeFile, 'utf8')).color).toBe('orange');
  });

  it('refuses fail-on for a status that test-status leaves out, before any request', async () => {
    const message = await failureOf(run({ 'test-status': 'FLAKY', 'fail-on': 'broken' }));
    expect(message).toBe(
      'Input "fail-on": is broken, but test-status FLAKY does not fetch BROKEN tests, so the step could never fail on them. Add BROKEN to test-status, or set fail-on to any.',
    );
  });

  it('stops with a clear error when the service sends a page token a second time', async () => {
    await seedTests(tests(10, 'flaky'), { repeat_page_tokens: true });
    const message = await failureOf(run({ 'test-status': 'FLAKY', 'page-size': '2' }));
    expect(message).toMatch(
      /^the service sent a page token a second time \(on page 2\), so paging would never end\. .* \(the service said: "page token .+"\)$/,
    );
  });

  it('fails on a page that is not the answer, though the next page was asked for while it was checked', async () => {
    await seedTests(tests(10, 'flaky'));
    const badPage = {
      tests: {},
      page: { next_page_token: 'after-the-bad-page', total_rows: 10, total_pages: 5 },
    };
    emulator.faults.plan('/flaky-tests/list-unhealthy-tests', [
      { kind: 'delay', ms: 0 },
      { kind: 'status', status: 200, body: JSON.stringify(badPage), contentType: 'application/json' },
    ]);
    const message = await failureOf(run({ 'test-status': 'FLAKY', 'page-size': '2' }));
    expect(message).toMatch(
      /answered 200 with a body that is not its answer \("tests" is an object, not a list\), so nothing was taken from it/,
    );
    expect(emulator.faults.pending()['/flaky-tests/list-unhealthy-tests'] ?? []).toHaveLength(0);
  });

  it('stops at max-pages, naming the input to raise and how far', async () => {
    await seedTests([...tests(10, 'flaky'), ...tests(1, 'broken')]);
    let error: unknown;
    try {
      await run({ 'page-size': '2', 'max-pages': '3' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toBe(
      'Input "max-pages": list-unhealthy-tests (FLAKY) has more than 3 pages of 2 (the service counts 10 rows on 5 pages). Raise max-pages to at least 5, or raise page-size (up to 100).',
    );
  });

  it('names org-url-slug, repo and repo-host when the service does not know the repository', async () => {
    await seedTests(tests(1, 'flaky'));
    // The emulator, like the service's spec, lists nothing for an unknown repository; a service that
    // answers 404 instead is played here with a planned fault.
    emulator.faults.plan('/flaky-tests/list-unhealthy-tests', [
      { kind: 'status', status: 404, body: 'Not Found' },
    ]);
    const message = await failureOf(run({ 'org-url-slug': 'someone-else' }));
    expect(message).toMatch(
      /^the API answered 404\. Check org-url-slug, repo and repo-host: .*\(the service said: "Not Found.*"\)$/,
    );
  });
});

// The nightly report's summary as organizations grow: a million generated tests with the wordiest cells
// the service may send still make a summary under 200 KiB that keeps the head of every section. And
// the CSV report as a spreadsheet reads it.
import { describe, expect, it } from '@jest/globals';
import { csvRow } from '../../src/core/operations/flaky-tests/report-csv.js';
import type { TestView } from '../../src/core/operations/flaky-tests/tests.js';
import {
  TeamCounts,
  reportedTest,
  summarizeUnhealthy,
  type ReportedTest,
} from '../../src/core/operations/flaky-tests/unhealthy-summary.js';

const NOW = Date.parse('2026-11-25T05:30:00Z');
/** Six bytes each once escaped (&#124;): the most a character of a cell grows. */
const PIPES = '|'.repeat(300);

/** `count` tests, most impactful first, half broken, spread over `teams` teams with long names. */
function generatedTests(count: number, teams: number): { tests: ReportedTest[]; counts: TeamCounts } {
  const counts = new TeamCounts(NOW - 24 * 3600 * 1000);
  const tests: ReportedTest[] = [];
  const teamNames = Array.from({ length: teams }, (_, i) => `@acme/team-${i}-${PIPES}`);
  const owners = teamNames.map((team, i) => [team, teamNames[(i + 1) % teams]!]);
  // Only the first tests can be shown: those after share their strings, to keep the test's memory low.
  const unique = (i: number, make: (i: number) => string) => (i < 1000 ? make(i) : make(1000));
  for (let i = 0; i < count; i++) {
    const test = reportedTest({
      id: unique(i, String),
      name: unique(i, (n) => `${n} ${PIPES}`),
      variant: PIPES,
      status: i % 2 ? 'flaky' : 'broken',
      reason: PIPES,
      statusSince: i % 1000 < 2 ? '2026-11-25T01:00:00Z' : '2026-01-01T00:00:00Z',
      codeowners: owners[i % teams]!,
      pullRequestsImpacted: count - i,
      quarantined: i % 3 === 0,
      htmlUrl: unique(
        i,
        (n) => `https://app.trunk.io/acme/flaky-tests/test/${n}?repo=acme%2Fstorefront&${'x'.repeat(200)}`,
      ),
      ticketUrl: unique(i, (n) => `https://acme.atlassian.net/browse/KAN-${n}`),
    });
    tests.push(test);
    counts.add(test);
  }
  return { tests, counts };
}

describe('the nightly report at a million tests', () => {
  it('stays under 200 KiB and keeps the head of every section', () => {
    const { tests, counts: teams } = generatedTests(1_000_000, 5000);
    const { summary, listing } = summarizeUnhealthy('acme/storefront', {
      tests,
      teams,
      counts: { unhealthy: tests.length, broken: 500_000, flaky: 500_000, quarantined: 333_334 },
      failOn: 'broken',
      maxUnhealthy: 0,
      failure: 'fail-on broken',
      reportFile: '/runner/temp/unhealthy-tests.json',
      csvFile: '/runner/temp/unhealthy-tests.csv',
      now: NOW,
    });
    const text = summary.toString();
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(200 * 1024);
    expect(text.split('\n')[0]).toBe('## ❌ 500000 broken · 500000 flaky tests in acme/storefront');
    expect(text).toContain('**Since yesterday:** 1,000 tests turned broken, 1,000 tests turned flaky.');
    // The chart and its table: the eight biggest teams and the rest in one row.
    expect(text).toMatch(/```mermaid\n%%\{init: .*\}%%\nxychart-beta horizontal\n/);
    expect(text).toContain('| 4992 other teams |');
    const section = (title: string) => {
      const from = text.indexOf(title);
      expect(from).toBeGreaterThan(0);
      const rest = text.slice(from);
      return rest.slice(0, rest.indexOf('\n\n', rest.indexOf('| ---')));
    };
    expect(section('### Broken (500000): why this step failed').match(/^\| \[/gm)).toHaveLength(10);
    expect(section('### Flaky (500000): top 10 by PRs impacted').match(/^\| \[/gm)).toHaveLength(10);
    expect(text).toContain('_499990 more in the report files_');
    // The collapsed list keeps some rows, without its wordiest columns, and says where the rest is.
    expect(listing.brief).toBe(true);
    expect(listing.shown).toBeGreaterThan(0);
    expect(text).toContain(`<summary>The first ${listing.shown} of 1000000 tests by PRs impacted</summary>`);
    expect(text).toContain('**Every test** (1000000) is in the step');
  });
});

describe('the CSV report', () => {
  const test: TestView = {
    id: '1',
    name: '=HYPERLINK("https://evil.example","click")',
    variant: 'linux, x64',
    status: 'flaky',
    reason: 'line one\nline two',
    codeowners: ['@acme/payments', '@acme/platform'],
    pullRequestsImpacted: 12,
    quarantined: true,
  };

  it('quotes every text cell and keeps a formula from users code as text', () => {
    expect(csvRow(test)).toBe(
      [
        '"\'=HYPERLINK(""https://evil.example"",""click"")"',
        '"linux, x64"',
        '"flaky"',
        '"line one\nline two"',
        '""',
        // A cell starting with @ is a formula to some spreadsheets too.
        '"\'@acme/payments @acme/platform"',
        '12',
        'true',
        '""',
        '""',
      ].join(','),
    );
  });
});

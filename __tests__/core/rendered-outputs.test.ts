// The outputs as a person sees them, drawn in Chromium as GitHub draws a summary (GFM, then mermaid):
// first that the renderer's reading checks catch what they look for (a literal \n, a raw ISO time or
// "unknown" in a cell, chart labels drawn over each other, a raw enum code on the emulator's page), then
// the nightly report at 10,000 tests, under 200 KiB with nothing a reader stumbles on, and the emulator's
// page in the four states `npm run screenshots` draws, with nothing a reader stumbles on either.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { FIXTURE_LIMITS } from '../../emulator/flaky-tests/fixture.js';
import type { Emulator } from '../../emulator/server.js';
import { drawEmulatorPage } from '../../scripts/emulator-page-screenshots.js';
import { launchChromium } from '../helpers/chromium.js';
import { pageProblems } from '../helpers/emulator-page.js';
import { ORG, REPO, seed, startFlakyEmulator } from '../helpers/flaky-harness.js';
import { runOperation } from '../helpers/prepare.js';
import { CHART_COLOURS, horizontalBarChart } from '../../src/core/report/chart.js';
import { SummaryRenderer } from '../helpers/render-summary.js';
import { describeWithTools } from '../helpers/tool-gate.js';
import { TOOLS } from '../helpers/tools.js';

/** A vertical bar chart whose long labels cannot all fit under their bars. */
const CROWDED_CHART = [
  '```mermaid',
  'xychart-beta',
  '  x-axis ["payments-platform-team", "identity-and-access-team", "storefront-checkout-team", "search-and-discovery-team", "messaging-and-email-team", "supply-chain-logistics-team", "developer-experience-team"]',
  '  y-axis "tests" 0 --> 10',
  '  bar [1, 2, 3, 4, 5, 6, 7]',
  '```',
].join('\n');

describeWithTools([TOOLS.chromium()], 'outputs drawn as GitHub draws them', () => {
  let browser: Browser;
  let renderer: SummaryRenderer;
  let emulator: Emulator;

  beforeAll(async () => {
    browser = await launchChromium();
    renderer = await SummaryRenderer.open(browser);
    emulator = await startFlakyEmulator();
  });

  afterAll(async () => {
    await browser?.close();
    await emulator?.close();
  });

  it('the reading checks catch each thing they look for', async () => {
    const bad = [
      '## exited with error code 1\\n(likely caused by this PR) \uE000',
      '| PR | Title | In this state |',
      '| --- | --- | --- |',
      '| #1 | unknown | 2025-01-06T09:36:39.556Z |',
      '',
      CROWDED_CHART,
    ].join('\n');
    const { reading } = await renderer.render(bad);
    expect(reading).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^a literal line break escape: .*code 1\\n\(likely/),
        'an ISO timestamp in a table cell: 2025-01-06T09:36:39.556Z',
        'a table cell that says "unknown"',
        expect.stringMatching(/^chart 1: labels ".+" and ".+" overlap$/),
        // A character no installed font has is drawn as a box.
        'no font draws "\uE000" (U+E000)',
      ]),
    );
    // The same numbers as our charts draw them (bars lying down) overlap nowhere.
    const good = CROWDED_CHART.replace('xychart-beta', 'xychart-beta horizontal');
    expect((await renderer.render(good)).reading).toEqual([]);
  });

  it('a chart draws no bar for zero, and its longest bar fills it however few the items', async () => {
    // The gate's chart on a passing run (nothing fails this step), and the metrics' wait buckets.
    const gate = horizontalBarChart({
      title: 'Failed tests by owning team (red: fail this step, amber: do not)',
      categories: ['@acme/web'],
      series: [
        { values: [2], colour: CHART_COLOURS.warning },
        { values: [0], colour: CHART_COLOURS.failure },
      ],
      valueLabel: 'tests',
      countWords: () => '0 of 2',
    });
    const waits = horizontalBarChart({
      title: 'Wait before testing',
      categories: ['under 1m', '1m–5m', '5m–10m', '10m–15m', 'over 2h'],
      series: [{ values: [6, 1, 2, 0, 0], colour: CHART_COLOURS.neutral }],
      valueLabel: 'PRs',
    });
    const rendered = await renderer.render(
      `\`\`\`mermaid\n${gate}\n\`\`\`\n\n\`\`\`mermaid\n${waits}\n\`\`\``,
    );
    expect(rendered).toMatchObject({ problems: [], charts: ['', ''], reading: [] });
    const [gateBars, waitBars] = rendered.bars as [(typeof rendered.bars)[0], (typeof rendered.bars)[0]];

    const red = gateBars.rects.filter((r) => r.fill === CHART_COLOURS.failure);
    expect(red.map((r) => r.width)).toEqual([0]);
    expect(waitBars.rects.map((r) => r.width).slice(3)).toEqual([0, 0]);

    // Two tests fill the chart's plot: no axis drawn on to 10.
    for (const { rects, chartWidth } of [gateBars, waitBars]) {
      expect(Math.max(...rects.map((r) => r.width))).toBeGreaterThan(chartWidth * 0.55);
    }
    expect(gateBars.texts).not.toContain('10');
    expect(gateBars.texts).toContain('@acme/web: 0 of 2');
    expect(waitBars.texts).toContain('under 1m: 6');
  });

  it('the nightly report at 10,000 tests is under 200 KiB, and draws with nothing a reader stumbles on', async () => {
    const generated = FIXTURE_LIMITS.generatedPerStatus;
    await seed(emulator, {
      repositories: [
        {
          repo: REPO,
          org_url_slug: ORG,
          auto_quarantine: true,
          generate: { flaky: generated, broken: generated, seed: 1 },
        },
      ],
    });
    const result = await runOperation(emulator, 'list-unhealthy-tests', { 'fail-on': 'broken' });
    expect(result.outputs['unhealthy-count']).toBe(10_000);
    expect(Buffer.byteLength(result.summaryText)).toBeLessThanOrEqual(200 * 1024);
    const rendered = await renderer.render(result.summaryText);
    expect(rendered).toMatchObject({ problems: [], charts: [''], reading: [] });
  }, 120_000);

  it("the page checks catch a raw enum code shown as text, but not in a PR's own words", async () => {
    const page = await browser.newPage();
    try {
      await page.setContent(
        [
          '<table><tr><td>PREREQUISITE_MERGE_ITEM_FAILED</td><td>state: pending_failure</td>',
          '<td class="user-text">test_refund handles SOME_FLAG</td><td title="TEST_RUN_TIMEOUT">timed out</td>',
          '<td>unknown</td><td>2026-11-25T23:44:10Z</td><td>failed\\nagain</td></tr></table>',
        ].join(''),
      );
      expect(await pageProblems(page)).toEqual([
        expect.stringMatching(/^a literal line break escape: .*failed\\nagain$/),
        'a table cell that says "unknown"',
        'an ISO timestamp in a table cell: 2026-11-25T23:44:10Z',
        'a raw code shown as text: PREREQUISITE_MERGE_ITEM_FAILED',
        'a raw code shown as text: pending_failure',
      ]);
    } finally {
      await page.close();
    }
  });

  it("the emulator's page in its four states draws with nothing a reader stumbles on", async () => {
    const out = mkdtempSync(join(tmpdir(), 'emulator-page-'));
    const drawn = await drawEmulatorPage(browser, out);
    expect(drawn.map((d) => d.file)).toEqual(
      ['empty', 'testing', 'failure', 'merged'].map((state) => `${out}/emulator-page-${state}.png`),
    );
    for (const { file, problems } of drawn) {
      expect([file, problems]).toEqual([file, []]);
      expect(readFileSync(file).subarray(1, 4).toString()).toBe('PNG');
    }
  }, 120_000);
});

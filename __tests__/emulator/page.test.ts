// The page that shows and drives the queue, in Debian's headless Chromium (driven by playwright-core,
// no browser download): a PR submitted through the API appears, a click on Pass merges it.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.js';
import { QueueDriver, useEmulator } from '../helpers/emulator.js';
import { describeWithTools } from '../helpers/tool-gate.js';
import { TOOLS } from '../helpers/tools.js';

const emu = useEmulator();
let browser: Browser;

describeWithTools([TOOLS.chromium()], 'the page', () => {
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows a PR submitted through the API, and merges it when Pass is clicked', async () => {
    const queue = new QueueDriver(emu, 'acme/page');
    await queue.create();
    await queue.setPr(12, { title: 'Add <b>login</b>', author: 'mona', headSha: 'c0ffee1234' });
    const page = await browser.newPage();
    try {
      await page.goto(`${emu.current.origin}/#token=${encodeURIComponent(emu.current.token)}`);
      await page.locator('#connection', { hasText: 'live' }).waitFor();
      await queue.submit(12);
      const row = page.locator('tr[data-pr="12"]');
      await row.locator('.state', { hasText: 'testing' }).waitFor();
      expect(await row.textContent()).toContain('Add <b>login</b>');
      expect(await row.textContent()).toContain('mona');
      await page.locator('[data-finish][data-outcome="pass"]').first().click();
      await row.locator('.state', { hasText: 'merged' }).waitFor();
      expect(await queue.state(12)).toBe('merged');
      await row.locator('summary').click();
      expect(await row.locator('details ol').textContent()).toContain('MERGE_GRAPH_MERGE');
    } finally {
      await page.close();
    }
  }, 60_000);

  it('pauses the queue and pushes a new sha from its buttons', async () => {
    const queue = new QueueDriver(emu, 'acme/buttons');
    await queue.create();
    await queue.setPr(3, { headSha: 'aaaa1111' });
    await queue.submit(3);
    const page = await browser.newPage();
    try {
      await page.goto(`${emu.current.origin}/#token=${encodeURIComponent(emu.current.token)}`);
      const section = page.locator('section[data-queue$="acme/buttons@main"]');
      await section.locator('button[data-queue-state="paused"]').click();
      await section.locator('h2 .state', { hasText: 'paused' }).waitFor();
      expect((await queue.queue()).state).toBe('paused');
      await section.locator('button[data-push="3"]').click();
      await section.locator('tr[data-pr="3"] .state', { hasText: 'cancelled' }).waitFor();
      expect(await section.locator('tr[data-pr="3"]').textContent()).toContain('PR_PUSHED_TO');
    } finally {
      await page.close();
    }
  }, 60_000);
});

// The page that shows and drives the queue, in Debian's headless Chromium (driven by playwright-core,
// no browser download), over real HTTP: what a person sees in the four states they meet (queues told
// apart by host, places in line, time in state, reasons in words, the finished section, runs by name),
// the buttons, hostile titles shown as text, and the sign-in prompt.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { startEmulator, type Emulator } from '../../emulator/server.js';
import { launchChromium } from '../helpers/chromium.js';
import { QueueDriver, useEmulator } from '../helpers/emulator.js';
import { openPage, reachState, settled } from '../helpers/emulator-page.js';
import { describeWithTools } from '../helpers/tool-gate.js';
import { TOOLS } from '../helpers/tools.js';

const emu = useEmulator();
let browser: Browser;

const signedIn = (page: Page) =>
  page.goto(`${emu.current.origin}/#token=${encodeURIComponent(emu.current.token)}`);

describeWithTools([TOOLS.chromium()], 'the page', () => {
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows a PR submitted through the API, and moves it to the finished section when Pass is clicked', async () => {
    const queue = new QueueDriver(emu, 'acme/page');
    await queue.create();
    await queue.setPr(12, { title: 'Add login', author: 'mona', headSha: 'c0ffee1234' });
    const page = await browser.newPage();
    try {
      await signedIn(page);
      await page.locator('#connection', { hasText: 'live' }).waitFor();
      await queue.submit(12);
      const section = page.locator('section[data-queue$="acme/page@main"]');
      const row = section.locator('tr[data-pr="12"]');
      await row.locator('.state', { hasText: 'testing' }).waitFor();
      expect(await row.textContent()).toContain('Add login');
      expect(await row.textContent()).toContain('by mona');
      await section.locator('[data-finish][data-outcome="pass"]').click();
      const finished = section.locator('details.finished');
      await finished.locator('> summary', { hasText: '1 merged' }).waitFor();
      expect(await finished.getAttribute('open')).toBeNull();
      await finished.locator('> summary').click();
      const done = finished.locator('tr[data-pr="12"]');
      expect(await done.locator('.reason').textContent()).toBe('merged by the queue');
      expect(await done.locator('.reason').getAttribute('title')).toBe('MERGE_GRAPH_MERGE');
      expect(await section.locator('h3', { hasText: 'In line (0)' }).count()).toBe(1);
      expect(await section.textContent()).toContain('The line is empty');
      expect(await queue.state(12)).toBe('merged');
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
      await signedIn(page);
      const section = page.locator('section[data-queue$="acme/buttons@main"]');
      const buttons = () => section.locator('h2 .queue-buttons button').allTextContents();
      // Only what would change the state: a running queue offers no Resume, a paused one no Pause.
      expect(await buttons()).toEqual(['Pause', 'Drain']);
      await section.locator('button[data-queue-state="paused"]').click();
      await section.locator('h2 .state', { hasText: 'paused' }).waitFor();
      expect((await queue.queue()).state).toBe('paused');
      expect(await buttons()).toEqual(['Drain', 'Resume']);
      await section.locator('button[data-push="3"]').click();
      await section.locator('details.finished > summary', { hasText: '1 cancelled' }).click();
      const reason = section.locator('details.finished tr[data-pr="3"] .reason');
      expect(await reason.textContent()).toBe('new commits were pushed to it');
      expect(await reason.getAttribute('title')).toBe('PR_PUSHED_TO');
    } finally {
      await page.close();
    }
  }, 60_000);

  it('leaves the Title column out of a table when the emulator knows nothing of its PRs', async () => {
    const queue = new QueueDriver(emu, 'acme/bare');
    await queue.create();
    await queue.submit(5);
    const page = await browser.newPage();
    try {
      await signedIn(page);
      const section = page.locator('section[data-queue$="acme/bare@main"]');
      await section.locator('tr[data-pr="5"]').waitFor();
      expect(await section.locator('th').allTextContents()).toEqual([
        'Place',
        'PR',
        'State',
        'Why',
        'Priority',
        'Run',
        '',
      ]);
      expect(await section.textContent()).not.toMatch(/unknown/i);
    } finally {
      await page.close();
    }
  }, 60_000);

  it('shows a hostile title and author as text', async () => {
    const queue = new QueueDriver(emu, 'acme/hostile');
    await queue.create();
    const title = '<img src=x onerror="window.pwned=1">Fix <b>it</b>';
    await queue.setPr(66, { title, author: '<script>window.pwned=2</script>' });
    await queue.submit(66);
    const page = await browser.newPage();
    try {
      await signedIn(page);
      const row = page.locator('tr[data-pr="66"]');
      await row.waitFor();
      expect(await row.locator('.title').textContent()).toContain(title);
      expect(await row.locator('.title').textContent()).toContain('by <script>window.pwned=2</script>');
      expect(await row.locator('img, b, script').count()).toBe(0);
      expect(await page.evaluate(() => (globalThis as { pwned?: number }).pwned)).toBeUndefined();
    } finally {
      await page.close();
    }
  }, 60_000);

  it('asks for the token in a prompt that says where it is printed, and says so when it is refused', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(emu.current.origin);
      const prompt = page.locator('#sign-in');
      await prompt.waitFor();
      expect(await prompt.textContent()).toMatch(/start-up log, find the line that begins with\s+Token:/);
      expect(await page.locator('#sign-in-refused').isVisible()).toBe(false);
      expect(await page.locator('button[data-advance]').first().isVisible()).toBe(false);
      await page.locator('#token-input').fill('not-the-token');
      await page.locator('#sign-in-form button').click();
      await page.locator('#sign-in-refused').waitFor();
      expect(await page.locator('section.queue').count()).toBe(0);
      await page.locator('#token-input').fill(emu.current.token);
      await page.locator('#sign-in-form button').click();
      await page.locator('#connection', { hasText: 'live' }).waitFor();
      await page.locator('#clock', { hasText: 'Virtual time' }).waitFor();
      expect(await prompt.isVisible()).toBe(false);
      expect(await page.locator('button[data-advance]').first().isVisible()).toBe(true);
    } finally {
      await page.close();
    }
  }, 60_000);

  describe('through a rehearsal', rehearsal);
});

function rehearsal(): void {
  let emulator: Emulator;
  let page: Page;
  beforeAll(async () => {
    emulator = await startEmulator({ token: 'rehearsal-token' });
    await reachState(emulator, 'empty');
    page = await openPage(browser, emulator);
  });
  afterAll(async () => {
    await page?.close();
    await emulator?.close();
  });
  const inLine = (queue: string) => page.locator(`section[data-queue="${queue}"] table`).first();
  const WEB = 'github.com/acme/web@main';

  it('titles each queue host/owner/name → branch, so two of the same name are told apart', async () => {
    const titles = await page.locator('.queue-title').allTextContents();
    expect(titles).toEqual(['github.com/acme/web → main', 'gitlab.example.com/acme/web → main']);
    expect(await page.locator(`section[data-queue="${WEB}"]`).textContent()).toContain('The line is empty');
  });

  it('numbers the line, says how long each PR has been in its state and names its run', async () => {
    await reachState(emulator, 'testing');
    await settled(page, emulator);
    const rows = inLine(WEB).locator('tbody tr');
    expect(await rows.locator('td.place').allTextContents()).toEqual(['1', '2', '3', '4', '5']);
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-pr')))).toEqual([
      '101',
      '102',
      '103',
      '104',
      '105',
    ]);
    const first = rows.first();
    expect(await first.locator('time.in-state').textContent()).toBe('4 min');
    const submittedAt = emulator.clock.now() - 4 * 60_000;
    const utc = `since ${new Date(submittedAt).toISOString().replace('T', ' ').slice(0, 19)} UTC`;
    expect(await first.locator('time.in-state').getAttribute('title')).toBe(utc);
    const run = first.locator('a.run-name');
    const runId = emulator.engine.queues()[0]!.latestByPr.get(101)!.run!.id;
    expect(await run.textContent()).toBe(runId.slice(0, 8));
    expect(await run.getAttribute('href')).toMatch(/^https:\/\/github\.com\/acme\/web\/actions\/runs\/\d+$/);
    expect(await rows.nth(2).locator('.reason').textContent()).toBe('ready, entered the line');
  });

  it('leaves out what nobody told the emulator, and keeps a PR not ready out of the line', async () => {
    const section = page.locator(`section[data-queue="${WEB}"]`);
    expect(await section.locator('tr[data-pr="105"] td.title').textContent()).toBe('');
    expect(await section.textContent()).not.toMatch(/unknown/i);
    expect(await inLine(WEB).locator('tr[data-pr="106"]').count()).toBe(0);
    const waiting = section.locator('h3', { hasText: 'Waiting to enter the line (1)' });
    expect(await waiting.count()).toBe(1);
    const gitlab = page.locator('section[data-queue="gitlab.example.com/acme/web@main"]');
    expect(await gitlab.locator('th').allTextContents()).toContain('Title');
  });

  it('puts a failure in the finished section, with its reason in words and the code on hover', async () => {
    await reachState(emulator, 'failure');
    await settled(page, emulator);
    const section = page.locator(`section[data-queue="${WEB}"]`);
    expect(await inLine(WEB).locator('tr[data-pr="101"]').count()).toBe(0);
    const summary = section.locator('details.finished > summary');
    expect(await summary.textContent()).toContain('Finished: 1 failed');
    await summary.click();
    const reason = section.locator('details.finished tr[data-pr="101"] .reason');
    expect(await reason.textContent()).toBe('a required check failed');
    expect(await reason.getAttribute('title')).toBe('TEST_RUN_REQUIRED_STATUS_FAILED');
    await inLine(WEB).locator('tr[data-pr="102"] summary').click();
    const restart = inLine(WEB).locator(
      'tr[data-pr="102"] details li .word[title="PREREQUISITE_MERGE_ITEM_FAILED"]',
    );
    expect(await restart.textContent()).toBe('a PR ahead of it failed');
  });

  it('after merges, empties the line and counts the finished PRs by outcome', async () => {
    await reachState(emulator, 'merged');
    await settled(page, emulator);
    const section = page.locator(`section[data-queue="${WEB}"]`);
    expect(await section.locator('details.finished > summary').textContent()).toContain('4 merged, 1 failed');
    expect(await section.locator('details.finished').getAttribute('open')).toBe('');
    expect(await section.textContent()).toContain('The line is empty');
  });
}

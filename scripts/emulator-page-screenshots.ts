// The emulator's page for `npm run screenshots`: one emulator of its own, driven through the four states
// a person meets (helpers/emulator-page.ts), each drawn in Chromium to <dir>/emulator-page-<state>.png
// with what a reader would stumble on in it.
import type { Browser } from 'playwright-core';
import { glyphProblems } from '../__tests__/helpers/render-summary.js';
import { startEmulator } from '../emulator/server.js';
import {
  PAGE_STATES,
  openPage,
  pageProblems,
  reachState,
  settled,
} from '../__tests__/helpers/emulator-page.js';

export interface DrawnPage {
  file: string;
  problems: string[];
}

export async function drawEmulatorPage(browser: Browser, outDir: string): Promise<DrawnPage[]> {
  const emulator = await startEmulator({ token: 'screenshot-page-token', seed: 1 });
  const drawn: DrawnPage[] = [];
  try {
    await reachState(emulator, 'empty');
    const page = await openPage(browser, emulator);
    for (const state of PAGE_STATES) {
      if (state !== 'empty') await reachState(emulator, state);
      await settled(page, emulator);
      // A failure and merges are read in the finished section: open it, as a person would.
      if (state === 'failure' || state === 'merged') {
        const closed = page.locator('details.finished:not([open]) > summary');
        while ((await closed.count()) > 0) await closed.first().click();
      }
      const file = `${outDir}/emulator-page-${state}.png`;
      await page.screenshot({ path: file, fullPage: true });
      drawn.push({ file, problems: [...(await pageProblems(page)), ...(await glyphProblems(page))] });
    }
    await page.close();
  } finally {
    await emulator.close();
  }
  return drawn;
}

// Debian's headless Chromium (apt-get install chromium), driven by playwright-core: no browser download.
// Found on PATH; CHROMIUM_PATH points elsewhere (helpers/tools.ts).
import type { Browser } from 'playwright-core';
import { missingTools, TOOLS } from './tools.js';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export function chromiumAvailable(): boolean {
  return TOOLS.chromium().path !== undefined;
}

export async function launchChromium(): Promise<Browser> {
  const executablePath = TOOLS.chromium().path;
  if (!executablePath) throw new Error(missingTools([TOOLS.chromium()]));
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS });
}

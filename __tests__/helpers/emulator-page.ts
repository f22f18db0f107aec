// The emulator's page in the four states a person meets: queues with no PR yet, PRs testing with a line,
// a failure, and merges done (the finished section opened). Driven over HTTP as a user rehearsing would;
// shared by the page's tests and `npm run screenshots`. Also what a reader would stumble on in the page.
import type { Browser, Page } from 'playwright-core';
import { readingProblems } from './render-summary.js';

export const PAGE_STATES = ['empty', 'testing', 'failure', 'merged'] as const;
export type PageState = (typeof PAGE_STATES)[number];

/** Two queues of the same owner and name on different hosts: the page must tell them apart. */
export const WEB = { host: 'github.com', owner: 'acme', name: 'web' };
export const WEB_ELSEWHERE = { host: 'gitlab.example.com', owner: 'acme', name: 'web' };

const PULL_REQUESTS = [
  { number: 101, title: 'Add login form', author: 'mona', headSha: '9f2c1e7a4b5d' },
  { number: 102, title: 'Cache avatars', author: 'hubot', headSha: '41d0aa93c2e8' },
  { number: 103, title: 'Fix checkout rounding', author: 'octocat', headSha: 'c3e8b1f002aa' },
  { number: 104, title: 'Bump eslint', author: 'dependabot', headSha: '77ab90e1d4c3' },
  // Nobody told the emulator anything of #105: the page leaves its title out rather than say "unknown".
  { number: 105 },
  { number: 106, title: 'Draft: new nav', author: 'mona', mergeability: 'not_mergeable' },
];

export interface PageEmulator {
  origin: string;
  token: string;
}

async function control(emulator: PageEmulator, path: string, body: unknown): Promise<void> {
  const response = await fetch(`${emulator.origin}/_emulator${path}`, {
    method: 'POST',
    headers: { 'x-api-token': emulator.token, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
}

async function submit(emulator: PageEmulator, repo: typeof WEB, number: number): Promise<void> {
  const response = await fetch(`${emulator.origin}/v1/submitPullRequest`, {
    method: 'POST',
    headers: { 'x-api-token': emulator.token, 'content-type': 'application/json' },
    body: JSON.stringify({ repo, targetBranch: 'main', pr: { number } }),
  });
  if (!response.ok)
    throw new Error(`submitPullRequest #${number}: ${response.status} ${await response.text()}`);
}

/** Moves the emulator from the previous state into `state` (call them in PAGE_STATES order). */
export async function reachState(emulator: PageEmulator, state: PageState): Promise<void> {
  const advance = (minutes: number) => control(emulator, '/clock/advance', { minutes });
  if (state === 'empty') {
    await control(emulator, '/queues', { repo: WEB, targetBranch: 'main', concurrency: 2 });
    await control(emulator, '/queues', { repo: WEB_ELSEWHERE, targetBranch: 'main' });
    await control(emulator, '/ci', { outcome: 'pass', durationMinutes: 10 });
  } else if (state === 'testing') {
    for (const pr of PULL_REQUESTS) await control(emulator, '/pull-requests', { repo: WEB, ...pr });
    await control(emulator, '/ci', { repo: WEB, prNumber: 101, outcome: 'fail', durationMinutes: 8 });
    for (const pr of PULL_REQUESTS) await submit(emulator, WEB, pr.number);
    await control(emulator, '/pull-requests', { repo: WEB_ELSEWHERE, number: 7, title: 'Speed up search' });
    await submit(emulator, WEB_ELSEWHERE, 7);
    await advance(4);
  } else if (state === 'failure') await advance(8);
  else await advance(45);
}

/** Opens the page signed in and waits for its first snapshot. */
export async function openPage(browser: Browser, emulator: PageEmulator): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${emulator.origin}/#token=${encodeURIComponent(emulator.token)}`);
  await page.locator('#connection', { hasText: 'live' }).waitFor();
  await page.locator('section.queue').first().waitFor();
  return page;
}

/** Waits until the page shows the emulator's current clock (its snapshot after the last change). */
export async function settled(page: Page, emulator: PageEmulator): Promise<void> {
  const answer = await fetch(`${emulator.origin}/_emulator/clock`, {
    headers: { 'x-api-token': emulator.token },
  });
  const { now } = (await answer.json()) as { now: string };
  await page
    .locator('#clock')
    .and(page.locator(`[title="${now.replace('T', ' ').slice(0, 19)} UTC"]`))
    .waitFor();
}

/**
 * Runs in the page: a service's code shown as text where words belong, such as PREREQUISITE_MERGE_ITEM_FAILED
 * or pending_failure (codes on hover, in `title`, are fine). Text the PRs' authors wrote (`.user-text`)
 * is theirs to spell.
 */
export function rawCodeProblems(): string[] {
  interface Node {
    nodeType: number;
    textContent: string | null;
    parentElement: { closest(selector: string): unknown } | null;
  }
  const { document } = globalThis as unknown as {
    document: { body: unknown; createTreeWalker(root: unknown, show: number): { nextNode(): Node | null } };
  };
  const SHOW_TEXT = 4;
  const walker = document.createTreeWalker(document.body, SHOW_TEXT);
  const problems: string[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement?.closest('.user-text, script, style, [hidden]')) continue;
    const code = /\b(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[a-z]+(?:_[a-z]+)+)\b/.exec(node.textContent ?? '');
    if (code) problems.push(`a raw code shown as text: ${code[0]}`);
  }
  return problems;
}

/** What a reader would stumble on in the page as drawn: the summaries' checks, and raw codes. */
export async function pageProblems(page: Page): Promise<string[]> {
  return [...(await page.evaluate(readingProblems)), ...(await page.evaluate(rawCodeProblems))];
}

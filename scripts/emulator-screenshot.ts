// `node --import tsx scripts/emulator-screenshot.ts`: docs/images/emulator-page.png, the emulator's page
// on a small rehearsal (a batching queue with runs in progress, a failure, flaky tests), in Debian's
// headless Chromium.
import { chromium } from 'playwright-core';
import { startEmulator } from '../emulator/server.js';

const TOKEN = 'screenshot';
const emulator = await startEmulator({
  token: TOKEN,
  scenario: {
    ci: { outcome: 'pass', durationMinutes: 10 },
    queues: [{ repo: 'acme/web', targetBranch: 'main', concurrency: 2, batch: true, batchingMinSize: 2 }],
    pullRequests: [
      {
        repo: 'acme/web',
        number: 101,
        title: 'Add login form',
        author: 'mona',
        headSha: '9f2c1e7a4b',
        submit: { targetBranch: 'main' },
      },
      {
        repo: 'acme/web',
        number: 102,
        title: 'Cache avatars',
        author: 'hubot',
        headSha: '41d0aa93c2',
        submit: { targetBranch: 'main' },
      },
      {
        repo: 'acme/web',
        number: 103,
        title: 'Fix checkout rounding',
        author: 'octocat',
        headSha: 'c3e8b1f002',
        ci: { outcome: 'fail' },
        submit: { targetBranch: 'main' },
      },
      {
        repo: 'acme/web',
        number: 104,
        title: 'Bump eslint',
        author: 'dependabot',
        headSha: '77ab90e1d4',
        submit: { targetBranch: 'main', priority: 'high' },
      },
      {
        repo: 'acme/web',
        number: 105,
        title: 'Draft: new nav',
        author: 'mona',
        headSha: '0be5d1c9aa',
        mergeability: 'not_mergeable',
        submit: { targetBranch: 'main' },
      },
    ],
    flakyTests: {
      repositories: [
        {
          repo: { host: 'github.com', owner: 'acme', name: 'web' },
          org_url_slug: 'acme',
          auto_quarantine: true,
          generate: { flaky: 6, broken: 2, seed: 4 },
        },
      ],
    },
  },
});
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
try {
  const control = (path: string, body: unknown) =>
    fetch(`${emulator.origin}/_emulator${path}`, {
      method: 'POST',
      headers: { 'x-api-token': TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  await control('/clock/advance', { minutes: 12 });
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  await page.goto(`${emulator.origin}/#token=${TOKEN}`);
  await page.locator('#connection', { hasText: 'live' }).waitFor();
  await page.locator('tr[data-pr="103"] summary').click();
  await page.screenshot({ path: 'docs/images/emulator-page.png', fullPage: true });
  console.log('docs/images/emulator-page.png');
} finally {
  await browser.close();
  await emulator.close();
}

// Writes the nightly report's summary for the emulator's 10,000-test fixture (8,000 flaky, 2,000
// broken, generated), with fail-on: broken, as the action writes it - for the README's screenshot:
//   node --import tsx scripts/flaky-report-sample.ts docs/images/flaky-report.md
// then render it as GitHub does (GFM + mermaid in Chromium) with the shared summary renderer.
import { writeFileSync } from 'node:fs';
import { startEmulator } from '../emulator/server.js';
import { contextOf, prepareFrom, startPrepared } from '../__tests__/helpers/prepare.js';

const out = process.argv[2] ?? 'flaky-report.md';
const token = 'sample-token';
const repo = { host: 'github.com', owner: 'acme', name: 'storefront' };
const emulator = await startEmulator({ token });
try {
  const seeded = await fetch(`${emulator.origin}/_emulator/flaky-tests`, {
    method: 'POST',
    headers: { 'x-api-token': token, 'content-type': 'application/json' },
    body: JSON.stringify({
      repositories: [
        {
          repo,
          org_url_slug: 'acme',
          auto_quarantine: true,
          generate: { flaky: 8000, broken: 2000, seed: 1 },
        },
      ],
    }),
  });
  if (!seeded.ok) throw new Error(`seeding failed: ${seeded.status}`);
  const prepared = prepareFrom({
    operation: 'list-unhealthy-tests',
    'api-url': emulator.url,
    'api-token': token,
    'org-url-slug': 'acme',
    'fail-on': 'broken',
  });
  const result = await startPrepared(prepared, contextOf({ repo, trigger: 'schedule' }), {
    baseUrl: emulator.url,
    token,
    deadlineMs: 120_000,
  });
  const markdown = result.summary!.toString();
  writeFileSync(out, markdown);
  console.log(`${out}: ${Buffer.byteLength(markdown)} bytes; ${result.failure ?? 'no failure'}`);
} finally {
  await emulator.close();
}

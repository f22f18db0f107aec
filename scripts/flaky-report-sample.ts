// Writes the nightly report's summary for a 10,000-test fixture (5,000 flaky and 5,000 broken, generated:
// the most the emulator makes of one status), with fail-on: broken, as the action writes it:
//   node --import tsx scripts/flaky-report-sample.ts docs/images/flaky-report.md
// then render it as GitHub does (GFM + mermaid in Chromium) with the shared summary renderer.
import { writeFileSync } from 'node:fs';
import { FIXTURE_LIMITS } from '../emulator/flaky-tests/fixture.js';
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
          generate: {
            flaky: FIXTURE_LIMITS.generatedPerStatus,
            broken: FIXTURE_LIMITS.generatedPerStatus,
            seed: 1,
          },
        },
      ],
    }),
  });
  if (!seeded.ok) throw new Error(`seeding failed: ${seeded.status} ${await seeded.text()}`);
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

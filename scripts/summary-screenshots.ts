// `npm run screenshots`: the README's pictures of job summaries, made from real runs. Starts the emulator,
// runs the built action (dist/) once per use as the runner would, renders the summary markdown each run
// wrote (GitHub-flavoured markdown with marked, mermaid diagrams with mermaid) in Debian's headless
// Chromium, and writes docs/screenshots/<use>.png. Needs `npm run bundle` first and /usr/bin/chromium
// (apt-get install chromium), or CHROMIUM=<path>.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { marked } from 'marked';
import { chromium } from 'playwright-core';
import { runBuiltAction, type ActionRun } from '../__tests__/helpers/action-runner.js';
import { example } from '../__tests__/helpers/webhook-examples.js';
import { startEmulator, type Emulator } from '../emulator/server.js';

const TOKEN = 'screenshot-token';
const OUT_DIR = 'docs/screenshots';
// About the width of the job summary pane on github.com.
const WIDTH = 1012;

const payload = example('pull_request', (p) => p.action === 'opened');
const [owner, name] = payload.repository.full_name.split('/') as [string, string];
const repo = { host: 'github.com', owner, name };
const base = payload.pull_request.base.ref;
const env = { GITHUB_REPOSITORY: `${owner}/${name}` };

async function control(emulator: Emulator, path: string, body: unknown): Promise<void> {
  const response = await fetch(`${emulator.origin}/_emulator${path}`, {
    method: 'POST',
    headers: { 'x-api-token': TOKEN, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
}

/** Each use of the README, as a run of the built action whose summary is the picture. */
async function runUses(emulator: Emulator): Promise<Record<string, ActionRun>> {
  const common = { 'api-url': emulator.url, 'api-token': TOKEN };
  await control(emulator, '/queues', { repo, targetBranch: base, concurrency: 2 });
  await control(emulator, '/flaky-tests', {
    repositories: [{ repo, org_url_slug: 'acme', generate: { flaky: 6, broken: 2, healthy: 20, seed: 7 } }],
  });

  const runs: Record<string, ActionRun> = {};
  runs['submit-pull-request'] = await runBuiltAction({
    eventName: 'pull_request',
    payload,
    env,
    inputs: {
      ...common,
      operation: 'submit-pull-request',
      'wait-for': 'merged',
      'wait-timeout-minutes': '5',
      'poll-interval-seconds': '1',
    },
  });

  const targets = join(tmpdir(), `impacted-targets-${process.pid}.txt`);
  writeFileSync(targets, ['//services/payments', '//services/checkout', '//libs/money'].join('\n'));
  runs['set-impacted-targets'] = await runBuiltAction({
    eventName: 'pull_request',
    payload: { ...payload, pull_request: { ...payload.pull_request, number: 7 } },
    env,
    inputs: { ...common, operation: 'set-impacted-targets', 'impacted-targets-file': targets },
  });

  runs['pause-queue'] = await runBuiltAction({
    eventName: 'workflow_dispatch',
    payload: {},
    env,
    inputs: { ...common, operation: 'pause-queue', 'target-branch': base },
  });

  runs['list-unhealthy-tests'] = await runBuiltAction({
    eventName: 'schedule',
    payload: {},
    env,
    inputs: { ...common, operation: 'list-unhealthy-tests', 'org-url-slug': 'acme' },
  });
  return runs;
}

/** A page that looks like a GitHub job summary: the markdown as GitHub renders it, in its type and colours. */
function page(markdown: string, mermaidScript: string): string {
  const body = marked
    .parse(markdown, { gfm: true, async: false })
    .replace(
      /<pre><code class="language-mermaid">([\s\S]*?)<\/code><\/pre>/g,
      '<pre class="mermaid">$1</pre>',
    );
  return `<!doctype html><html><head><meta charset="utf-8"><style>
  body { margin: 0; background: #fff; }
  .summary { box-sizing: border-box; width: ${WIDTH}px; padding: 16px 24px; color: #1f2328;
    font: 14px/1.5 -apple-system, BlinkMacSystemFont, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; }
  h1, h2, h3 { font-weight: 600; line-height: 1.25; margin: 16px 0 12px; }
  h2 { font-size: 1.5em; padding-bottom: .3em; border-bottom: 1px solid #d1d9e0; }
  h3 { font-size: 1.25em; }
  table { border-collapse: collapse; margin: 0 0 16px; display: block; width: max-content; max-width: 100%;
    overflow: auto; }
  th, td { border: 1px solid #d1d9e0; padding: 6px 13px; }
  tr:nth-child(2n) { background: #f6f8fa; }
  th { font-weight: 600; }
  code { font: 85% ui-monospace, SFMono-Regular, Menlo, monospace; background: #eff1f3; padding: .2em .4em;
    border-radius: 6px; }
  a { color: #0969da; text-decoration: none; }
  details { margin: 0 0 16px; } summary { cursor: pointer; }
  blockquote { margin: 0 0 16px; padding: 0 1em; color: #59636e; border-left: .25em solid #d1d9e0; }
  pre.mermaid { background: none; text-align: center; }
  </style></head><body><div class="summary">${body}</div>
  <script>${mermaidScript}</script>
  <script>
    mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', theme: 'default' });
    window.rendered = mermaid.run({ querySelector: 'pre.mermaid' }).then(() => true);
  </script></body></html>`;
}

const mermaidScript = readFileSync('node_modules/mermaid/dist/mermaid.min.js', 'utf8');
const emulator = await startEmulator({ token: TOKEN, timeScale: 600, seed: 1 });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
try {
  const runs = await runUses(emulator);
  mkdirSync(OUT_DIR, { recursive: true });
  const context = await browser.newContext({ viewport: { width: WIDTH, height: 600 }, deviceScaleFactor: 1 });
  // The page is self-contained: nothing may leave the machine.
  await context.route('**/*', (route) =>
    route.request().url().startsWith('data:') ? route.continue() : route.abort(),
  );
  for (const [use, run] of Object.entries(runs)) {
    if (!run.summary.trim()) throw new Error(`${use} wrote no summary (failed: ${run.failed}):\n${run.log}`);
    const browserPage = await context.newPage();
    await browserPage.setContent(page(run.summary, mermaidScript), { waitUntil: 'load' });
    await browserPage.waitForFunction(
      () => (globalThis as unknown as { rendered?: Promise<boolean> }).rendered,
    );
    await browserPage.evaluate(() => (globalThis as unknown as { rendered: Promise<boolean> }).rendered);
    const file = `${OUT_DIR}/${use}.png`;
    await browserPage.locator('.summary').screenshot({ path: file });
    await browserPage.close();
    console.log(`${file}: the summary of ${use} (failed: ${run.failed})`);
  }
} finally {
  await browser.close();
  await emulator.close();
}

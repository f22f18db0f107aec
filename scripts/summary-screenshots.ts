// `npm run screenshots`: the README's pictures of job summaries, made from real runs. Starts the emulator,
// runs the built action (dist/) once per use as the runner would, draws the summary each run wrote as
// GitHub does (the renderer the tests use: GFM, then mermaid, in Debian's headless Chromium), and writes
// docs/screenshots/<use>.png. Fails when a summary has a broken table or a chart that does not draw. Needs
// `npm run bundle` first and /usr/bin/chromium (apt-get install chromium), or CHROMIUM_PATH=<path>.
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBuiltAction, type ActionRun } from '../__tests__/helpers/action-runner.js';
import { launchChromium } from '../__tests__/helpers/chromium.js';
import { SummaryRenderer } from '../__tests__/helpers/render-summary.js';
import { example } from '../__tests__/helpers/webhook-examples.js';
import { startEmulator, type Emulator } from '../emulator/server.js';

const TOKEN = 'screenshot-token';
const OUT_DIR = 'docs/screenshots';

const payload = example('pull_request', (p) => p.action === 'opened');
const [owner, name] = payload.repository.full_name.split('/') as [string, string];
const repo = { host: 'github.com', owner, name };
const base = payload.pull_request.base.ref;
const env = { GITHUB_REPOSITORY: `${owner}/${name}` };

const control = (emulator: Emulator, path: string, body: unknown) =>
  post(`${emulator.origin}/_emulator${path}`, body);
const api = (emulator: Emulator, path: string, body: unknown) => post(`${emulator.url}${path}`, body);

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'x-api-token': TOKEN, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
}

/** Each use of the README, as a run of the built action whose summary is the picture. */
async function runUses(emulator: Emulator): Promise<Record<string, ActionRun>> {
  const common = { 'api-url': emulator.url, 'api-token': TOKEN };
  await control(emulator, '/queues', { repo, targetBranch: base, concurrency: 2 });
  await control(emulator, '/flaky-tests', {
    repositories: [{ repo, org_url_slug: 'acme', generate: { flaky: 6, broken: 2, healthy: 20, seed: 7 } }],
  });

  // Two PRs ahead and 10-minute CI runs, so that the timeline has a wait and a test run to draw.
  await control(emulator, '/ci', { outcome: 'pass', durationMinutes: 10 });
  for (const number of [901, 902]) {
    await api(emulator, '/submitPullRequest', { repo, targetBranch: base, pr: { number } });
  }
  // The PR as GitHub describes it in the event: the summary shows the event's title and head sha.
  await post(`${emulator.origin}/_emulator/github/events`, payload, { 'x-github-event': 'pull_request' });
  const submitAndWait = (number: number) =>
    runBuiltAction({
      eventName: 'pull_request',
      payload: { ...payload, pull_request: { ...payload.pull_request, number } },
      env,
      inputs: {
        ...common,
        operation: 'submit-pull-request',
        'wait-for': 'merged',
        'wait-timeout-minutes': '5',
        'poll-interval-seconds': '2',
      },
    });
  const runs: Record<string, ActionRun> = {};
  runs['submit-pull-request'] = await submitAndWait(payload.pull_request.number);

  const failing = 903;
  await control(emulator, '/pull-requests', {
    repo,
    number: failing,
    title: 'Upgrade webpack to v6',
    headSha: '5e1f0c9a7b3d2e4f6a8b0c1d3e5f7a9b1c3d5e7f',
  });
  await control(emulator, '/ci', { repo, prNumber: failing, outcome: 'fail', durationMinutes: 12 });
  runs['submit-pull-request-failed'] = await submitAndWait(failing);

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

const emulator = await startEmulator({ token: TOKEN, timeScale: 60, seed: 1 });
const browser = await launchChromium();
try {
  const runs = await runUses(emulator);
  mkdirSync(OUT_DIR, { recursive: true });
  const renderer = await SummaryRenderer.open(browser);
  let broken = 0;
  for (const [use, run] of Object.entries(runs)) {
    if (!run.summary.trim()) throw new Error(`${use} wrote no summary (failed: ${run.failed}):\n${run.log}`);
    const file = `${OUT_DIR}/${use}.png`;
    const rendered = await renderer.render(run.summary, { pngPath: file, title: `${use} summary` });
    const problems = [...rendered.problems, ...rendered.charts.filter(Boolean)];
    broken += problems.length;
    console.log(
      `${file}: the summary of ${use} (failed: ${run.failed})${problems.map((p) => `\n  ${p}`).join('')}`,
    );
  }
  if (broken) process.exitCode = 1;
} finally {
  await browser.close();
  await emulator.close();
}

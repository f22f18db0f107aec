// `npm run screenshots`: pictures of what a person sees, made from real runs. Starts the emulator, runs
// the built action (dist/) once per use as the runner would, draws the summary each run wrote as GitHub
// does (the renderer the tests use: GFM, then mermaid, in Debian's headless Chromium), and writes
// docs/screenshots/<use>.png; then the nightly report at 10,000 tests, the gate's annotations and log, the
// Slack message with its phone notification, the PR comment, and the emulator's page in four states
// (empty, PRs testing with a line, a failure, merges done). Fails when a summary has a broken table, a
// chart that does not draw, or anything a reader stumbles on (a literal \n, an ISO time or "unknown" in a
// cell, overlapping chart labels, a raw enum code shown as text on the page), or when the nightly report
// is over 200 KiB. Needs `npm run bundle`
// first and /usr/bin/chromium (apt-get install chromium), or CHROMIUM_PATH=<path>.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBuiltAction, type ActionRun } from '../__tests__/helpers/action-runner.js';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../__tests__/helpers/chromium.js';
import { GitHubApi } from '../__tests__/helpers/github-api.js';
import { SummaryRenderer } from '../__tests__/helpers/render-summary.js';
import { FIXTURE_LIMITS } from '../emulator/flaky-tests/fixture.js';
import { annotationsPage, slackPage } from './output-pages.js';
import { drawEmulatorPage } from './emulator-page-screenshots.js';
import { example } from '../__tests__/helpers/webhook-examples.js';
import { startEmulator, type Emulator } from '../emulator/server.js';

const TOKEN = 'screenshot-token';
const GITHUB_TOKEN = 'screenshot-github-token';
const OUT_DIR = 'docs/screenshots';
const NIGHTLY_BYTES = 200 * 1024;

const payload = example('pull_request', (p) => p.action === 'opened');
const [owner, name] = payload.repository.full_name.split('/') as [string, string];
const repo = { host: 'github.com', owner, name };
const base = payload.pull_request.base.ref;
const env = { GITHUB_REPOSITORY: `${owner}/${name}` };
/** The organization whose nightly report lists 10,000 tests. */
const nightlyRepo = { host: 'github.com', owner, name: 'storefront' };

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
async function runUses(emulator: Emulator, github: GitHubApi): Promise<Record<string, ActionRun>> {
  const common = { 'api-url': emulator.url, 'api-token': TOKEN };
  await seedUses(emulator);

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

  runs['submit-pull-request-failed'] = await failedPullRequestUse(emulator, github);

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
  return { ...runs, ...(await moreUses(emulator)) };
}

/** The queue, and the flaky tests of two repositories: a few, and the nightly report's 10,000. */
async function seedUses(emulator: Emulator): Promise<void> {
  await control(emulator, '/queues', { repo, targetBranch: base, concurrency: 2 });
  const most = FIXTURE_LIMITS.generatedPerStatus;
  await control(emulator, '/flaky-tests', {
    repositories: [
      { repo, org_url_slug: 'acme', generate: { flaky: 6, broken: 2, healthy: 20, seed: 7 } },
      {
        repo: nightlyRepo,
        org_url_slug: 'acme',
        auto_quarantine: true,
        generate: { flaky: most, broken: most, seed: 1 },
      },
    ],
  });
}

/** A PR whose CI fails, submitted and waited for, with a PR comment on its failure. */
async function failedPullRequestUse(emulator: Emulator, github: GitHubApi): Promise<ActionRun> {
  const failing = 903;
  await control(emulator, '/pull-requests', {
    repo,
    number: failing,
    title: 'Upgrade webpack to v6',
    // The event's own head: a real failed run tests the commit it was started for (another sha would add
    // a head-sha warning that only this picture's setup made).
    headSha: payload.pull_request.head.sha,
  });
  await control(emulator, '/ci', { repo, prNumber: failing, outcome: 'fail', durationMinutes: 12 });
  const run = await runBuiltAction({
    eventName: 'pull_request',
    payload: { ...payload, pull_request: { ...payload.pull_request, number: failing } },
    env: { ...env, GITHUB_API_URL: github.url },
    inputs: {
      'api-url': emulator.url,
      'api-token': TOKEN,
      operation: 'submit-pull-request',
      'wait-for': 'merged',
      'wait-timeout-minutes': '5',
      'poll-interval-seconds': '2',
      'notify-on': 'failure',
      'notify-pr-comment': 'true',
      'github-token': GITHUB_TOKEN,
    },
  });
  if (run.summary.includes('not this run'))
    throw new Error('the failed example warns of a head sha it set up');
  return run;
}

/** The nightly report at 10,000 tests, the gate over a test report, a queue's settings and its metrics. */
async function moreUses(emulator: Emulator): Promise<Record<string, ActionRun>> {
  const common = { 'api-url': emulator.url, 'api-token': TOKEN };
  const runs: Record<string, ActionRun> = {};
  runs['nightly-report-10k'] = await runBuiltAction({
    eventName: 'schedule',
    payload: {},
    env: { GITHUB_REPOSITORY: `${nightlyRepo.owner}/${nightlyRepo.name}` },
    inputs: { ...common, operation: 'list-unhealthy-tests', 'org-url-slug': 'acme', 'fail-on': 'broken' },
  });
  const checkout = mkdtempSync(join(tmpdir(), 'screenshot-checkout-'));
  mkdirSync(join(checkout, 'reports'));
  writeFileSync(join(checkout, 'reports', 'junit.xml'), JUNIT_REPORT);
  runs['check-test-results'] = await runBuiltAction({
    eventName: 'pull_request',
    payload,
    env,
    inputs: {
      ...common,
      operation: 'check-test-results',
      'org-url-slug': 'acme',
      'junit-paths': 'reports/*.xml',
      'checkout-dir': checkout,
    },
  });
  runs['update-queue'] = await runBuiltAction({
    eventName: 'workflow_dispatch',
    payload: {},
    env,
    inputs: { ...common, operation: 'update-queue', 'target-branch': base, concurrency: '3' },
  });
  runs['get-merge-queue-metrics'] = await runBuiltAction({
    eventName: 'workflow_dispatch',
    payload: {},
    env,
    inputs: { ...common, operation: 'get-merge-queue-metrics', 'target-branch': base },
  });
  return runs;
}

/** Three failures, one with a message of several lines, as a test runner writes them. */
const JUNIT_REPORT = [
  '<testsuite name="checkout">',
  '<testcase classname="CartService" name="expires the cart after a timeout" file="src/cart.test.js"><failure message="expected 3 items">expect(received).toBe(expected)\n\nExpected: 3\nReceived: 2</failure></testcase>',
  '<testcase classname="SessionService" name="expires the session" file="src/session.test.js"><failure message="first attempt&#10;second line of the message"/></testcase>',
  '<testcase classname="tests.checkout" name="test_refund" file="tests/checkout/test_cart.py"><failure message="AssertionError: assert 503 == 200"/></testcase>',
  '<testcase classname="CartService" name="adds an item" file="src/cart.test.js"/>',
  '</testsuite>',
].join('');

/** Draws every run's summary and the other outputs; answers how many problems a reader would meet. */
async function drawAll(
  renderer: SummaryRenderer,
  runs: Record<string, ActionRun>,
  github: GitHubApi,
): Promise<number> {
  let broken = 0;
  const report = (file: string, what: string, problems: string[]) => {
    broken += problems.length;
    console.log(`${file}: ${what}${problems.map((p) => `\n  ${p}`).join('')}`);
  };
  for (const [use, run] of Object.entries(runs)) {
    if (!run.summary.trim()) throw new Error(`${use} wrote no summary (failed: ${run.failed}):\n${run.log}`);
    const file = `${OUT_DIR}/${use}.png`;
    const rendered = await renderer.render(run.summary, { pngPath: file, title: `${use} summary` });
    const problems = [...rendered.problems, ...rendered.reading, ...rendered.charts.filter(Boolean)];
    const bytes = Buffer.byteLength(run.summary);
    if (use === 'nightly-report-10k' && bytes > NIGHTLY_BYTES) problems.push(`${bytes} bytes, over 200 KiB`);
    report(file, `the summary of ${use} (failed: ${run.failed}, ${bytes} bytes)`, problems);
  }
  for (const use of ['check-test-results', 'submit-pull-request-failed']) {
    const file = `${OUT_DIR}/${use}-annotations.png`;
    const problems = await renderer.renderPage(
      annotationsPage(runs[use]!.log, `${use}: annotations and log`),
      file,
    );
    report(file, `the annotations and log of ${use}`, problems);
  }
  const notification = runs['submit-pull-request-failed']!.outputs.notification;
  if (!notification) throw new Error('the failed PR sent no notification');
  const slack = `${OUT_DIR}/slack.png`;
  report(slack, 'the Slack message', await renderer.renderPage(slackPage(JSON.parse(notification)), slack));
  const comment = github.comments[0]?.body;
  if (!comment) throw new Error('the failed PR wrote no comment');
  const commentFile = `${OUT_DIR}/pr-comment.png`;
  const drawn = await renderer.render(comment, { pngPath: commentFile, title: 'PR comment' });
  report(commentFile, 'the PR comment', [...drawn.problems, ...drawn.reading]);
  return broken;
}

/** The emulator's page in its four states; answers how many problems a reader would meet. */
async function drawPageStates(browser: Browser): Promise<number> {
  let broken = 0;
  for (const { file, problems } of await drawEmulatorPage(browser, OUT_DIR)) {
    broken += problems.length;
    console.log(`${file}: the emulator's page${problems.map((p) => `\n  ${p}`).join('')}`);
  }
  return broken;
}

const emulator = await startEmulator({ token: TOKEN, timeScale: 60, seed: 1 });
const github = new GitHubApi(GITHUB_TOKEN);
await github.start();
const browser = await launchChromium();
try {
  const runs = await runUses(emulator, github);
  mkdirSync(OUT_DIR, { recursive: true });
  const renderer = await SummaryRenderer.open(browser);
  const broken = (await drawAll(renderer, runs, github)) + (await drawPageStates(browser));
  if (broken) process.exitCode = 1;
} finally {
  await browser.close();
  await github.stop();
  await emulator.close();
}

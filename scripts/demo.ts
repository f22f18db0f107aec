// `npm run demo`: the product working end to end on one machine. Starts the emulator, creates a queue,
// then runs the built action exactly as the runner would (node dist/index.js, INPUT_* variables, a real
// pull_request payload, files for outputs and the summary) to submit a PR and wait until it merges.
// Then the parallel-queue rehearsal (scripts/demo-parallel.ts): targets computed from three PRs' changes.
// `npm run demo -- --keep` keeps the emulator and its page running afterwards, until Ctrl-C.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runBuiltAction } from '../__tests__/helpers/action-runner.js';
import { chromiumAvailable } from '../__tests__/helpers/chromium.js';
import { renderSummary, summaryHtml } from '../__tests__/helpers/render-summary.js';
import { example } from '../__tests__/helpers/webhook-examples.js';
import { startEmulator } from '../emulator/server.js';
import { formatDuration } from '../src/core/report/duration.js';
import { rehearseParallelQueue } from './demo-parallel.js';
import { plural } from '../src/core/report/words.js';

const TOKEN = 'demo-token';
// Virtual time runs this many times faster than real time, so that CI "takes" minutes in a second or two.
const TIME_SCALE = 300;
const keep = process.argv.includes('--keep');

const payload = example('pull_request', (p) => p.action === 'opened');
const [owner, name] = payload.repository.full_name.split('/') as [string, string];
const base = payload.pull_request.base.ref;

const emulator = await startEmulator({ token: TOKEN, timeScale: TIME_SCALE });
try {
  console.log(
    `Watch the queue: ${emulator.origin}/#token=${TOKEN} (open it now: the page lives as long as the demo${keep ? ', kept running after it by --keep' : '; `npm run demo -- --keep` keeps it running afterwards'})`,
  );
  console.log(
    `The emulator's clock runs ${TIME_SCALE}x real time: the queue's times below (the summary's "Merged after", its chart) are the emulator's minutes, while the log's "waited Ns of 2m" is this machine's seconds against wait-timeout-minutes: 2.`,
  );
  console.log(`Emulator: ${emulator.url} (token ${TOKEN})`);
  // The PR as GitHub describes it in the event, so that the summary shows the event's sha, title, author.
  const seeded = await fetch(`${emulator.origin}/_emulator/github/events`, {
    method: 'POST',
    headers: { 'x-api-token': TOKEN, 'content-type': 'application/json', 'x-github-event': 'pull_request' },
    body: JSON.stringify(payload),
  });
  if (!seeded.ok) throw new Error(`seeding the PR from the event: ${seeded.status} ${await seeded.text()}`);
  const created = await fetch(`${emulator.url}/createQueue`, {
    method: 'POST',
    headers: { 'x-api-token': TOKEN, 'content-type': 'application/json' },
    body: JSON.stringify({ repo: { host: 'github.com', owner, name }, targetBranch: base, concurrency: 1 }),
  });
  console.log(`Queue for ${owner}/${name}@${base}: createQueue answered ${created.status}`);
  // Two PRs ahead in line and 10-minute CI runs, so that the progress lines have a place in line to tell.
  await fetch(`${emulator.origin}/_emulator/ci`, {
    method: 'POST',
    headers: { 'x-api-token': TOKEN, 'content-type': 'application/json' },
    body: JSON.stringify({ outcome: 'pass', durationMinutes: 10 }),
  });
  for (const number of [901, 902]) {
    await fetch(`${emulator.url}/submitPullRequest`, {
      method: 'POST',
      headers: { 'x-api-token': TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({ repo: { host: 'github.com', owner, name }, targetBranch: base, pr: { number } }),
    });
  }
  console.log(`Running the action on PR #${payload.pull_request.number} (pull_request "opened")...\n`);

  const started = Date.now();
  const result = await runBuiltAction({
    eventName: 'pull_request',
    payload,
    env: { GITHUB_REPOSITORY: `${owner}/${name}` },
    inputs: {
      operation: 'submit-pull-request',
      'api-url': emulator.url,
      'api-token': TOKEN,
      'wait-for': 'merged',
      'wait-timeout-minutes': '2',
      'poll-interval-seconds': '1',
      'progress-interval-seconds': '1',
      summary: 'true',
    },
  });

  const elapsedMs = Date.now() - started;
  console.log('--- log ---');
  console.log(result.log.trim());
  console.log('\n--- outputs ---');
  for (const [key, value] of Object.entries(result.outputs)) {
    console.log(`${key}: ${value.length > 120 ? `${value.slice(0, 120)}…` : value}`);
  }
  console.log('\n--- job summary ---');
  console.log(result.summary.trim());
  const out = join('.tmp', 'demo');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'summary.md'), result.summary);
  writeFileSync(join(out, 'summary.html'), summaryHtml(result.summary, 'demo summary'));
  if (chromiumAvailable()) {
    const rendered = await renderSummary(result.summary, {
      pngPath: join(out, 'summary.png'),
      title: 'demo summary',
    });
    const failed = rendered.charts.filter(Boolean).length;
    console.log(
      `\nRendered as GitHub renders it: ${join(out, 'summary.png')} (${plural(rendered.charts.length, 'chart')}, ${failed} failed; ${plural(rendered.problems.length, 'problem')}); markdown in ${join(out, 'summary.md')}.`,
    );
    if (failed || rendered.problems.length) process.exitCode = 1;
  } else {
    console.log(
      `\nSummary written to ${join(out, 'summary.md')} and ${join(out, 'summary.html')} (no chromium for a screenshot).`,
    );
  }
  if (result.outputs.state !== 'MERGED') {
    console.error(`\nThe PR did not reach MERGED (exit code ${result.exitCode}).`);
    process.exitCode = 1;
  } else {
    console.log(
      `\nPR #${payload.pull_request.number} reached MERGED: the step took ${formatDuration(elapsedMs)} of real time; the summary's times are the emulator's (${TIME_SCALE}x fast).`,
    );
  }
  if (keep) {
    console.log(`\nThe emulator keeps running: ${emulator.origin}/#token=${TOKEN}. Ctrl-C ends it.`);
    await new Promise((resolve) => process.once('SIGINT', resolve));
  }
} finally {
  await emulator.close();
}

if (!(await rehearseParallelQueue())) process.exitCode = 1;

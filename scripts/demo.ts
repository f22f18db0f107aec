// `npm run demo`: the product working end to end on one machine. Starts the emulator, creates a queue,
// then runs the built action exactly as the runner would (node dist/index.js, INPUT_* variables, a real
// pull_request payload, files for outputs and the summary) to submit a PR and wait until it merges.
// Then the parallel-queue rehearsal (scripts/demo-parallel.ts): targets computed from three PRs' changes.
import { runBuiltAction } from '../__tests__/helpers/action-runner.js';
import { example } from '../__tests__/helpers/webhook-examples.js';
import { startEmulator } from '../emulator/server.js';
import { rehearseParallelQueue } from './demo-parallel.js';

const TOKEN = 'demo-token';
// Virtual time runs this many times faster than real time, so that CI "takes" minutes in a second or two.
const TIME_SCALE = 300;

const payload = example('pull_request', (p) => p.action === 'opened');
const [owner, name] = payload.repository.full_name.split('/') as [string, string];
const base = payload.pull_request.base.ref;

const emulator = await startEmulator({ token: TOKEN, timeScale: TIME_SCALE });
try {
  console.log(`Watch the queue: ${emulator.origin}/#token=${TOKEN}`);
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
    body: JSON.stringify({ repo: { host: 'github.com', owner, name }, targetBranch: base, concurrency: 2 }),
  });
  console.log(`Queue for ${owner}/${name}@${base}: createQueue answered ${created.status}`);
  console.log(`Running the action on PR #${payload.pull_request.number} (pull_request "opened")...\n`);

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
      summary: 'true',
    },
  });

  console.log('--- log ---');
  console.log(result.log.trim());
  console.log('\n--- outputs ---');
  for (const [key, value] of Object.entries(result.outputs)) {
    console.log(`${key}: ${value.length > 120 ? `${value.slice(0, 120)}…` : value}`);
  }
  console.log('\n--- job summary ---');
  console.log(result.summary.trim());
  if (result.outputs.state !== 'MERGED') {
    console.error(`\nThe PR did not reach MERGED (exit code ${result.exitCode}).`);
    process.exitCode = 1;
  } else {
    console.log(`\nPR #${payload.pull_request.number} reached MERGED.`);
  }
} finally {
  await emulator.close();
}

if (!(await rehearseParallelQueue())) process.exitCode = 1;

// `npm run screenshots:cli`: the CLI as a person sees it in a terminal, for the README. Starts the
// emulator, seeds a queue, PRs and flaky tests, runs the built CLI (dist/cli/index.js) in a tmux
// terminal of 120x40 for each operation below, captures the pane with its colours, and draws each
// capture as docs/screenshots/cli-<operation>.png in Debian's headless Chromium. Needs `npm run bundle`
// first, tmux and /usr/bin/chromium (apt-get install tmux chromium), or CHROMIUM_PATH=<path>.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { chromiumAvailable, launchChromium } from '../__tests__/helpers/chromium.js';
import { glyphProblems } from '../__tests__/helpers/render-summary.js';
import { startEmulator, type Emulator } from '../emulator/server.js';
import { ansiToHtml } from './terminal-html.js';

const TOKEN = 'screenshot-token';
const OUT_DIR = 'docs/screenshots';
const CLI = resolve('dist/cli/index.js');
const SESSION = `cli-shots-${process.pid}`;
const repo = { host: 'github.com', owner: 'acme', name: 'widgets' };

const SHOTS: { name: string; command: string; timeoutMs?: number }[] = [
  // Piped, so that the page is printed as it is rather than held in a pager.
  { name: 'help', command: 'merge-queue-action cancel-pull-request --help | head -32' },
  { name: 'get-queue', command: 'merge-queue-action get-queue' },
  {
    name: 'get-submitted-pull-request',
    command: 'merge-queue-action get-submitted-pull-request --pr-number 24',
  },
  {
    name: 'compute-impacted-targets',
    command:
      'merge-queue-action compute-impacted-targets --targets-config targets.yml --changed-files-file changed.txt',
  },
  {
    name: 'lint-impacted-targets-config',
    command: 'merge-queue-action lint-impacted-targets-config --targets-config targets.yml',
  },
  {
    name: 'check-test-results',
    command: "merge-queue-action check-test-results --org-url-slug acme --junit-paths 'reports/*.xml'",
  },
  {
    name: 'submit-pull-request',
    command:
      'merge-queue-action submit-pull-request --pr-number 40 --wait-for merged --poll-interval-seconds 2 --progress-interval-seconds 6',
    timeoutMs: 180_000,
  },
];

async function post(url: string, body: unknown): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'x-api-token': TOKEN, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

/** A queue with PRs in line (two testing, two pending), slow CI, and a repository's flaky tests. */
async function seed(emulator: Emulator): Promise<void> {
  const control = (path: string, body: unknown) => post(`${emulator.origin}/_emulator${path}`, body);
  await control('/queues', { repo, targetBranch: 'main', concurrency: 2 });
  await control('/ci', { outcome: 'pass', durationMinutes: 25 });
  const titles: Record<number, string> = {
    21: 'Payments: retry a declined card once',
    22: 'Checkout: show the delivery date',
    23: 'Bump the Go toolchain to 1.23',
    24: 'Search: rank exact matches first',
    40: 'Widgets: spin faster on slow devices',
  };
  for (const [number, title] of Object.entries(titles)) {
    await control('/pull-requests', {
      repo,
      number: Number(number),
      title,
      headSha: `${number}c0ffee`.padEnd(40, '0'),
    });
  }
  for (const number of [21, 22, 23, 24]) {
    await post(`${emulator.url}/submitPullRequest`, { repo, targetBranch: 'main', pr: { number } });
  }
  await control('/flaky-tests', {
    repositories: [{ repo, org_url_slug: 'acme', generate: { flaky: 6, broken: 2, healthy: 20, seed: 7 } }],
  });
}

/** A checkout with a targets config, a list of changed files and a JUnit report with three failures. */
/** The checkout as git has it (what lint-impacted-targets-config reads): these files, committed. */
function commitFiles(dir: string, files: string[]): void {
  for (const file of files) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), '');
  }
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('-c', 'user.name=shots', '-c', 'user.email=shots@example.com', 'commit', '-qm', 'checkout');
}

async function checkout(emulator: Emulator): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'cli-shots-'));
  writeFileSync(
    join(dir, 'targets.yml'),
    `version: 1
inert: ['**/*.md']
rules:
  - name: service
    match: services/{name}/**
    targets: ['svc:{name}']
  - name: shared library
    match: libs/{lib}/**
    targets: ['lib:{lib}']
groups:
  lib:money: ['svc:payments', 'svc:checkout']
`,
  );
  writeFileSync(
    join(dir, 'changed.txt'),
    ['services/payments/retry.go', 'services/payments/retry_test.go', 'libs/money/round.go', 'README.md']
      .map((line) => `${line}\n`)
      .join(''),
  );
  commitFiles(dir, [
    'services/payments/retry.go',
    'services/checkout/cart.go',
    'services/search/rank.go',
    'libs/money/round.go',
    'README.md',
    'Makefile',
    'tools/release.sh',
  ]);
  // Failures the service knows (one quarantined, one flaky) beside one it does not.
  const base = { repo, org_url_slug: 'acme', page_query: { page_size: 50 } };
  const quarantined = (await post(`${emulator.url}/flaky-tests/list-quarantined-tests`, base)) as {
    quarantined_tests: { name: string; variant?: string }[];
  };
  const flaky = (await post(`${emulator.url}/flaky-tests/list-unhealthy-tests`, {
    ...base,
    status: 'FLAKY',
  })) as { tests: { name: string; variant?: string }[] };
  const known = [quarantined.quarantined_tests[0], flaky.tests.find((t) => !t.variant)].filter(Boolean);
  const cases = [
    ...known.map(
      (test) => `<testcase name="${escapeXml(test!.name)}"><failure message="timeout"/></testcase>`,
    ),
    '<testcase name="charges the card once" classname="PaymentsRetry" file="services/payments/retry_test.go"><failure message="charged twice">charged twice</failure></testcase>',
    ...Array.from({ length: 40 }, (_, i) => `<testcase name="passes ${i}" classname="PaymentsRetry"/>`),
  ];
  mkdirSync(join(dir, 'reports'));
  writeFileSync(
    join(dir, 'reports', 'junit.xml'),
    `<testsuites><testsuite name="payments">${cases.join('')}</testsuite></testsuites>`,
  );
  return dir;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-L', SESSION, ...args], { encoding: 'utf8' });
}

/** A 120x40 terminal running bash with only the variables a laptop user would export. */
function openTerminal(emulator: Emulator, cwd: string): void {
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: cwd,
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    PS1: '$ ',
    MERGE_QUEUE_API_URL: emulator.url,
    MERGE_QUEUE_API_TOKEN: TOKEN,
    MERGE_QUEUE_REPO: 'acme/widgets',
    MERGE_QUEUE_TARGET_BRANCH: 'main',
  };
  const shell = [
    'env',
    '-i',
    ...Object.entries(env).map(([k, v]) => `${k}=${v}`),
    'bash',
    '--norc',
    '--noprofile',
  ];
  tmux('new-session', '-d', '-x', '120', '-y', '40', '-s', 'shots', '-c', cwd, ...shell);
  // `merge-queue-action` as `npx merge-queue-action` would run it: the built CLI.
  tmux('send-keys', '-t', 'shots', `merge-queue-action() { node ${CLI} "$@"; }`, 'Enter');
}

/** Runs a command in the terminal and answers the pane (with its colours) once the prompt is back. */
async function shoot(command: string, timeoutMs = 60_000): Promise<string> {
  tmux('send-keys', '-t', 'shots', 'clear', 'Enter');
  await sleep(300);
  tmux('clear-history', '-t', 'shots');
  tmux('send-keys', '-t', 'shots', command, 'Enter');
  const giveUp = Date.now() + timeoutMs;
  while (Date.now() < giveUp) {
    await sleep(500);
    const lines = tmux('capture-pane', '-p', '-t', 'shots').trimEnd().split('\n');
    if (lines.length > 2 && lines.at(-1) === '$') return tmux('capture-pane', '-e', '-p', '-t', 'shots');
  }
  throw new Error(`"${command}" did not end within ${timeoutMs / 1000}s`);
}

if (!chromiumAvailable()) throw new Error('No Chromium at /usr/bin/chromium: apt-get install chromium.');
if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run bundle\` first.`);
const emulator = await startEmulator({ token: TOKEN, timeScale: 60, seed: 1 });
const browser = await launchChromium();
let dir: string | undefined;
try {
  await seed(emulator);
  dir = await checkout(emulator);
  openTerminal(emulator, dir);
  mkdirSync(OUT_DIR, { recursive: true });
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  for (const shot of SHOTS) {
    const capture = await shoot(shot.command, shot.timeoutMs);
    await page.setContent(ansiToHtml(capture, `${shot.name} in a 120x40 terminal (tmux)`));
    const file = `${OUT_DIR}/cli-${shot.name}.png`;
    // A character no installed font has would be a box in the picture: stop instead.
    const boxes = await glyphProblems(page);
    if (boxes.length)
      throw new Error(`${file}: ${boxes.join('; ')} (apt-get install fonts-noto-color-emoji)`);
    await page.locator('.terminal').screenshot({ path: file });
    console.log(`${file}: ${shot.command}`);
  }
} finally {
  try {
    tmux('kill-server');
  } catch {
    // The terminal never opened.
  }
  if (dir) rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
  await browser.close();
  await emulator.close();
}

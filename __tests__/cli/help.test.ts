// The help a person reads (the built CLI): a short top page with the operations in groups, and for each
// operation USAGE, FLAGS and EXAMPLES whose every example runs as shown against the emulator (or, where it
// needs what only a real checkout or a real run has, at least reads as the command line it shows). Paged
// on a terminal, plain in a pipe or a CI job.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCommandLine } from '../../src/cli/args.js';
import { cliExamples, type CliExample, exampleArgs } from '../../src/cli/examples.js';
import { COMMON_INPUTS } from '../../src/core/common-inputs.js';
import { exampleInputs, type OperationExample } from '../../src/core/operations/example.js';
import { OPERATIONS, OPERATION_NAMES, type OperationName } from '../../src/core/operations/registry.js';
import { CLI, runCli } from '../helpers/cli-runner.js';
import { QueueDriver, TEST_TOKEN, useEmulator } from '../helpers/emulator.js';
import { prepareExampleWorld } from '../helpers/operation-samples.js';

const emulator = useEmulator();

/** Examples that need what the emulator cannot give a laptop run: an id the service made, a checkout. */
const READ_ONLY: Partial<Record<OperationName, string>> = {
  'get-verification-run': 'a run id the service made',
  'get-merge-queue-testing-details': 'a test run id the service made',
  'describe-merge-queue-run': 'a job on a merge-queue test branch',
  'compute-impacted-targets': 'a checkout with a targets config',
  'lint-impacted-targets-config': 'a checkout with a targets config',
  'get-test-details': 'a test id the service made',
  'link-ticket-to-test-case': 'a test id the service made',
};

const all = OPERATION_NAMES.flatMap((operation) =>
  cliExamples(operation).map((example, index) => ({ operation, example, index })),
);

describe('the top page', () => {
  it('lists every operation once under its group, in 80 columns, and is short', async () => {
    const run = await runCli(['--help']);
    expect(run.exitCode).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines.length).toBeLessThan(80);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    expect(lines).toContain('USAGE');
    const listed = new Map<string, string>();
    let nameLines = 0;
    for (const [at, heading] of lines.entries()) {
      if (!heading.endsWith(' OPERATIONS')) continue;
      const group = lines.slice(at + 1, lines.indexOf('', at));
      nameLines += group.length;
      for (const name of group.join(' ').trim().split(/,\s+/)) {
        expect(listed.has(name)).toBe(false);
        listed.set(name, heading);
      }
    }
    expect([...listed.keys()].sort()).toEqual([...OPERATION_NAMES].sort());
    for (const name of OPERATION_NAMES) {
      expect(listed.get(name)).toBe(`${OPERATIONS[name].area.replace(/-/g, ' ').toUpperCase()} OPERATIONS`);
    }
    // Names wrapped, not one a line: the page has room for the operations still to come.
    expect(nameLines).toBeLessThanOrEqual(OPERATION_NAMES.length / 2);
    // An input's description is its operation's page, not the top one.
    expect(run.stdout).not.toContain('--api-url');
  });

  it('shows examples of the rows, which run below as shown', async () => {
    const shown = (await runCli(['help'])).stdout.split('\n').filter((line) => line.startsWith('  $ '));
    expect(shown.length).toBeGreaterThan(0);
    const examples = all.map(({ operation, example }) => ['merge-queue-action', operation, ...example.args]);
    for (const line of shown) expect(examples).toContainEqual(asTheShellReadsIt(line.slice(4)));
  });
});

describe("an operation's page", () => {
  it.each(OPERATION_NAMES)('%s: USAGE, FLAGS, then EXAMPLES that show the examples', async (operation) => {
    const run = await runCli([operation, '--help']);
    expect(run.exitCode).toBe(0);
    const lines = run.stdout.split('\n');
    const usage = lines.indexOf('USAGE');
    const flags = lines.indexOf('FLAGS');
    const examples = lines.indexOf('EXAMPLES');
    expect(usage).toBeGreaterThan(0);
    expect(flags).toBeGreaterThan(usage);
    expect(examples).toBeGreaterThan(flags);
    expect(lines[usage + 1]).toBe(`  merge-queue-action ${operation} [flags]`);
    // What it does is here, not on the top page.
    expect(lines.slice(0, usage).join(' ').trim()).toBe(OPERATIONS[operation].summary);
    const shown = lines.filter((line) => line.startsWith('  $ '));
    expect(shown.map((line) => asTheShellReadsIt(line.slice(4)))).toEqual(
      cliExamples(operation).map(({ args }) => ['merge-queue-action', operation, ...args]),
    );
    for (const spec of OPERATIONS[operation].inputs) expect(run.stdout).toContain(`  --${spec.name}`);
  });
});

describe('every example reads as the command line it shows', () => {
  const declared = OPERATION_NAMES.flatMap((operation) =>
    OPERATIONS[operation].examples.map((example) => [operation, example.about, example] as const),
  );
  it.each(declared)('%s: %s', (operation, _, example) => {
    const line = parseCommandLine([operation, ...exampleArgs(example)]);
    expect(line.operation).toBe(operation);
    // What the CLI reads back is what the row declares, for the action and every other host alike.
    expect(line.inputs).toEqual(exampleInputs(example));
    expect(line.json).toBe(example.cli?.includes('--json') ?? false);
    expect(line.yes).toBe(example.cli?.includes('--yes') ?? false);
    const reads = new Map([...COMMON_INPUTS, ...OPERATIONS[operation].inputs].map((s) => [s.name, s]));
    for (const [name, value] of Object.entries(example.inputs ?? {})) {
      const spec = reads.get(name);
      expect(spec).toBeDefined();
      expect(typeof value === 'boolean').toBe(spec?.boolean === true);
      if (spec?.values) expect(spec.values).toContain(value);
      expect(spec?.secret).toBeFalsy();
    }
  });

  const spellings: [OperationName, OperationExample['inputs'], string[], Record<string, string>][] = [
    ['lint-impacted-targets-config', { strict: true }, ['--strict'], { strict: 'true' }],
    ['lint-impacted-targets-config', { strict: false }, ['--no-strict'], { strict: 'false' }],
    ['submit-pull-request', { 'no-batch': true }, ['--no-batch'], { 'no-batch': 'true' }],
    ['submit-pull-request', { 'no-batch': false }, ['--no-no-batch'], { 'no-batch': 'false' }],
    ['update-queue', { batch: false }, ['--no-batch'], { batch: 'false' }],
    [
      'set-impacted-targets',
      { 'impacted-targets': ['api', 'web'] },
      ['--impacted-targets', 'api', '--impacted-targets', 'web'],
      { 'impacted-targets': 'api\nweb' },
    ],
    ['pause-queue', { reason: 'a -- b' }, ['--reason', 'a -- b'], { reason: 'a -- b' }],
  ];
  it.each(spellings)('%s %j is %j and reads back', (operation, inputs, args, read) => {
    const example: OperationExample = { about: 'spelling', inputs };
    expect(exampleArgs(example)).toEqual(args);
    expect(parseCommandLine([operation, ...args]).inputs).toEqual(read);
    expect(exampleInputs(example)).toEqual(read);
  });
});

describe('every example runs against the emulator', () => {
  let cwd: string;
  beforeAll(() => {
    cwd = mkdtempSync(join(tmpdir(), 'help-examples-'));
    mkdirSync(join(cwd, 'reports'));
    copyFileSync('__tests__/fixtures/junit/pytest.xml', join(cwd, 'reports/pytest.xml'));
    // A checkout, as a laptop's shell is in: its origin names the repository when nothing else does.
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd });
    execFileSync('git', ['remote', 'add', 'origin', 'https://github.com/acme/checkout.git'], { cwd });
  });
  afterAll(() => rmSync(cwd, { recursive: true, force: true }));

  const runnable = all.filter(({ operation }) => !READ_ONLY[operation]);
  it.each(
    runnable.map(({ operation, example, index }) => [operation, example.args.join(' '), index, example]),
  )('%s %s', async (operation, _, index, example) => {
    const { args, exitCode } = example as CliExample;
    const name = operation as OperationName;
    const repo = `acme/example-${name}-${index}`;
    await prepare(repo, name, cwd, args.includes('--wait-for'));
    const env = laptop(repo, name);
    // The repository is then the checkout's, as on a laptop.
    if (args.includes('--all-repositories')) delete env.MERGE_QUEUE_REPO;
    const run = await runToTheEnd([name, ...args], { cwd, env }, repo);
    // The log is in the message when it fails.
    expect(`exit ${run.exitCode}\n${run.stderr}`).toMatch(new RegExp(`^exit ${exitCode}\n`));
  });
});

describe('the pager (util-linux script gives the terminal)', () => {
  const pagedBy = 'sed s/^/paged:/';
  it('pages --help through $PAGER on a terminal', () => {
    const text = onTerminal(['submit-pull-request', '--help'], { PAGER: pagedBy });
    expect(text).toMatch(/^paged:USAGE$/m);
    expect(text).toMatch(/^paged:EXAMPLES$/m);
  });

  it('never in a CI job, nor in a pipe', async () => {
    expect(onTerminal(['--help'], { PAGER: pagedBy, CI: 'true' })).not.toContain('paged:');
    const piped = await runCli(['--help'], { env: { PAGER: pagedBy } });
    expect(piped.stdout).toMatch(/^USAGE$/m);
    expect(piped.stdout).not.toContain('paged:');
  });
});

/** The arguments a POSIX shell makes of a line. */
function asTheShellReadsIt(line: string): string[] {
  const out = execFileSync('/bin/sh', ['-c', `printf '%s\\n' ${line}`], { encoding: 'utf8', cwd: tmpdir() });
  return out.split('\n').slice(0, -1);
}

/** The CLI run with a terminal for its stdout (util-linux's script), and what showed on it. */
function onTerminal(args: string[], env: Record<string, string>): string {
  const command = [process.execPath, CLI, ...args].map((a) => `'${a}'`).join(' ');
  return execFileSync('script', ['-qec', command, '/dev/null'], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, TERM: 'xterm', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  }).replace(/\r\n/g, '\n');
}

function laptop(repo: string, operation: OperationName): Record<string, string> {
  const v2 = OPERATIONS[operation].summary.includes('api-version v2');
  return {
    MERGE_QUEUE_API_URL: emulator.current.url,
    MERGE_QUEUE_API_TOKEN: v2 ? emulator.v2Key : TEST_TOKEN,
    MERGE_QUEUE_REPO: repo,
    MERGE_QUEUE_TARGET_BRANCH: 'main',
  };
}

/**
 * The CLI run; while it waits on a PR (--wait-for), the emulator's CI runs to its end, and the CLI looks
 * every second rather than every 15 (a variable the example does not show).
 */
async function runToTheEnd(
  args: string[],
  options: { cwd: string; env: Record<string, string> },
  repo: string,
) {
  if (!args.includes('--wait-for')) return runCli(args, options);
  let ended = false;
  const run = runCli(args, { ...options, env: { ...options.env, MERGE_QUEUE_POLL_INTERVAL_SECONDS: '1' } });
  void run.then(() => (ended = true));
  const queue = new QueueDriver(emulator, repo, 'main');
  for (let round = 0; round < 300 && !ended; round++) {
    await queue.runUntilIdle();
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return run;
}

/**
 * The state an example expects (helpers/operation-samples.ts), and for the planner a history file to read
 * (exported as its own example does).
 */
async function prepare(repo: string, operation: OperationName, cwd: string, waits = false): Promise<void> {
  if (operation === 'plan-queue-settings') {
    await prepare(repo, 'submit-pull-request', cwd);
    const exported = await runCli(['export-queue-history', '--history', 'queue-history.jsonl'], {
      cwd,
      env: laptop(repo, 'export-queue-history'),
    });
    expect(exported.exitCode).toBe(0);
    return;
  }
  await prepareExampleWorld(emulator, repo, { noQueue: operation === 'create-queue', noPr: waits });
}

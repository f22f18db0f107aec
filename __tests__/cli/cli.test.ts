// The built CLI (dist/cli/index.js) run in a child process against the emulator over HTTP: flags and
// MERGE_QUEUE_* variables in, outputs, --json and the documented exit codes out.
import { beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COMMON_INPUTS } from '../../src/core/common-inputs.js';
import type { InputSpec } from '../../src/core/inputs.js';
import { OPERATIONS, OPERATION_NAMES } from '../../src/core/operations/registry.js';
import { EXIT_CODES } from '../../src/core/failure.js';
import { OUTPUT_TYPES } from '../../src/cli/json-result.js';
import { isSubmittedFor, laptopEnvironment, runCli } from '../helpers/cli-runner.js';
import { QueueDriver, TEST_TOKEN, useEmulator } from '../helpers/emulator.js';
import { example } from '../helpers/webhook-examples.js';

const emulator = useEmulator({ timeScale: 600 });
const REPO = 'octo-org/cli-repo';
const queue = new QueueDriver(emulator, REPO, 'main');

const laptop = (extra: Record<string, string> = {}) => laptopEnvironment(emulator, REPO, extra);

interface JsonResult {
  operation: string;
  exitCode: number;
  outputs: Record<string, unknown> & { state?: string };
  response: Record<string, unknown> | null;
  failure: string | null;
}

beforeAll(async () => {
  await queue.create();
  await queue.submit(5);
});

describe('running an operation', () => {
  it('prints only the result object on stdout with --json, and the log on stderr', async () => {
    const run = await runCli(['get-submitted-pull-request', '--pr-number', '5', '--json'], { env: laptop() });
    expect(run.exitCode).toBe(EXIT_CODES.done);
    const result = JSON.parse(run.stdout) as JsonResult;
    expect(result).toMatchObject({
      operation: 'get-submitted-pull-request',
      exitCode: 0,
      failure: null,
      outputs: { 'pr-number': 5, repo: REPO, 'target-branch': 'main' },
    });
    expect(result.outputs['is-submitted']).toBe(isSubmittedFor(result.outputs.state) === 'true');
    expect(result.response).toMatchObject({ prNumber: 5 });
    expect(result.outputs.state).toBe(String(result.response?.state).toUpperCase());
    expect(run.stdout.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('host: generic (no CI recognised by its variables)');
    expect(run.stderr).toContain('pr-number: 5 (from the pr-number input)');
  });

  it('keeps each output its type in --json: numbers, booleans and JSON values, never strings of them', async () => {
    const run = await runCli(['get-submitted-pull-request', '--pr-number', '5', '--json'], { env: laptop() });
    const { outputs } = JSON.parse(run.stdout) as JsonResult;
    expect(typeof outputs['pr-number']).toBe('number');
    expect(typeof outputs['is-submitted']).toBe('boolean');
    expect(typeof outputs['is-merge-queue-test-run']).toBe('boolean');
    expect(outputs['priority-value']).toBe(100);
    expect(outputs['failing-checks']).toEqual([]);
    // The answer is `response`, parsed, not an output holding its text.
    expect(outputs).not.toHaveProperty('response');
    for (const [name, value] of Object.entries(outputs)) {
      const declared = OUTPUT_TYPES[name] ?? 'string';
      if (value === null) continue;
      const expected =
        { json: typeof value, list: 'object', numbers: 'object' }[declared as string] ?? declared;
      expect([name, typeof value]).toEqual([name, expected]);
    }
  });

  it('documents the type of every output the action declares, as --json gives it', () => {
    const doc = readFileSync('docs/cli-json.md', 'utf8');
    const outputsPart = readFileSync('action.yml', 'utf8').split('\noutputs:\n')[1]!;
    const declared = [...outputsPart.matchAll(/^ {2}([a-z-]+):\n {4}description:/gm)]
      .map((m) => m[1]!)
      .filter((name) => name !== 'response');
    const words: Record<string, string> = {
      string: 'string',
      number: 'number',
      boolean: 'boolean',
      json: 'the JSON value itself',
      list: 'array of strings',
      numbers: 'array of numbers',
    };
    for (const name of declared) {
      const row = new RegExp(`^\\| \`${name}\` +\\| ([^|]+?) +\\|`, 'm').exec(doc);
      expect([name, row?.[1]]).toEqual([name, words[OUTPUT_TYPES[name] ?? 'string']]);
    }
    expect(declared.length).toBeGreaterThan(80);
  });

  it('writes the outputs as JSON and the summary as markdown where the flags say', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-files-'));
    const outputsFile = join(dir, 'outputs.json');
    const summaryFile = join(dir, 'summary.md');
    const run = await runCli(
      [
        'get-submitted-pull-request',
        '--pr-number=5',
        '--outputs-file',
        outputsFile,
        '--summary-file',
        summaryFile,
      ],
      { env: laptop() },
    );
    expect(run.exitCode).toBe(0);
    // Without --json, stdout shows the result for a person.
    expect(run.stdout).toContain('PR #5');
    const outputs = JSON.parse(readFileSync(outputsFile, 'utf8')) as Record<string, string>;
    expect(outputs).toMatchObject({ 'is-submitted': isSubmittedFor(outputs.state), 'pr-number': '5' });
    expect(JSON.parse(outputs.response!)).toMatchObject({ prNumber: 5 });
    expect(readFileSync(summaryFile, 'utf8')).toMatch(/#<!-- -->5/);
  });

  it('takes inputs from MERGE_QUEUE_* variables, and a flag wins over the variable', async () => {
    const fromVariable = await runCli(['get-submitted-pull-request', '--json'], {
      env: laptop({ MERGE_QUEUE_PR_NUMBER: '5' }),
    });
    expect((JSON.parse(fromVariable.stdout) as JsonResult).outputs).toMatchObject({
      'pr-number': 5,
      state: expect.stringMatching(/^[A-Z_]+$/),
    });

    const flagWins = await runCli(['get-submitted-pull-request', '--json', '--pr-number', '404'], {
      env: laptop({ MERGE_QUEUE_PR_NUMBER: '5' }),
    });
    const result = JSON.parse(flagWins.stdout) as JsonResult;
    expect(result.outputs['pr-number']).toBe(404);
    expect(result.outputs['is-submitted']).toBe(false);
  });

  it('takes the PR from the override variables when no input names it, an input still winning', async () => {
    const override = await runCli(['get-submitted-pull-request', '--json'], {
      env: laptop({ TRUNK_PR_NUMBER: '5' }),
    });
    expect((JSON.parse(override.stdout) as JsonResult).outputs['pr-number']).toBe(5);
    expect(override.stderr).toContain('pr-number: 5 (from TRUNK_PR_NUMBER)');
    const input = await runCli(['get-submitted-pull-request', '--json'], {
      env: laptop({ TRUNK_PR_NUMBER: '5', MERGE_QUEUE_PR_NUMBER: '404' }),
    });
    expect((JSON.parse(input.stdout) as JsonResult).outputs['pr-number']).toBe(404);
  });

  it('accepts the endpoint name of the operation as well', async () => {
    const run = await runCli(['getSubmittedPullRequest', '--pr-number', '5', '--json'], { env: laptop() });
    expect(run.exitCode).toBe(0);
    expect((JSON.parse(run.stdout) as JsonResult).operation).toBe('get-submitted-pull-request');
  });

  it('never shows the token, not even when it is given as a flag', async () => {
    const token = 'cli-secret-token-4b1d9';
    const run = await runCli(['get-queue', '--json', '--api-token', token], {
      env: { ...laptop(), MERGE_QUEUE_API_TOKEN: '' },
    });
    expect(run.exitCode).toBe(EXIT_CODES.refused);
    expect(run.stdout + run.stderr).not.toContain(token);
    expect(run.stdout + run.stderr).not.toContain(token.slice(0, 12));
  });
});

describe('on GitHub Actions', () => {
  it('writes the summary to --summary-file as well as to the job summary', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-github-'));
    const files = { step: join(dir, 'step-summary.md'), own: join(dir, 'own-summary.md') };
    writeFileSync(files.step, '');
    const github = new QueueDriver(emulator, 'octo-org/summary-file', 'main');
    await github.create();
    const run = await runCli(['get-queue', '--summary-file', files.own], {
      env: {
        GITHUB_ACTIONS: 'true',
        GITHUB_STEP_SUMMARY: files.step,
        GITHUB_REPOSITORY: 'octo-org/summary-file',
        GITHUB_REF_NAME: 'main',
        MERGE_QUEUE_TARGET_BRANCH: 'main',
        MERGE_QUEUE_API_URL: emulator.current.url,
        MERGE_QUEUE_API_TOKEN: TEST_TOKEN,
      },
    });
    expect(run.exitCode).toBe(0);
    const jobSummary = readFileSync(files.step, 'utf8');
    expect(jobSummary).toContain('octo-org/summary-file');
    expect(readFileSync(files.own, 'utf8')).toBe(jobSummary);
  });

  it('takes the PR from the event, writes GITHUB_OUTPUT, and keeps workflow commands off stdout with --json', async () => {
    const payload = example('pull_request', (p) => p.action === 'opened');
    const dir = mkdtempSync(join(tmpdir(), 'cli-github-'));
    const files = { event: join(dir, 'event.json'), output: join(dir, 'output') };
    writeFileSync(files.event, JSON.stringify(payload));
    writeFileSync(files.output, '');
    const github = new QueueDriver(emulator, payload.repository.full_name, payload.pull_request.base.ref);
    await github.create();
    await github.submit(payload.pull_request.number);
    const run = await runCli(['get-submitted-pull-request', '--json'], {
      env: {
        GITHUB_ACTIONS: 'true',
        GITHUB_EVENT_NAME: 'pull_request',
        GITHUB_EVENT_PATH: files.event,
        GITHUB_OUTPUT: files.output,
        GITHUB_REPOSITORY: payload.repository.full_name,
        GITHUB_SERVER_URL: 'https://github.com',
        MERGE_QUEUE_API_URL: emulator.current.url,
        MERGE_QUEUE_API_TOKEN: TEST_TOKEN,
      },
    });
    expect(run.exitCode).toBe(0);
    expect((JSON.parse(run.stdout) as JsonResult).outputs['pr-number']).toBe(payload.pull_request.number);
    expect(run.stderr).toContain('host: github-actions (detected by GITHUB_ACTIONS=true)');
    expect(run.stderr).toContain('::add-mask::');
    const state = (JSON.parse(run.stdout) as JsonResult).outputs.state;
    expect(readFileSync(files.output, 'utf8')).toMatch(
      new RegExp(`^is-submitted<<.+\\n${isSubmittedFor(state)}$`, 'm'),
    );
  });
});

/** A GitLab merge request pipeline's variables for MR !5, a project directory of its own, and overrides. */
function gitlabPipeline(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    GITLAB_CI: 'true',
    CI_PROJECT_DIR: mkdtempSync(join(tmpdir(), 'cli-gitlab-')),
    CI_SERVER_URL: 'https://github.com',
    CI_PROJECT_PATH: REPO,
    CI_PIPELINE_SOURCE: 'merge_request_event',
    CI_MERGE_REQUEST_IID: '5',
    CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main',
    MERGE_QUEUE_API_URL: emulator.current.url,
    MERGE_QUEUE_API_TOKEN: TEST_TOKEN,
    ...overrides,
  };
}

describe('on GitLab CI', () => {
  it('takes the merge request from the pipeline and hands the outputs to later jobs as a dotenv report', async () => {
    const env = gitlabPipeline();
    const projectDir = env.CI_PROJECT_DIR!;
    const run = await runCli(['get-submitted-pull-request'], { env });
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toContain('host: gitlab-ci (detected by GITLAB_CI=true)');
    const report = readFileSync(join(projectDir, 'merge-queue.env'), 'utf8');
    // Merged (the summary says so below): no longer in the queue.
    expect(report).toMatch(/^MERGE_QUEUE_OUTPUT_IS_SUBMITTED=false$/m);
    expect(report).toMatch(/^MERGE_QUEUE_OUTPUT_PR_NUMBER=5$/m);
    expect(readFileSync(join(projectDir, 'merge-queue-summary.md'), 'utf8')).toMatch(
      /^## ✅ Merged: \[#<!-- -->5[^\]]*\]\(https:\/\/github.com\/octo-org\/cli-repo\/pull\/5\)/,
    );
  });
});

describe('values from the pipeline are checked like inputs', () => {
  it.each([
    [
      { CI_PROJECT_PATH: `${REPO}\n::error::forged` },
      `The pipeline's repository "${REPO}\\n::error::forged" is not owner/name; give --repo or MERGE_QUEUE_REPO (like my-org/my-repo).`,
    ],
    [
      { CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main\u001b[2J' },
      `The pipeline's target branch "main\\u001b[2J" is not a branch name (it holds whitespace or a control character); give --target-branch or MERGE_QUEUE_TARGET_BRANCH.`,
    ],
    [
      { CI_SERVER_URL: '', CI_SERVER_HOST: 'github.com/../evil' },
      `The pipeline's repository host "github.com/../evil" is not a host name; give --repo-host or MERGE_QUEUE_REPO_HOST (like github.com).`,
    ],
  ])('refuses %j with exit code 2 and writes no output', async (overrides, failure) => {
    const env = gitlabPipeline(overrides);
    const run = await runCli(['get-submitted-pull-request', '--json'], { env });
    expect(run.exitCode).toBe(EXIT_CODES.badInput);
    const result = JSON.parse(run.stdout) as JsonResult;
    expect(result.failure).toBe(failure);
    expect(result.outputs).toEqual({});
  });
});

describe('exit codes', () => {
  it('1 when the outcome is a failure: the PR failed while waiting', async () => {
    await queue.ci(21, { outcome: 'fail', durationMinutes: 1 });
    const run = await runCli(
      [
        'submit-pull-request',
        '--pr-number',
        '21',
        '--wait-for',
        'tests-passed',
        '--poll-interval-seconds',
        '1',
        '--wait-timeout-minutes',
        '1',
        '--json',
      ],
      { env: laptop() },
    );
    expect(run.exitCode).toBe(EXIT_CODES.failed);
    const result = JSON.parse(run.stdout) as JsonResult;
    expect(result.exitCode).toBe(1);
    expect(result.failure).toMatch(/^PR #21 ended FAILED while waiting for TESTS_PASSED/);
    expect(run.stderr).toMatch(/^merge-queue-action: PR #21 ended FAILED while waiting for TESTS_PASSED/m);
    expect(result.outputs.state).toBe('FAILED');
  });

  it('2 when an input is bad, with one line naming it', async () => {
    const run = await runCli(['get-submitted-pull-request', '--pr-number', 'twelve'], { env: laptop() });
    expect(run.exitCode).toBe(EXIT_CODES.badInput);
    const errors = run.stderr.split('\n').filter((line) => line.startsWith('merge-queue-action:'));
    expect(errors).toEqual([
      expect.stringMatching(
        /^merge-queue-action: --pr-number or MERGE_QUEUE_PR_NUMBER: "twelve" is not a pull request number\. \S/,
      ),
    ]);
  });

  it('2 when the context cannot be worked out: the variable and the input that replaces it', async () => {
    const run = await runCli(['get-submitted-pull-request', '--json'], { env: laptop() });
    expect(run.exitCode).toBe(EXIT_CODES.badInput);
    expect((JSON.parse(run.stdout) as JsonResult).failure).toBe(
      'No pull request to act on: TRUNK_PR_NUMBER is not set; give --pr-number or MERGE_QUEUE_PR_NUMBER.',
    );
  });

  it('3 when the service refuses the request', async () => {
    const run = await runCli(['get-queue', '--json'], {
      env: laptop({ MERGE_QUEUE_API_TOKEN: 'wrong-token' }),
    });
    expect(run.exitCode).toBe(EXIT_CODES.refused);
    expect((JSON.parse(run.stdout) as JsonResult).failure).toMatch(/401/);
  });

  it('4 when the service cannot be reached', async () => {
    const port = await closedPort();
    const run = await runCli(['get-queue', '--json', '--timeout-seconds', '2'], {
      env: laptop({ MERGE_QUEUE_API_URL: `http://127.0.0.1:${port}/v1` }),
    });
    expect(run.exitCode).toBe(EXIT_CODES.unreachable);
    expect((JSON.parse(run.stdout) as JsonResult).exitCode).toBe(4);
  });
});

describe('the command line', () => {
  it('names an unknown flag and the closest known one, on one line, with exit code 2', async () => {
    const run = await runCli(['submit-pull-request', '--wiat-for', 'merged'], { env: laptop() });
    expect(run.exitCode).toBe(EXIT_CODES.badInput);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toEqual([
      'merge-queue-action: unknown flag --wiat-for. Did you mean --wait-for? Run `merge-queue-action help <operation>` for the flags an operation takes.',
    ]);
  });

  it('refuses a flag without its value', async () => {
    const run = await runCli(['get-queue', '--repo'], { env: laptop() });
    expect(run.exitCode).toBe(EXIT_CODES.badInput);
    expect(run.stderr).toMatch(/--repo/);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('refuses an unknown host, forced by flag or variable', async () => {
    const flag = await runCli(['get-queue', '--host', 'gitlab'], { env: laptop() });
    expect(flag.exitCode).toBe(EXIT_CODES.badInput);
    expect(flag.stderr).toContain('"gitlab" (from --host) is not a host. Did you mean gitlab-ci?');
    const variable = await runCli(['get-queue'], { env: laptop({ MERGE_QUEUE_HOST: 'travis' }) });
    expect(variable.exitCode).toBe(EXIT_CODES.badInput);
    expect(variable.stderr).toContain('"travis" (from MERGE_QUEUE_HOST) is not a host');
  });

  it("--help lists every operation; an operation's page the common inputs and exit codes", async () => {
    const run = await runCli(['--help']);
    expect(run.exitCode).toBe(0);
    for (const name of OPERATION_NAMES) {
      expect(run.stdout).toMatch(new RegExp(`(^  |, )${escapeRegExp(name)}(,|$)`, 'm'));
    }
    expect(run.stdout).toContain('Exit codes: 0 done, 1 failed, 2 bad input, 3 refused, 4 unreachable.');
    const page = await runCli(['get-queue', '--help']);
    for (const spec of COMMON_INPUTS) expect(page.stdout).toContain(flagTerm(spec));
    for (const code of Object.values(EXIT_CODES))
      expect(page.stdout).toMatch(new RegExp(`^  ${code}  \\S`, 'm'));
  });

  it('<operation> --help lists that operation inputs with their variables and defaults, no others', async () => {
    const run = await runCli(['list-unhealthy-tests', '--help']);
    expect(run.exitCode).toBe(0);
    const row = OPERATIONS['list-unhealthy-tests'];
    expect(run.stdout).toContain(row.summary);
    for (const spec of row.inputs) {
      expect(run.stdout).toContain(
        `${flagTerm(spec)}  (MERGE_QUEUE_${spec.name.toUpperCase().replace(/-/g, '_')})`,
      );
      if (spec.default) expect(run.stdout).toContain(`(default ${JSON.stringify(spec.default)})`);
    }
    const other = OPERATIONS['submit-pull-request'].inputs.find(
      (spec) => !row.inputs.some((own) => own.name === spec.name),
    )!;
    expect(run.stdout).not.toContain(`--${other.name} `);
  });
});

/** How help shows an input: a boolean as --x, --no-x; a choice with its values; else <value>. */
function flagTerm(spec: InputSpec): string {
  if (spec.boolean) return `--${spec.name}, --no-${spec.name}`;
  return `--${spec.name} <${spec.values?.join('|') ?? 'value'}>`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A loopback port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

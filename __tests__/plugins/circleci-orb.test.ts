// The CircleCI orb's source (orb/), packed as `circleci orb pack` does, checked against the orb schema's
// rules (the circleci CLI that validates and publishes orbs is not installable here): the root keys,
// every command, job, executor and example with its description, typed parameters and resolved
// references, the inputs each job hands the CLI, and the ready config in examples/circleci. Then the
// packed run-operation command itself, run by bash as CircleCI runs a step, against the emulator.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { COMMON_INPUTS } from '../../src/core/common-inputs.js';
import { OPERATIONS, isOperationName } from '../../src/core/operations/registry.js';
import {
  WORKFLOW_JOB_KEYS,
  argumentProblems,
  invocationProblems,
  packOrb,
  parameterProblems,
  type Element,
} from '../helpers/orb.js';
import { QueueDriver, TEST_TOKEN, useEmulator } from '../helpers/emulator.js';
import { CART_JUNIT, quarantineSyncsWhenOffline } from '../helpers/junit-sample.js';
import { pathWithNpxShim } from '../helpers/npx-shim.js';
import { runScript } from '../helpers/run-script.js';

const orb = packOrb('orb');
const executors = Object.keys(orb.executors);
const ALIAS = 'merge-queue/';

function inputsOf(operation: string): Set<string> {
  if (!isOperationName(operation)) return new Set();
  return new Set([...COMMON_INPUTS, ...OPERATIONS[operation].inputs].map((spec) => spec.name));
}

/** A config (an example's usage or a project's config.yml) that uses the orb under `merge-queue`. */
function configProblems(where: string, config: Element): string[] {
  const problems: string[] = [];
  if (config.version !== 2.1) problems.push(`${where}: version ${String(config.version)}`);
  const orbs = (config.orbs ?? {}) as Record<string, unknown>;
  if (!/^[\w-]+\/merge-queue@\d+\.\d+\.\d+$/.test(String(orbs['merge-queue'])))
    problems.push(`${where}: orbs.merge-queue is ${String(orbs['merge-queue'])}`);
  const ownJobs = (config.jobs ?? {}) as Record<string, Element>;
  for (const [name, job] of Object.entries(ownJobs))
    problems.push(...invocationProblems(`${where} job ${name}`, job.steps, orb.commands, ALIAS));
  const workflows = (config.workflows ?? {}) as Record<string, { jobs?: unknown[] }>;
  if (Object.keys(workflows).length === 0) problems.push(`${where}: no workflows`);
  for (const [workflow, { jobs = [] }] of Object.entries(workflows)) {
    for (const entry of jobs) {
      const [name, args] = typeof entry === 'string' ? [entry, {}] : Object.entries(entry as Element)[0]!;
      const at = `${where} workflow ${workflow} job ${name}`;
      const given = (args ?? {}) as Element;
      if (name.startsWith(ALIAS)) {
        const job = orb.jobs[name.slice(ALIAS.length)];
        if (!job) problems.push(`${at}: the orb has no such job`);
        else problems.push(...argumentProblems(at, job, given, WORKFLOW_JOB_KEYS));
      } else if (!(name in ownJobs) && given.type !== 'approval') {
        problems.push(`${at}: not defined`);
      }
    }
  }
  return problems;
}

describe('the CircleCI orb (orb/, packed)', () => {
  it('has the root keys an orb needs: version 2.1, a description, home and source URLs', () => {
    expect(orb.version).toBe(2.1);
    expect(String(orb.description).length).toBeGreaterThan(40);
    expect(orb.display?.home_url).toMatch(/^https:\/\//);
    expect(orb.display?.source_url).toMatch(/^https:\/\//);
  });

  it('has the commands, jobs and examples the README documents', () => {
    expect(Object.keys(orb.commands)).toEqual(['run-operation']);
    expect(Object.keys(orb.jobs).sort()).toEqual([
      'flaky-report',
      'set-impacted-targets',
      'submit-pull-request',
    ]);
    expect(Object.keys(orb.examples).sort()).toEqual([
      'flaky-report',
      'impacted-targets',
      'submit-pull-request',
    ]);
  });

  it.each(Object.entries(orb.commands))(
    'command %s: description, typed parameters, steps',
    (name, command) => {
      expect(typeof command.description).toBe('string');
      expect([
        ...parameterProblems(`command ${name}`, command, executors),
        ...invocationProblems(`command ${name}`, command.steps, orb.commands),
      ]).toEqual([]);
    },
  );

  it('inlines the command script, which runs the CLI with the host forced to circleci', () => {
    const run = (orb.commands['run-operation']!.steps as { run?: { command: string } }[])[0]!.run!;
    expect(run.command).toBe(readFileSync('orb/scripts/run.sh', 'utf8'));
    expect(run.command).toContain('--host circleci');
  });

  it.each(Object.entries(orb.jobs))(
    'job %s: description, an executor of the orb, typed parameters, steps, and only inputs its operation reads',
    (name, job) => {
      expect(typeof job.description).toBe('string');
      const parameters = job.parameters as Record<string, { default?: string }>;
      expect(job.executor).toBe('<< parameters.executor >>');
      expect(executors).toContain(parameters.executor?.default);
      expect([
        ...parameterProblems(`job ${name}`, job, executors),
        ...invocationProblems(`job ${name}`, job.steps, orb.commands),
      ]).toEqual([]);

      const operation = (job.steps as Element[])
        .map((step) => step['run-operation'] as { operation?: string } | undefined)
        .find(Boolean)?.operation;
      const inputs = inputsOf(String(operation));
      expect(inputs.size).toBeGreaterThan(0);
      const handed = Object.keys((job.environment ?? {}) as Element)
        .filter((variable) => variable.startsWith('MERGE_QUEUE_'))
        .map((variable) => variable.slice('MERGE_QUEUE_'.length).toLowerCase().replace(/_/g, '-'));
      expect(handed.filter((input) => !inputs.has(input))).toEqual([]);
    },
  );

  it.each(Object.entries(orb.executors))('executor %s: a Node.js image', (name, executor) => {
    expect(typeof executor.description).toBe('string');
    expect(parameterProblems(`executor ${name}`, executor, executors)).toEqual([]);
    expect((executor.docker as { image: string }[])[0]!.image).toMatch(/^cimg\/node:/);
  });

  it.each(Object.entries(orb.examples))(
    'example %s: a description and a config using the orb correctly',
    (name, example) => {
      expect(String(example.description).length).toBeGreaterThan(20);
      expect(configProblems(`example ${name}`, example.usage as Element)).toEqual([]);
    },
  );

  it('finds a wrong parameter, a missing required one and an undeclared reference (the checker can fail)', () => {
    const broken = parse(`
      workflows:
        w:
          jobs:
            - merge-queue/submit-pull-request:
                wait-for: merged
                colour: blue
      version: 2.1
      orbs: { merge-queue: your-org/merge-queue@0.1.0 }
    `) as Element;
    expect(configProblems('broken', broken)).toEqual([
      'broken workflow w job merge-queue/submit-pull-request: unknown parameter colour',
      'broken workflow w job merge-queue/submit-pull-request: missing parameter target-branch',
    ]);
    expect(
      parameterProblems(
        'job x',
        {
          parameters: { n: { type: 'integer', default: 'ten', description: 'n' } },
          steps: ['<< parameters.m >>'],
        },
        executors,
      ),
    ).toEqual(['job x parameter n: default "ten" is not a integer', 'job x: uses undeclared m']);
  });
});

describe("examples/circleci/config.yml and the README's snippet", () => {
  it("the README's snippet uses the orb's submit job with its required parameters", () => {
    const blocks = [...readFileSync('README.md', 'utf8').matchAll(/^```yaml\n([\s\S]*?)^```$/gm)]
      .map((match) => match[1]!)
      .filter((block) => block.includes('merge-queue/submit-pull-request:'));
    expect(blocks).toHaveLength(1);
    const config = parse(blocks[0]!) as Element;
    expect(configProblems('README', config)).toEqual([]);
    expect(JSON.stringify(config.workflows)).toContain(`${ALIAS}submit-pull-request`);
  });

  it('uses the orb: its jobs with their required parameters and nothing they do not declare', () => {
    const config = parse(readFileSync('examples/circleci/config.yml', 'utf8')) as Element;
    expect(configProblems('config.yml', config)).toEqual([]);
    const used = JSON.stringify(config.workflows);
    for (const job of ['submit-pull-request', 'set-impacted-targets', 'flaky-report'])
      expect(used).toContain(`${ALIAS}${job}`);
  });
});

// The packed run-operation command run the way CircleCI runs a `run` step (bash -eo pipefail -c), with
// the variables CircleCI sets for a pull-request build and the step's environment the parameters
// become; the CLI it runs is this repository's build, against the emulator.
// Several CLI runs a test: on a busy machine more than jest's default 30 s.
const STEP_TIMEOUT_MS = 120_000;

describe('the orb command run-operation, run as CircleCI runs it', () => {
  const emu = useEmulator();
  const queue = new QueueDriver(emu, 'acme/widgets');
  const HEAD_SHA = 'c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00';
  let work: string;
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'mqa-circleci-'));
    await queue.create();
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  const command = (orb.commands['run-operation']!.steps as { run: { command: string } }[])[0]!.run.command;

  function circleEnv(params: Record<string, string>): Record<string, string> {
    return {
      CI: 'true',
      CIRCLECI: 'true',
      CIRCLE_BRANCH: 'feature/faster-widgets',
      CIRCLE_BUILD_NUM: '977',
      CIRCLE_BUILD_URL: 'https://circleci.com/gh/acme/widgets/977',
      CIRCLE_JOB: 'merge-queue/submit-pull-request',
      CIRCLE_WORKFLOW_ID: '5a1f6c1e-8a0e-4cc4-9f2b-2f6f0d6d1e77',
      CIRCLE_PROJECT_USERNAME: 'acme',
      CIRCLE_PROJECT_REPONAME: 'widgets',
      CIRCLE_REPOSITORY_URL: 'git@github.com:acme/widgets.git',
      CIRCLE_PULL_REQUEST: 'https://github.com/acme/widgets/pull/31',
      CIRCLE_PULL_REQUESTS: 'https://github.com/acme/widgets/pull/31',
      CIRCLE_SHA1: HEAD_SHA,
      BASH_ENV: join(work, 'bash-env'),
      TRUNK_API_TOKEN: TEST_TOKEN,
      // The command's parameters, as its step's environment sets them (defaults as the orb declares);
      // api-url points the orb at the emulator, as a rehearsal does.
      PARAM_API_TOKEN_ENV: 'TRUNK_API_TOKEN',
      PARAM_API_URL: emu.current.url,
      PARAM_CLI: `${process.execPath} ${resolve('dist/cli/index.js')}`,
      PARAM_OUTPUTS_FILE: 'merge-queue-outputs.json',
      PARAM_SUMMARY_FILE: 'merge-queue-summary.md',
      PARAM_ARGS: '',
      ...params,
    };
  }

  it(
    'uploads targets and submits the PR, writes the outputs file and summary, and exports the outputs to later steps',
    async () => {
      const step = (params: Record<string, string>) =>
        runScript('/bin/bash', ['-eo', 'pipefail', '-c', command], circleEnv(params), { cwd: work });
      const upload = await step({
        PARAM_OPERATION: 'set-impacted-targets',
        PARAM_TARGET_BRANCH: 'main',
        PARAM_ARGS: '--impacted-targets //app:widgets',
      });
      expect(upload.code).toBe(0);
      const run = await step({
        PARAM_OPERATION: 'submit-pull-request',
        PARAM_TARGET_BRANCH: 'main',
        PARAM_ARGS: '--priority high',
      });
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
      // The emulator knows the PR's head sha from the upload: the one CIRCLE_SHA1 named.
      const pr = await queue.pr(31);
      expect(pr).toMatchObject({ prSha: HEAD_SHA, priorityName: 'high' });

      const outputs = JSON.parse(readFileSync(join(work, 'merge-queue-outputs.json'), 'utf8')) as Record<
        string,
        string
      >;
      expect(outputs).toMatchObject({ 'pr-number': '31', 'target-branch': 'main', repo: 'acme/widgets' });
      expect(readFileSync(join(work, 'merge-queue-summary.md'), 'utf8')).toContain('31');

      // A later step: CircleCI sources BASH_ENV before it.
      const later = await runScript(
        '/bin/bash',
        ['-c', `source "$BASH_ENV"; echo "$MERGE_QUEUE_OUTPUT_PR_NUMBER $MERGE_QUEUE_OUTPUT_TARGET_BRANCH"`],
        {
          BASH_ENV: join(work, 'bash-env'),
        },
      );
      expect(later.stdout.trim()).toBe('31 main');
      expect(run.stdout + run.stderr + readFileSync(join(work, 'bash-env'), 'utf8')).not.toContain(
        TEST_TOKEN,
      );
    },
    STEP_TIMEOUT_MS,
  );

  it(
    'ends with the CLI exit code, 2 for a bad input, naming it',
    async () => {
      const run = await runScript(
        '/bin/bash',
        ['-eo', 'pipefail', '-c', command],
        circleEnv({
          PARAM_OPERATION: 'submit-pull-request',
          PARAM_TARGET_BRANCH: 'main',
          PARAM_ARGS: '--priority soon',
        }),
        { cwd: work },
      );
      expect(run.code).toBe(2);
      expect(run.stdout + run.stderr).toContain('priority');
    },
    STEP_TIMEOUT_MS,
  );
});

describe('examples/ci/check-test-results/circleci-config.yml: the gate step, run by bash as CircleCI runs it', () => {
  const emu = useEmulator();
  let work: string;
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'mqa-circleci-gate-'));
    mkdirSync(join(work, 'reports'));
    writeFileSync(join(work, 'reports', 'junit.xml'), CART_JUNIT);
    const seed = quarantineSyncsWhenOffline({ host: 'github.com', owner: 'acme', name: 'shop' });
    expect((await emu.control('POST', '/flaky-tests', seed)).status).toBe(200);
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it(
    'passes the quarantined failure, fails the step for the new one, and writes the files it stores',
    async () => {
      const config = parse(readFileSync('examples/ci/check-test-results/circleci-config.yml', 'utf8')) as {
        jobs: { test: { steps: ({ run?: { name?: string; command?: string } } | string)[] } };
      };
      const gate = config.jobs.test.steps
        .map((step) => (typeof step === 'string' ? undefined : step.run))
        .find((run) => run?.name === 'Quarantine gate');
      // The command as pasted; only npx's download of main's archive is this checkout's build.
      const run = await runScript(
        '/bin/bash',
        ['-eo', 'pipefail', '-c', gate!.command!],
        {
          PATH: pathWithNpxShim(),
          CI: 'true',
          CIRCLECI: 'true',
          CIRCLE_PROJECT_USERNAME: 'acme',
          CIRCLE_PROJECT_REPONAME: 'shop',
          CIRCLE_REPOSITORY_URL: 'git@github.com:acme/shop.git',
          CIRCLE_BRANCH: 'feature/cart',
          CIRCLE_SHA1: 'c0ffee0000000000000000000000000000000008',
          MERGE_QUEUE_API_TOKEN: TEST_TOKEN,
          MERGE_QUEUE_API_URL: emu.current.url,
        },
        { cwd: work },
      );
      expect({ code: run.code, stderr: run.stderr.slice(-400) }).toMatchObject({ code: 1 });
      const outputs = JSON.parse(readFileSync(join(work, 'gate-outputs.json'), 'utf8')) as Record<
        string,
        unknown
      >;
      expect(outputs).toMatchObject({ 'failed-count': '2', 'step-failing-count': '1' });
      expect(readFileSync(join(work, 'gate-summary.md'), 'utf8')).toContain('Cart expires after a timeout');
    },
    STEP_TIMEOUT_MS,
  );
});

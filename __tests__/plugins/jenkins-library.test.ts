// The Jenkins shared library step vars/mergeQueue.groovy. Groovy and Jenkins do not run here, so the
// step's shell command (a constant single-quoted string in the library) is taken from the file and run
// the way Jenkins' sh step runs it (sh -xe -c), with the variables the step sets (MQ_STEP_*, and each
// input as MERGE_QUEUE_<NAME>) and those Jenkins sets for a multibranch pull-request build, against the
// emulator. What the Groovy around it does is small and read here: the variables it sets, the names it
// refuses, and the default CLI.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { QueueDriver, TEST_TOKEN, useEmulator } from '../helpers/emulator.js';
import { runScript } from '../helpers/run-script.js';

const library = readFileSync('vars/mergeQueue.groovy', 'utf8');
const command = /sh\(label: [^,]+, script: '([^']+)'\)/.exec(library)?.[1] ?? '';

describe('vars/mergeQueue.groovy', () => {
  it('runs one shell command that takes everything from variables, none of them an input of the CLI', () => {
    expect(command).toBe(
      '$MQ_STEP_CLI "$MQ_STEP_OPERATION" --outputs-file "$MQ_STEP_OUTPUTS" --summary-file "$MQ_STEP_SUMMARY"',
    );
    // MERGE_QUEUE_* variables are the CLI's inputs: the step's own are named apart.
    const own = [...library.matchAll(/"(\w+)=\$\{/g)].map((m) => m[1]!);
    expect(own.sort()).toEqual(['MQ_STEP_CLI', 'MQ_STEP_OPERATION', 'MQ_STEP_OUTPUTS', 'MQ_STEP_SUMMARY']);
    expect(library).toContain("\"MERGE_QUEUE_${name.toString().toUpperCase().replace('-', '_')}=${value}\"");
  });

  it('defaults to the CLI committed on main, and names the pinned form for after a release', () => {
    expect(library).toContain(
      "'npx --yes https://github.com/your-org/merge-queue-action/archive/refs/heads/main.tar.gz'",
    );
    expect(library).toContain("'npx --yes merge-queue-action@<version>'");
  });
});

describe("the library step's command, run as Jenkins' sh step runs it", () => {
  const emu = useEmulator();
  const queue = new QueueDriver(emu, 'acme/widgets');
  const HEAD_SHA = 'b0a7d1e2c3f405162738495a6b7c8d9e0f1a2b3c';
  let work: string;
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'mqa-jenkins-'));
    await queue.create();
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  /** A multibranch pull-request build of PR 5, with the step's variables for `operation`. */
  const jenkinsEnv = (operation: string, inputs: Record<string, string>) => ({
    JENKINS_URL: 'https://jenkins.example.com/',
    BUILD_URL: 'https://jenkins.example.com/job/widgets/job/PR-5/3/',
    BUILD_NUMBER: '3',
    BRANCH_NAME: 'PR-5',
    CHANGE_ID: '5',
    CHANGE_TARGET: 'main',
    CHANGE_BRANCH: 'feature/faster-widgets',
    CHANGE_URL: 'https://github.com/acme/widgets/pull/5',
    GIT_URL: 'https://github.com/acme/widgets.git',
    GIT_COMMIT: HEAD_SHA,
    WORKSPACE: work,
    MERGE_QUEUE_API_TOKEN: TEST_TOKEN,
    MERGE_QUEUE_API_URL: emu.current.url,
    MQ_STEP_CLI: `${process.execPath} ${resolve('dist/cli/index.js')}`,
    MQ_STEP_OPERATION: operation,
    MQ_STEP_OUTPUTS: `${operation}-outputs.json`,
    MQ_STEP_SUMMARY: `${operation}-summary.md`,
    ...inputs,
  });

  it('uploads targets and submits PR 5 with its head sha, writing the outputs and summary files the step archives', async () => {
    const step = (operation: string, inputs: Record<string, string>) =>
      runScript('/bin/sh', ['-xe', '-c', command], jenkinsEnv(operation, inputs), { cwd: work });
    const upload = await step('set-impacted-targets', { MERGE_QUEUE_IMPACTED_TARGETS: '//app:widgets' });
    expect({ code: upload.code, stderr: upload.stderr.slice(-400) }).toMatchObject({ code: 0 });
    const run = await step('submit-pull-request', { MERGE_QUEUE_PRIORITY: 'high' });
    expect({ code: run.code, stderr: run.stderr.slice(-400) }).toMatchObject({ code: 0 });
    // The emulator knows the head sha from the upload: the one GIT_COMMIT named.
    expect(await queue.pr(5)).toMatchObject({ prSha: HEAD_SHA, priorityName: 'high' });
    const outputs = JSON.parse(
      readFileSync(join(work, 'submit-pull-request-outputs.json'), 'utf8'),
    ) as Record<string, string>;
    expect(outputs).toMatchObject({ 'pr-number': '5', 'target-branch': 'main', repo: 'acme/widgets' });
    expect(readFileSync(join(work, 'submit-pull-request-summary.md'), 'utf8')).toContain('5');
    expect(run.stdout + run.stderr).not.toContain(TEST_TOKEN);
  });

  it('fails the step with exit code 2 naming a bad input', async () => {
    const run = await runScript(
      '/bin/sh',
      ['-xe', '-c', command],
      jenkinsEnv('submit-pull-request', { MERGE_QUEUE_PRIORITY: 'soon' }),
      { cwd: work },
    );
    expect(run.code).toBe(2);
    expect(run.stdout + run.stderr).toContain('priority');
  });
});

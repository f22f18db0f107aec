// The Jenkins shared library step vars/mergeQueue.groovy and the Jenkinsfiles that use it (the example
// and the README's snippet), run as pasted by Groovy with Jenkins' own steps stood in for
// (helpers/jenkins-build.ts): a multibranch pull-request build whose workspace is a git clone with an
// origin, and a timer build of main, against the emulator. The CLI is the library's default, with only
// its download swapped for this checkout's build (helpers/npx-shim.ts). Jenkins itself does not run here.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { QueueDriver, TEST_TOKEN, useEmulator } from '../helpers/emulator.js';
import type { GitRepo } from '../helpers/git-repo.js';
import { runJenkinsBuild } from '../helpers/jenkins-build.js';
import { jestProjectFiles } from '../helpers/jest-project.js';
import { quarantineSyncsWhenOffline } from '../helpers/junit-sample.js';
import { pathWithNpxShim } from '../helpers/npx-shim.js';
import { pullRequestWorkspace, type PullRequestWorkspace } from '../helpers/pr-workspace.js';
import { describeWithTools } from '../helpers/tool-gate.js';
import { TOOLS } from '../helpers/tools.js';
import { PINNED_ARCHIVE, PINNED_REF } from '../helpers/pins.js';

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

  it('defaults to the CLI committed at the pinned ref, and names the pinned form for after a release', () => {
    expect(library).toContain(`'npx --yes ${PINNED_ARCHIVE}'`);
    expect(library).toContain("'npx --yes merge-queue-action@<version>'");
  });
});

// Builds wait for the merge: the PR's simulated CI (5 virtual minutes) passes in half a second.
const emu = useEmulator({ timeScale: 600 });
const queue = new QueueDriver(emu, 'acme/widgets');
const BUILD_TIMEOUT_MS = 240_000;
const PATH = pathWithNpxShim();
const CREDENTIALS = { 'trunk-api-token': TEST_TOKEN };

let workspace: PullRequestWorkspace;
let parent: string;
let repo: GitRepo;
let headSha: string;
beforeAll(async () => {
  workspace = pullRequestWorkspace();
  ({ parent, checkout: repo, headSha } = workspace);
  await queue.create();
});
afterAll(() => workspace.remove());

/**
 * The variables of a multibranch build of PR 5 under "merge with the target": GIT_COMMIT is the merge
 * commit Jenkins made, CHANGE_SOURCE_COMMIT_ID the PR's own head. The emulator's address is set on the
 * agent, where a rehearsal would set it.
 */
function pullRequestBuild() {
  return {
    JENKINS_URL: 'https://jenkins.example.com/',
    BUILD_URL: 'https://jenkins.example.com/job/widgets/job/PR-5/3/',
    BUILD_NUMBER: '3',
    BRANCH_NAME: 'PR-5',
    CHANGE_ID: '5',
    CHANGE_TARGET: 'main',
    CHANGE_BRANCH: 'feature/faster-api',
    CHANGE_URL: 'https://github.com/acme/widgets/pull/5',
    CHANGE_SOURCE_COMMIT_ID: headSha,
    GIT_URL: 'https://github.com/acme/widgets.git',
    GIT_COMMIT: 'e1e2e3e4e5e6e7e8e9e0e1e2e3e4e5e6e7e8e9e0',
    PATH,
    MERGE_QUEUE_API_URL: emu.current.url,
    MERGE_QUEUE_POLL_INTERVAL_SECONDS: '1',
  };
}

const stages = (log: string) =>
  [...log.matchAll(/^\[Pipeline\] stage \((.+)\)\n(Stage ".+" skipped)?/gm)].map(
    ([, name, skipped]) => `${name}${skipped ? ' (skipped)' : ''}`,
  );

describeWithTools([TOOLS.groovy()], 'Jenkinsfiles using the library, run by Groovy', () => {
  it(
    'examples/jenkins/Jenkinsfile, a PR build with SUBMIT_TO_MERGE_QUEUE: targets from git uploaded, the PR head submitted and merged, files archived',
    async () => {
      const run = await runJenkinsBuild('examples/jenkins/Jenkinsfile', {
        workspace: repo.dir,
        env: pullRequestBuild(),
        params: { SUBMIT_TO_MERGE_QUEUE: true },
        credentials: CREDENTIALS,
      });
      const log = run.stdout + run.stderr;
      expect({ code: run.code, end: log.split('\n').slice(-15) }).toMatchObject({ code: 0 });
      expect(stages(log)).toEqual([
        'Impacted targets',
        'Submit to the merge queue',
        'Flaky-test report (skipped)',
      ]);
      // Targets from git diff against origin's main: the one directory the PR changed.
      expect(log).toContain('Uploaded 1 impacted target for PR #5');
      const pr = await queue.pr(5);
      expect(pr).toMatchObject({ prSha: headSha });
      expect(pr.state.toUpperCase()).toBe('MERGED');
      expect(log).toContain(
        'Archiving artifacts: submit-pull-request-outputs.json, submit-pull-request-summary.md',
      );
      const outputs = JSON.parse(
        readFileSync(join(repo.dir, 'submit-pull-request-outputs.json'), 'utf8'),
      ) as Record<string, unknown>;
      expect(outputs).toMatchObject({ 'pr-number': '5', 'target-branch': 'main' });
      expect(log).not.toContain(TEST_TOKEN);
    },
    BUILD_TIMEOUT_MS,
  );

  it(
    'examples/jenkins/Jenkinsfile, the timer build of main: the flaky-test report alone, failing the build on a broken test',
    async () => {
      await queue.flakyTests('your-org', [
        { name: 'api starts', status: 'broken', pull_requests_impacted_last_7d: 5 },
      ]);
      const main = { ...pullRequestBuild(), BRANCH_NAME: 'main', GIT_COMMIT: headSha };
      for (const name of [
        'CHANGE_ID',
        'CHANGE_TARGET',
        'CHANGE_BRANCH',
        'CHANGE_URL',
        'CHANGE_SOURCE_COMMIT_ID',
      ])
        delete (main as Record<string, string>)[name];
      const run = await runJenkinsBuild('examples/jenkins/Jenkinsfile', {
        workspace: repo.dir,
        env: main,
        credentials: CREDENTIALS,
        cause: 'TimerTrigger',
      });
      const log = run.stdout + run.stderr;
      expect(run.code).toBe(1);
      expect(stages(log)).toEqual([
        'Impacted targets (skipped)',
        'Submit to the merge queue (skipped)',
        'Flaky-test report',
      ]);
      expect(log).toMatch(/ERROR: script returned exit code 1\nFinished: FAILURE\n$/);
      expect(readFileSync(join(repo.dir, 'list-unhealthy-tests-summary.md'), 'utf8')).toContain('api starts');
    },
    BUILD_TIMEOUT_MS,
  );

  it(
    "the README's Jenkins snippet, a PR build: submits the PR and waits until it merges",
    async () => {
      const snippet = /^```groovy\n([\s\S]*?)^```$/m.exec(readFileSync('README.md', 'utf8'))![1]!;
      const jenkinsfile = join(parent, 'Jenkinsfile');
      writeFileSync(jenkinsfile, snippet);
      const build = { ...pullRequestBuild(), CHANGE_ID: '6', BRANCH_NAME: 'PR-6' };
      const run = await runJenkinsBuild(jenkinsfile, {
        workspace: repo.dir,
        env: build,
        credentials: CREDENTIALS,
      });
      expect({ code: run.code, end: (run.stdout + run.stderr).split('\n').slice(-15) }).toMatchObject({
        code: 0,
      });
      expect((await queue.pr(6)).state.toUpperCase()).toBe('MERGED');
    },
    BUILD_TIMEOUT_MS,
  );

  it('refuses an operation that is not one, naming the step, before running anything', async () => {
    const jenkinsfile = join(parent, 'Jenkinsfile.bad');
    writeFileSync(
      jenkinsfile,
      `@Library('merge-queue@${PINNED_REF}') _\npipeline { agent any\n stages { stage('x') { steps { mergeQueue operation: 'Submit; rm -rf /' } } } }\n`,
    );
    const run = await runJenkinsBuild(jenkinsfile, { workspace: repo.dir, env: pullRequestBuild() });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("ERROR: mergeQueue: 'operation' must name an operation");
    expect(run.stdout).not.toContain('[Pipeline] sh');
  });

  it('hands an input to the CLI as a variable, never through the shell', async () => {
    const jenkinsfile = join(parent, 'Jenkinsfile.quote');
    writeFileSync(
      jenkinsfile,
      `@Library('merge-queue@${PINNED_REF}') _\npipeline { agent any\n stages { stage('x') { steps { mergeQueue operation: 'submit-pull-request', inputs: [priority: '$(touch pwned)'] } } } }\n`,
    );
    const run = await runJenkinsBuild(jenkinsfile, {
      workspace: repo.dir,
      env: pullRequestBuild(),
      credentials: CREDENTIALS,
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('priority');
    expect(run.stdout).toContain('ERROR: script returned exit code 2');
    expect(() => readFileSync(join(repo.dir, 'pwned'))).toThrow();
  });
});

describeWithTools([TOOLS.groovy()], 'examples/ci/check-test-results/Jenkinsfile, the quarantine gate', () => {
  it(
    'npm ci and jest as pasted, the reports recorded, then the gate fails the build for the new failure only',
    async () => {
      const shop = join(parent, 'shop');
      for (const [file, text] of Object.entries(jestProjectFiles(shop))) {
        mkdirSync(dirname(join(shop, file)), { recursive: true });
        writeFileSync(join(shop, file), text);
      }
      const seed = quarantineSyncsWhenOffline(queue.repo);
      expect((await emu.control('POST', '/flaky-tests', seed)).status).toBe(200);
      const run = await runJenkinsBuild('examples/ci/check-test-results/Jenkinsfile', {
        workspace: shop,
        env: { ...pullRequestBuild(), CHANGE_ID: '7', BRANCH_NAME: 'PR-7' },
        credentials: CREDENTIALS,
      });
      const log = run.stdout + run.stderr;
      expect({ code: run.code, end: log.split('\n').slice(-6) }).toMatchObject({ code: 1 });
      expect(stages(log)).toEqual(['Test', 'Quarantine gate']);
      expect(log).toContain('Recording test results: 1 file(s), 2 failed test(s)');
      expect(log).toMatch(/ERROR: script returned exit code 1\nFinished: FAILURE\n$/);
      const outputs = JSON.parse(
        readFileSync(join(shop, 'check-test-results-outputs.json'), 'utf8'),
      ) as Record<string, unknown>;
      expect(outputs).toMatchObject({ 'failed-count': '2', 'step-failing-count': '1' });
      expect(readFileSync(join(shop, 'check-test-results-summary.md'), 'utf8')).toContain(
        'Cart expires after a timeout',
      );
    },
    BUILD_TIMEOUT_MS,
  );
});

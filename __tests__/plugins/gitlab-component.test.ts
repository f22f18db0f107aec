// The GitLab CI/CD components run by gitlab-ci-local (a real runner of .gitlab-ci.yml, from npm) with its
// shell executor, in a temporary git repository shaped like the component's own project: templates/
// copied in, a remote named origin, and a .gitlab-ci.yml that includes the components with
// `include: component:` at the current commit, which is how GitLab documents testing a component in
// its own project and which gitlab-ci-local resolves from the working tree. The jobs run the
// repository's built CLI (the components' `cli` input) against the emulator: a merge-request pipeline
// submits the PR and a later job reads the outputs from the dotenv report; a scheduled pipeline runs
// the flaky-test report.
//
// gitlab-ci-local needs Node 22 or later and Debian's rsync: the test finds gitlab-ci-local on PATH (or
// GITLAB_CI_LOCAL names its dist/index.js) and a Node 24 (NODE24, this Node, or one on PATH), and says
// what is missing when it cannot, as helpers/tool-gate.ts does; .ci/run installs them all.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { stringify } from 'yaml';
import { TEST_TOKEN, useEmulator } from '../helpers/emulator.js';
import { runScript, type ScriptRun } from '../helpers/run-script.js';
import { describeWithTools } from '../helpers/tool-gate.js';
import { TOOLS } from '../helpers/tools.js';

const RUNNER = [TOOLS.node24(), TOOLS.gitlabCiLocal(), TOOLS.rsync()];
const NODE24 = TOOLS.node24().path ?? '';
const GITLAB_CI_LOCAL = TOOLS.gitlabCiLocal().path ?? '';
// A whole pipeline per test, several CLI runs each: minutes on a busy machine, not jest's default 30 s.
const PIPELINE_TIMEOUT_MS = 240_000;

const emu = useEmulator();
const PROJECT = 'acme/widgets';
const CLI = `${process.execPath} ${resolve('dist/cli/index.js')}`;
let project: string;
let headSha: string;

const git = (...args: string[]) =>
  execFileSync('git', args, {
    cwd: project,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' },
  }).trim();

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'mqa-gitlab-'));
  cpSync('templates', join(project, 'templates'), { recursive: true });
  git('init', '-q', '-b', 'feature/faster-widgets');
  git('remote', 'add', 'origin', `git@gitlab.example.com:${PROJECT}.git`);
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

/** Commits .gitlab-ci.yml and runs the pipeline with gitlab-ci-local; answers the run and the commit. */
async function pipeline(config: unknown, variables: Record<string, string>): Promise<ScriptRun> {
  writeFileSync(join(project, '.gitlab-ci.yml'), stringify(config));
  git('add', '-A');
  git('-c', 'user.name=Test', '-c', 'user.email=test@example.com', 'commit', '-q', '-m', 'pipeline');
  headSha = git('rev-parse', 'HEAD');
  // What a clone has: origin's default branch, which gitlab-ci-local reads for CI_DEFAULT_BRANCH.
  git('update-ref', 'refs/remotes/origin/main', headSha);
  git('symbolic-ref', 'refs/remotes/origin/HEAD', 'refs/remotes/origin/main');
  // The shell executor for every job: the components name a Node image for real runners, and no
  // container runtime is here, so the jobs run in this machine's shell with its Node.
  const args = [GITLAB_CI_LOCAL, '--shell-executor-no-image', '--force-shell-executor', '--no-color'];
  // A merge-request or scheduled pipeline is told by CI_PIPELINE_SOURCE, which GitLab sets itself.
  args.push('--ignore-predefined-vars', 'CI_PIPELINE_SOURCE');
  for (const [name, value] of Object.entries(variables)) args.push('--variable', `${name}=${value}`);
  return runScript(NODE24, args, {}, { cwd: project, timeoutMs: 180_000 });
}

/** A component include at this commit, the way a component's own project tests it. */
const component = (name: string, inputs: Record<string, unknown>) => ({
  component: `$CI_SERVER_FQDN/$CI_PROJECT_PATH/${name}@$CI_COMMIT_SHA`,
  inputs: { cli: CLI, 'api-url': emu.current.url, ...inputs },
});

/** The repository as the gitlab-ci host reads it: CI_SERVER_URL's host and CI_PROJECT_PATH. */
const REPO = { host: 'gitlab.example.com', owner: 'acme', name: 'widgets' };

async function control(path: string, body: unknown): Promise<void> {
  const answer = await emu.control('POST', path, body);
  if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.text}`);
}

describeWithTools(RUNNER, 'GitLab CI/CD components under gitlab-ci-local', () => {
  beforeAll(async () => {
    await control('/queues', { repo: REPO, targetBranch: 'main' });
  });

  it(
    'a merge-request pipeline uploads impacted targets and submits the PR; a later job reads the outputs from the dotenv report',
    async () => {
      const run = await pipeline(
        {
          stages: ['build', 'test', 'deploy', 'report'],
          include: [
            component('set-impacted-targets', { needs: ['compute-impacted-targets'] }),
            component('submit-pull-request', { priority: 'high' }),
          ],
          'compute-impacted-targets': {
            stage: 'build',
            rules: [{ if: '$CI_MERGE_REQUEST_IID' }],
            script: ['printf "//app:widgets\\n//lib:gears\\n" > impacted-targets.txt'],
            artifacts: { paths: ['impacted-targets.txt'] },
          },
          'read-outputs': {
            stage: 'report',
            needs: ['merge-queue-submit'],
            rules: [{ if: '$CI_MERGE_REQUEST_IID' }],
            script: [
              'echo "submitted=$MERGE_QUEUE_OUTPUT_IS_SUBMITTED priority=$MERGE_QUEUE_OUTPUT_PRIORITY_NAME pr=$MERGE_QUEUE_OUTPUT_PR_NUMBER branch=$MERGE_QUEUE_OUTPUT_TARGET_BRANCH" > seen-outputs.txt',
            ],
          },
        },
        {
          TRUNK_API_TOKEN: TEST_TOKEN,
          CI_PIPELINE_SOURCE: 'merge_request_event',
          CI_MERGE_REQUEST_IID: '21',
          CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main',
          CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'feature/faster-widgets',
        },
      );
      expect({ code: run.code, log: run.stdout.split('\n').slice(-8) }).toMatchObject({ code: 0 });
      expect(run.stdout).toMatch(/PASS\s+merge-queue-impacted-targets/);
      expect(run.stdout).toMatch(/PASS\s+merge-queue-submit/);
      expect(run.stdout).toMatch(/PASS\s+read-outputs/);

      const answer = await emu.api('/getSubmittedPullRequest', {
        repo: REPO,
        targetBranch: 'main',
        pr: { number: 21 },
      });
      expect(answer.status).toBe(200);
      // The emulator knows the head sha from the upload: the one GitLab's variables named, this commit.
      expect(answer.json).toMatchObject({ prSha: headSha, priorityName: 'high' });

      const seen = readFileSync(join(project, 'seen-outputs.txt'), 'utf8').trim();
      expect(seen).toBe('submitted=true priority=high pr=21 branch=main');
      const summary = readFileSync(join(project, 'merge-queue-summary.md'), 'utf8');
      expect(summary).toContain('21');
      expect(run.stdout + run.stderr + seen + summary).not.toContain(TEST_TOKEN);
    },
    PIPELINE_TIMEOUT_MS,
  );

  it(
    'a scheduled pipeline reports flaky tests, keeps the summary and report, and fails on a broken test',
    async () => {
      await control('/flaky-tests', {
        repositories: [
          {
            repo: REPO,
            org_url_slug: 'acme',
            tests: [
              { name: 'widget spins', status: 'flaky', pull_requests_impacted_last_7d: 4 },
              { name: 'widget stops', status: 'flaky', pull_requests_impacted_last_7d: 1 },
              { name: 'widget ships', status: 'broken', pull_requests_impacted_last_7d: 9 },
              { name: 'widget exists', status: 'healthy' },
            ],
          },
        ],
      });
      rmSync(join(project, 'merge-queue-summary.md'), { force: true });
      const run = await pipeline(
        { include: [component('flaky-report', { 'org-url-slug': 'acme', 'fail-on': 'broken' })] },
        { TRUNK_API_TOKEN: TEST_TOKEN, CI_PIPELINE_SOURCE: 'schedule' },
      );
      expect(run.code).not.toBe(0);
      expect(run.stdout).toMatch(/FAIL\s+flaky-test-report/);

      const summary = readFileSync(join(project, 'merge-queue-summary.md'), 'utf8');
      expect(summary).toContain('widget ships');
      const [reportDir] = readdirSync(join(project, 'merge-queue-report'));
      const reportFiles = readdirSync(join(project, 'merge-queue-report', reportDir!));
      const report = readFileSync(join(project, 'merge-queue-report', reportDir!, reportFiles[0]!), 'utf8');
      for (const name of ['widget spins', 'widget stops', 'widget ships']) expect(report).toContain(name);
      expect(report).not.toContain('widget exists');
    },
    PIPELINE_TIMEOUT_MS,
  );
});

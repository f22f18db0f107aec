// The GitLab CI/CD components run by gitlab-ci-local (a real runner of .gitlab-ci.yml, from npm) with its
// shell executor, in a temporary git repository shaped like a user's project, with a remote named origin.
// The jobs run the repository's built CLI (the components' `cli` input, given on gitlab-ci-local's
// command line) against the emulator.
//
// First the README's GitLab snippets, verbatim (read from README.md, so that they cannot drift): the
// component include (which is also examples/gitlab-ci/.gitlab-ci.yml), and the `include: project` and
// `include: remote` forms. gitlab-ci-local fetches an include from another project into its include
// cache (.gitlab-ci-local/includes/<host>/<path>); this test seeds that cache with this checkout's
// templates/ at the address the snippet names, as GitLab would serve the tag. Each snippet runs in a
// merge request pipeline and in an external pull request pipeline (a GitHub repository mirrored in
// GitLab): the submit job is there, manual, and submits the right PR when started, or by itself with
// `submit: automatic`; a branch pipeline has no such job.
//
// Then the components at the current commit, `include: component:` with
// `$CI_SERVER_FQDN/$CI_PROJECT_PATH/<name>@$CI_COMMIT_SHA`, which is how GitLab documents testing a
// component in its own project: a merge-request pipeline uploads targets and submits the PR and a later
// job reads the outputs from the dotenv report; a scheduled pipeline runs the flaky-test report.
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
import { QueueDriver, TEST_TOKEN, useEmulator } from '../helpers/emulator.js';
import { runScript, type ScriptRun } from '../helpers/run-script.js';
import { seedIncludeCache } from '../helpers/gitlab-project.js';
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
  // gitlab-ci-local's state (include cache, job logs) is not part of the project.
  writeFileSync(join(project, '.git', 'info', 'exclude'), '.gitlab-ci-local/\n');
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

/** Commits .gitlab-ci.yml (YAML text, or an object to write as YAML); answers the commit. */
function commitPipeline(config: unknown): string {
  writeFileSync(join(project, '.gitlab-ci.yml'), typeof config === 'string' ? config : stringify(config));
  git('add', '-A');
  git(
    '-c',
    'user.name=Test',
    '-c',
    'user.email=test@example.com',
    'commit',
    '-q',
    '--allow-empty',
    '-m',
    'pipeline',
  );
  headSha = git('rev-parse', 'HEAD');
  // What a clone has: origin's default branch, which gitlab-ci-local reads for CI_DEFAULT_BRANCH.
  git('update-ref', 'refs/remotes/origin/main', headSha);
  git('symbolic-ref', 'refs/remotes/origin/HEAD', 'refs/remotes/origin/main');
  return headSha;
}

/** Runs the committed pipeline with gitlab-ci-local, with these variables and more of its options. */
function gitlabCiLocal(variables: Record<string, string>, options: string[] = []): Promise<ScriptRun> {
  // The shell executor for every job: the components name a Node image for real runners, and no
  // container runtime is here, so the jobs run in this machine's shell with its Node.
  const args = [GITLAB_CI_LOCAL, '--shell-executor-no-image', '--force-shell-executor', '--no-color'];
  // A merge-request or scheduled pipeline is told by CI_PIPELINE_SOURCE, which GitLab sets itself.
  args.push('--ignore-predefined-vars', 'CI_PIPELINE_SOURCE', ...options);
  for (const [name, value] of Object.entries(variables)) args.push('--variable', `${name}=${value}`);
  return runScript(NODE24, args, {}, { cwd: project, timeoutMs: 180_000 });
}

/** Commits .gitlab-ci.yml and runs the pipeline with gitlab-ci-local. */
async function pipeline(config: unknown, variables: Record<string, string>): Promise<ScriptRun> {
  commitPipeline(config);
  return gitlabCiLocal(variables);
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
            component('submit-pull-request', { priority: 'high', submit: 'automatic' }),
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

describeWithTools(RUNNER, "the CLI's colours in a GitLab job log, under gitlab-ci-local", () => {
  // GitLab's job log shows ANSI colours although a job's output is no terminal: SGR codes, not the
  // \e[0K of its collapsible sections.
  // eslint-disable-next-line no-control-regex -- ANSI colour codes are what it reads
  const SGR = /\u001b\[(?:1|2|3\d)m/;
  const report = (variables: Record<string, string> = {}) =>
    pipeline(
      { include: [component('flaky-report', { 'org-url-slug': 'acme', 'fail-on': 'broken' })] },
      { TRUNK_API_TOKEN: TEST_TOKEN, CI_PIPELINE_SOURCE: 'schedule', ...variables },
    );
  // The job's stdout (the page) and stderr (the log), as gitlab-ci-local shows them.
  const jobLines = (run: ScriptRun) =>
    `${run.stdout}\n${run.stderr}`.split('\n').filter((line) => /^flaky-test-report\s+>/.test(line));

  it(
    "colours the log and the result page (the table's header, the failure in red); NO_COLOR and FORCE_COLOR=0 turn them off",
    async () => {
      await control('/flaky-tests', {
        repositories: [
          { repo: REPO, org_url_slug: 'acme', tests: [{ name: 'widget ships', status: 'broken' }] },
        ],
      });
      const coloured = jobLines(await report());
      expect(coloured.find((line) => /TEST.*STATUS/.test(line))).toMatch(SGR);
      expect(coloured.find((line) => line.includes('fail-on broken'))).toContain('\u001b[31m');
      const offs: Record<string, string>[] = [{ NO_COLOR: '1' }, { FORCE_COLOR: '0' }];
      for (const off of offs) {
        const plain = jobLines(await report(off));
        expect(plain.find((line) => /TEST.*STATUS/.test(line))).toBeDefined();
        expect([off, plain.filter((line) => SGR.test(line))]).toEqual([off, []]);
      }
    },
    PIPELINE_TIMEOUT_MS,
  );
});

// The README's snippets submit and wait until the PR merges: this emulator's clock runs 600 times real
// time, so a PR's simulated CI (5 virtual minutes) passes in half a second.
const fast = useEmulator({ timeScale: 600 });

/** The README's yaml blocks that include the submit-pull-request component one way or another. */
function readmeSnippets(): string[] {
  const readme = readFileSync('README.md', 'utf8');
  return [...readme.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)]
    .map((match) => match[1]!)
    .filter((block) => /submit-pull-request(@|\.yml)/.test(block));
}

/** The one README snippet that includes the submit component `by` component, project or remote. */
function readmeSnippet(by: 'component' | 'project' | 'remote'): string {
  const found = readmeSnippets().filter((block) => new RegExp(`^\\s*- ${by}: `, 'm').test(block));
  expect(found).toHaveLength(1);
  return found[0]!;
}

/** The include cache of the test's project, seeded with this checkout's templates for `snippet`. */
const seedIncludes = (snippet: string) => seedIncludeCache(project, snippet);

const MERGE_REQUEST_PIPELINE = {
  CI_PIPELINE_SOURCE: 'merge_request_event',
  CI_MERGE_REQUEST_IID: '21',
  CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main',
  CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'feature/faster-widgets',
  CI_MERGE_REQUEST_PROJECT_PATH: PROJECT,
  CI_MERGE_REQUEST_SOURCE_PROJECT_PATH: PROJECT,
};
/** A GitHub pull request built by GitLab in a project that mirrors octo-org/octo-repo. */
const externalPullRequestPipeline = (sha: string) => ({
  CI_PIPELINE_SOURCE: 'external_pull_request_event',
  CI_EXTERNAL_PULL_REQUEST_IID: '31',
  CI_EXTERNAL_PULL_REQUEST_SOURCE_BRANCH_NAME: 'feature/faster-widgets',
  CI_EXTERNAL_PULL_REQUEST_SOURCE_BRANCH_SHA: sha,
  CI_EXTERNAL_PULL_REQUEST_TARGET_BRANCH_NAME: 'main',
  CI_EXTERNAL_PULL_REQUEST_SOURCE_REPOSITORY: 'octo-org/octo-repo',
  CI_EXTERNAL_PULL_REQUEST_TARGET_REPOSITORY: 'octo-org/octo-repo',
});
const BRANCH_PIPELINE = { CI_PIPELINE_SOURCE: 'push' };
/** The manual job that starts the submit job. */
const BUTTON = 'merge-queue-submit: press to submit';

/** The jobs gitlab-ci-local would run for these variables: name, when, allow_failure. */
async function listJobs(variables: Record<string, string>, inputs: string[] = []) {
  const run = await gitlabCiLocal(variables, ['--list-json', ...inputs]);
  expect({ code: run.code, stderr: run.stderr.slice(-500) }).toMatchObject({ code: 0 });
  const jobs = JSON.parse(run.stdout.slice(run.stdout.search(/^\[/m))) as {
    name: string;
    when: string;
    allow_failure: boolean;
  }[];
  return jobs.map(({ name, when, allow_failure }) => ({ name, when, allow_failure }));
}

describeWithTools(RUNNER, "the README's GitLab snippets, verbatim, under gitlab-ci-local", () => {
  const mirrored = new QueueDriver(fast, 'octo-org/octo-repo');
  // The CLI of this checkout and the emulator, given as the components' inputs; pipeline variables for
  // the token and a one-second poll, as a user would set them in the project's CI/CD settings.
  const inputs = () => ['--input', `cli=${CLI}`, '--input', `api-url=${fast.current.url}`];
  const variables = { TRUNK_API_TOKEN: TEST_TOKEN, MERGE_QUEUE_POLL_INTERVAL_SECONDS: '1' };

  beforeAll(async () => {
    const answer = await fast.control('POST', '/queues', { repo: REPO, targetBranch: 'main' });
    expect(answer.status).toBe(200);
    await mirrored.create();
  });

  it('the component snippet is examples/gitlab-ci/.gitlab-ci.yml', () => {
    expect(readmeSnippet('component')).toBe(readFileSync('examples/gitlab-ci/.gitlab-ci.yml', 'utf8'));
  });

  it.each(['component', 'project', 'remote'] as const)(
    'include by %s: a manual submit job in merge request and external pull request pipelines',
    async (by) => {
      const snippet = readmeSnippet(by);
      seedIncludes(snippet);
      const sha = commitPipeline(snippet);
      // The button is allowed to fail, so that an unpressed one leaves the pipeline alone; the submit job
      // it starts is not, so that a failed submit fails the pipeline.
      const manual = [
        { name: BUTTON, when: 'manual', allow_failure: true },
        { name: 'merge-queue-submit', when: 'on_success', allow_failure: false },
      ];
      expect(await listJobs(MERGE_REQUEST_PIPELINE)).toEqual(manual);
      expect(await listJobs(externalPullRequestPipeline(sha))).toEqual(manual);
    },
    PIPELINE_TIMEOUT_MS,
  );

  it(
    'with submit: automatic the submit job runs with the pipeline; a branch pipeline has none',
    async () => {
      const snippet = readmeSnippet('component');
      seedIncludes(snippet);
      const sha = commitPipeline(snippet);
      const automatic = await listJobs(externalPullRequestPipeline(sha), ['--input', 'submit=automatic']);
      expect(automatic.filter((job) => job.when !== 'never')).toEqual([
        { name: 'merge-queue-submit', when: 'on_success', allow_failure: false },
      ]);
      const branch = await listJobs(BRANCH_PIPELINE);
      expect(branch.filter((job) => job.when !== 'never')).toEqual([]);
    },
    PIPELINE_TIMEOUT_MS,
  );

  it(
    'a merge request pipeline: started by hand, the job submits merge request !21 and waits until it merges',
    async () => {
      const snippet = readmeSnippet('component');
      seedIncludes(snippet);
      commitPipeline(snippet);
      const run = await gitlabCiLocal({ ...variables, ...MERGE_REQUEST_PIPELINE }, [
        ...inputs(),
        '--manual',
        BUTTON,
      ]);
      expect({ code: run.code, log: run.stdout.split('\n').slice(-8) }).toMatchObject({ code: 0 });
      expect(run.stdout).toMatch(/PASS\s+merge-queue-submit/);
      const answer = await fast.api<{ state: string }>('/getSubmittedPullRequest', {
        repo: REPO,
        targetBranch: 'main',
        pr: { number: 21 },
      });
      expect(answer.json.state.toUpperCase()).toBe('MERGED');
      const report = readFileSync(join(project, 'merge-queue.env'), 'utf8');
      expect(report).toContain('MERGE_QUEUE_OUTPUT_PR_NUMBER=21\n');
      expect(report).toMatch(/^MERGE_QUEUE_OUTPUT_STATE=merged$/im);
      expect(run.stdout + run.stderr + report).not.toContain(TEST_TOKEN);
    },
    PIPELINE_TIMEOUT_MS,
  );

  it(
    'a submit that fails after the button is pressed is a failed job and a failed pipeline, not a warning',
    async () => {
      const snippet = readmeSnippet('component');
      seedIncludes(snippet);
      commitPipeline(snippet);
      const refused = { ...variables, TRUNK_API_TOKEN: 'not-the-token', ...MERGE_REQUEST_PIPELINE };
      const run = await gitlabCiLocal(refused, [...inputs(), '--manual', BUTTON]);
      expect(run.stdout).toMatch(/PASS\s+merge-queue-submit: press to submit/);
      expect(run.stdout).toMatch(/FAIL\s+merge-queue-submit\s*$/m);
      expect(run.stdout).not.toMatch(/WARN\s+merge-queue-submit/);
      expect(run.stdout).toContain('401');
    },
    PIPELINE_TIMEOUT_MS,
  );

  it(
    'an external pull request pipeline with submit: automatic: the job runs by itself and submits GitHub PR #31 of the mirrored repository',
    async () => {
      const snippet = readmeSnippet('component');
      seedIncludes(snippet);
      const sha = commitPipeline(snippet);
      const run = await gitlabCiLocal({ ...variables, ...externalPullRequestPipeline(sha) }, [
        ...inputs(),
        '--input',
        'submit=automatic',
      ]);
      expect({ code: run.code, log: run.stdout.split('\n').slice(-8) }).toMatchObject({ code: 0 });
      expect(run.stdout).toMatch(/PASS\s+merge-queue-submit/);
      expect((await mirrored.state(31)).toUpperCase()).toBe('MERGED');
      const report = readFileSync(join(project, 'merge-queue.env'), 'utf8');
      expect(report).toContain('MERGE_QUEUE_OUTPUT_PR_NUMBER=31\n');
      expect(report).toMatch(/^MERGE_QUEUE_OUTPUT_STATE=merged$/im);
      expect(report).toContain('MERGE_QUEUE_OUTPUT_REPO=octo-org/octo-repo\n');
    },
    PIPELINE_TIMEOUT_MS,
  );
});

// examples/gitlab-ci/full-pipeline.gitlab-ci.yml as a user commits it, run by gitlab-ci-local against the
// emulator: every job of a merge request pipeline (targets computed with git from origin, uploaded, the
// submit button pressed, a later job reading the outputs) and of a scheduled one (the flaky-test report).
// The components come from this checkout's templates/, where GitLab would find them in a copy of this
// repository. The jobs run the components' default CLI command as pasted, with only its download from
// GitHub swapped for this checkout's build (helpers/npx-shim.ts). Then the quarantine gate pipeline of
// examples/ci/check-test-results/gitlab-ci.yml, whole: its test job runs npm ci and jest in the project
// of helpers/jest-project.ts, and the gate job reads the report that job left.
// gitlab-ci-local and Node 24 as in gitlab-component.test.ts.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { readFileSync, rmSync } from 'node:fs';
import { GITLAB_HOST, GitlabProject } from '../helpers/gitlab-project.js';
import { TEST_TOKEN, useEmulator } from '../helpers/emulator.js';
import { quarantineSyncsWhenOffline } from '../helpers/junit-sample.js';
import { pathWithNpxShim } from '../helpers/npx-shim.js';
import { runScript } from '../helpers/run-script.js';
import { jestProjectFiles } from '../helpers/jest-project.js';
import { describeWithTools } from '../helpers/tool-gate.js';
import { TOOLS } from '../helpers/tools.js';

const RUNNER = [TOOLS.node24(), TOOLS.gitlabCiLocal(), TOOLS.rsync()];
const PIPELINE_TIMEOUT_MS = 240_000;
const EXAMPLE = readFileSync('examples/gitlab-ci/full-pipeline.gitlab-ci.yml', 'utf8');
const PATH = pathWithNpxShim();

// The PR's simulated CI (5 virtual minutes) passes in half a second at 600 times real time.
const emu = useEmulator({ timeScale: 600 });
const REPO = { host: GITLAB_HOST, owner: 'acme', name: 'widgets' };
let project: GitlabProject;
let headSha: string;

beforeAll(() => {
  project = new GitlabProject('acme/widgets');
  const base = { 'svc/api/handler.txt': 'v1\n', 'lib/gears.txt': 'v1\n', '.gitlab-ci.yml': EXAMPLE };
  project.commit(base, 'base');
  project.publish('main');
  project.git('checkout', '-q', '-b', 'feature/faster-api');
  headSha = project.commit({ 'svc/api/handler.txt': 'v2\n' }, 'faster api');
  project.seedIncludes(EXAMPLE);
});
afterAll(() => project?.remove());

describeWithTools(RUNNER, 'examples/gitlab-ci/full-pipeline.gitlab-ci.yml under gitlab-ci-local', () => {
  const inputs = () => ['--input', `api-url=${emu.current.url}`];

  beforeAll(async () => {
    const answer = await emu.control('POST', '/queues', { repo: REPO, targetBranch: 'main' });
    expect(answer.status).toBe(200);
  });

  it(
    'a merge request pipeline: targets computed from origin and uploaded; the button submits, waits for the merge, and the next job reads the state',
    async () => {
      const run = await project.run(
        {
          TRUNK_API_TOKEN: TEST_TOKEN,
          MERGE_QUEUE_POLL_INTERVAL_SECONDS: '1',
          CI_PIPELINE_SOURCE: 'merge_request_event',
          CI_MERGE_REQUEST_IID: '21',
          CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main',
          CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'feature/faster-api',
        },
        [...inputs(), '--manual', 'merge-queue-submit: press to submit'],
        PATH,
      );
      expect({ code: run.code, log: run.stdout.split('\n').slice(-12) }).toMatchObject({ code: 0 });
      for (const job of ['compute-impacted-targets', 'merge-queue-impacted-targets', 'merge-queue-submit']) {
        expect(run.stdout).toMatch(new RegExp(`PASS\\s+${job}\\b`));
      }
      expect(run.stdout).toMatch(/PASS\s+merged\b/);
      expect(run.stdout).toMatch(/^merged\s+> PR #21 is MERGED$/m);
      // The pages as read, without the colours GitLab's job log shows.
      // eslint-disable-next-line no-control-regex -- ANSI colour codes are what it reads
      const pages = run.stdout.replace(/\u001b\[[0-9;]*m/g, '');
      // Targets from git diff against origin's main: the one directory the PR changed.
      expect(pages).toMatch(/^merge-queue-impacted-targets\s+> Uploaded 1 impacted target for PR #21$/m);
      expect(/^merge-queue-submit\s+>\s+Head sha\s+(\w+)$/m.exec(pages)?.[1]).toBe(headSha.slice(0, 7));
      const answer = await emu.api<{ state: string }>('/getSubmittedPullRequest', {
        repo: REPO,
        targetBranch: 'main',
        pr: { number: 21 },
      });
      expect(answer.json.state.toUpperCase()).toBe('MERGED');
      expect(run.stdout + run.stderr).not.toContain(TEST_TOKEN);
    },
    PIPELINE_TIMEOUT_MS,
  );

  it(
    'a scheduled pipeline runs the flaky-test report alone, and fails it on a broken test',
    async () => {
      const seed = await emu.control('POST', '/flaky-tests', {
        repositories: [
          {
            repo: REPO,
            org_url_slug: 'your-org',
            tests: [
              { name: 'api answers', status: 'flaky', pull_requests_impacted_last_7d: 3 },
              { name: 'api starts', status: 'broken', pull_requests_impacted_last_7d: 5 },
            ],
          },
        ],
      });
      expect(seed.status).toBe(200);
      // The merge request pipeline's summary must not stand in for this one's.
      rmSync(`${project.dir}/merge-queue-summary.md`, { force: true });
      const schedule = { TRUNK_API_TOKEN: TEST_TOKEN, CI_PIPELINE_SOURCE: 'schedule' };
      const run = await project.run(schedule, inputs(), PATH);
      expect(run.code).not.toBe(0);
      expect(run.stdout).toMatch(/FAIL\s+flaky-test-report/);
      expect(run.stdout).not.toMatch(/merge-queue-submit|compute-impacted-targets/);
      expect(readFileSync(`${project.dir}/merge-queue-summary.md`, 'utf8')).toContain('api starts');
    },
    PIPELINE_TIMEOUT_MS,
  );
});

const GATE_EXAMPLE = readFileSync('examples/ci/check-test-results/gitlab-ci.yml', 'utf8');

describeWithTools(RUNNER, 'examples/ci/check-test-results/gitlab-ci.yml under gitlab-ci-local', () => {
  let gateProject: GitlabProject;
  beforeAll(async () => {
    gateProject = new GitlabProject('acme/shop');
    // The project's jest runs in the test job (shell executor: in the project's folder).
    gateProject.commit({ '.gitlab-ci.yml': GATE_EXAMPLE, ...jestProjectFiles(gateProject.dir) }, 'tests');
    gateProject.publish('main');
    const seed = await emu.control(
      'POST',
      '/flaky-tests',
      quarantineSyncsWhenOffline({ host: GITLAB_HOST, owner: 'acme', name: 'shop' }),
    );
    expect(seed.status).toBe(200);
  });
  afterAll(() => gateProject?.remove());

  it(
    'npm ci and jest as pasted (allowed to fail); the gate job reads the report, passes the quarantined failure and fails for the new one',
    async () => {
      const run = await gateProject.run(
        {
          MERGE_QUEUE_API_TOKEN: TEST_TOKEN,
          MERGE_QUEUE_API_URL: emu.current.url,
          CI_PIPELINE_SOURCE: 'merge_request_event',
          CI_MERGE_REQUEST_IID: '8',
          CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main',
        },
        [],
        PATH,
      );
      expect(run.stdout).toMatch(/WARN\s+test/);
      expect(run.stdout).toMatch(/FAIL\s+quarantine-gate/);
      const summary = readFileSync(`${gateProject.dir}/gate-summary.md`, 'utf8');
      expect(summary).toContain('Cart expires after a timeout');
      expect(run.stdout).toMatch(/^quarantine-gate\s+> 1 of 2 failed tests fails this step$/m);
      expect(run.stdout).toMatch(/^quarantine-gate\s+>\s+Cart syncs when offline\s+quarantined\b/m);
      expect(run.stdout + run.stderr + summary).not.toContain(TEST_TOKEN);
    },
    PIPELINE_TIMEOUT_MS,
  );
});

/** The README's fenced block in `language` that contains `marker`. */
function readmeBlock(language: string, marker: string): string {
  const blocks = [...readFileSync('README.md', 'utf8').matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)]
    .filter(([, lang, text]) => lang === language && text!.includes(marker))
    .map(([, , text]) => text!);
  expect(blocks).toHaveLength(1);
  return blocks[0]!;
}

describeWithTools(RUNNER, "the README's GitLab rehearsal, one command against the emulator", () => {
  // The emulator as the README starts it (token dev-token), its clock fast enough for a test.
  const rehearsal = useEmulator({ token: 'dev-token', timeScale: 600 });
  let mine: GitlabProject;
  beforeAll(async () => {
    const snippet = readmeBlock('yaml', 'submit-pull-request@main');
    mine = new GitlabProject('acme/widgets');
    mine.commit({ '.gitlab-ci.yml': snippet }, 'merge queue');
    mine.publish('main');
    mine.seedIncludes(snippet);
    const queue = { repo: { host: GITLAB_HOST, owner: 'acme', name: 'widgets' }, targetBranch: 'main' };
    expect((await rehearsal.control('POST', '/queues', queue)).status).toBe(200);
  });
  afterAll(() => mine?.remove());

  it(
    "runs the README's snippet with the button pressed: merge request !42 merges",
    async () => {
      // As pasted, but for where gitlab-ci-local is and the emulator's port (the README's is 8787).
      const command = readmeBlock('sh', 'gitlab-ci-local@')
        .replace(/^npx --yes gitlab-ci-local@\S+/, '"$NODE24" "$GITLAB_CI_LOCAL"')
        .replaceAll('http://127.0.0.1:8787/v1', rehearsal.current.url);
      const run = await runScript(
        '/bin/bash',
        ['-euo', 'pipefail', '-c', command],
        {
          PATH,
          NODE24: TOOLS.node24().path ?? '',
          GITLAB_CI_LOCAL: TOOLS.gitlabCiLocal().path ?? '',
          MERGE_QUEUE_POLL_INTERVAL_SECONDS: '1',
        },
        { cwd: mine.dir, timeoutMs: 180_000 },
      );
      expect({ code: run.code, log: run.stdout.split('\n').slice(-10) }).toMatchObject({ code: 0 });
      expect(run.stdout).toMatch(/PASS\s+merge-queue-submit\s*$/m);
      const answer = await rehearsal.api<{ state: string }>('/getSubmittedPullRequest', {
        repo: { host: GITLAB_HOST, owner: 'acme', name: 'widgets' },
        targetBranch: 'main',
        pr: { number: 42 },
      });
      expect(answer.json.state.toUpperCase()).toBe('MERGED');
    },
    PIPELINE_TIMEOUT_MS,
  );
});

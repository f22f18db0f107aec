// The README's GitLab snippet for the weekly plan, verbatim, run by gitlab-ci-local (a real runner of
// .gitlab-ci.yml) with its shell executor against the emulator, which holds two and a half days of a
// queue (330 PRs). The include resolves to this checkout's templates/queue-plan.yml, as GitLab would
// serve it from a copy of the repository; the jobs run this checkout's built CLI (the `cli` input).
//
// The Monday schedule (PLAN_QUEUE_SETTINGS=true) exports, plans from the exported file and keeps the
// table and the report; a job of the user's after it reads fit and the recommendation from the dotenv
// report. The nightly schedule has the export job alone, and its history file comes back from the cache:
// a second night adds nothing. Nothing but reads reaches the service.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Scenario } from '../../emulator/scenario.js';
import { useEmulator } from '../helpers/emulator.js';
import { GitlabProject } from '../helpers/gitlab-project.js';
import { plannedPullRequests } from '../helpers/planner-history.js';
import { describeWithTools } from '../helpers/tool-gate.js';
import { TOOLS } from '../helpers/tools.js';
import { startCheckingProxy, type CheckingProxy } from '../helpers/v2-requests.js';

const RUNNER = [TOOLS.node24(), TOOLS.gitlabCiLocal(), TOOLS.rsync()];
const PIPELINE_TIMEOUT_MS = 300_000;
const CLI = `${process.execPath} ${resolve('dist/cli/index.js')}`;
const PRS = 330;
const GAP_MINUTES = 10;
// The export reads the last 45 days before now: the emulator's history ends a day before the real clock.
const START = Math.floor((Date.now() - 4 * 86_400_000) / 60_000) * 60_000;
const REPO = { host: 'gitlab.example.com', owner: 'acme', name: 'widgets' };

function scenario(): Scenario {
  const pullRequests = plannedPullRequests('acme/widgets', PRS, (i) => i * GAP_MINUTES).map((pr) => ({
    ...pr,
    repo: REPO,
  }));
  return { queues: [{ repo: REPO, targetBranch: 'main', concurrency: 4 }], pullRequests };
}

const emulator = useEmulator({ startTime: START, scenario: scenario() });
let proxy: CheckingProxy;
let project: GitlabProject;

/** The README's one yaml block that includes the queue-plan component. */
function readmeSnippet(): string {
  const readme = readFileSync('README.md', 'utf8');
  const found = [...readme.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)]
    .map((match) => match[1]!)
    .filter((block) => block.includes('/queue-plan@'));
  expect(found).toHaveLength(1);
  return found[0]!;
}

/** A job of the user's after the plan: what a bot would post, from the outputs and the artifact. */
const POST_THE_TABLE = `
post-the-table:
  stage: deploy
  needs: [queue-plan]
  rules:
    - if: $PLAN_QUEUE_SETTINGS == "true"
  script:
    - echo "fit=$MERGE_QUEUE_OUTPUT_FIT recommendation=$MERGE_QUEUE_OUTPUT_RECOMMENDATION" > posted.txt
    - cat merge-queue-summary.md >> posted.txt
  artifacts:
    paths: [posted.txt]
`;

// Each job in a directory of its own (as a runner has it), which is also what makes gitlab-ci-local's
// shell executor keep caches.
const options = () => ['--shell-isolation', '--input', `cli=${CLI}`, '--input', `api-url=${proxy.origin}/v1`];
const schedule = (variables: Record<string, string> = {}) => ({
  TRUNK_API_TOKEN: emulator.current.v2Key,
  CI_PIPELINE_SOURCE: 'schedule',
  ...variables,
});

describeWithTools(RUNNER, "the README's weekly plan for GitLab, under gitlab-ci-local", () => {
  beforeAll(async () => {
    proxy = await startCheckingProxy(emulator.current.origin);
    await emulator.control('POST', '/clock/advance', { minutes: PRS * GAP_MINUTES + 600 });
    project = new GitlabProject('acme/widgets');
    const snippet = readmeSnippet();
    project.seedIncludes(snippet);
    project.commit({ '.gitlab-ci.yml': `${snippet}${POST_THE_TABLE}` }, 'weekly plan');
    project.publish('main');
  });

  afterAll(async () => {
    project?.remove();
    await proxy?.close();
  });

  it(
    'on Mondays exports, plans and keeps the table; a later job reads fit and the recommendation',
    async () => {
      const run = await project.run(schedule({ PLAN_QUEUE_SETTINGS: 'true' }), options());
      expect({ code: run.code, log: run.stdout.split('\n').slice(-12) }).toMatchObject({ code: 0 });
      expect(run.stdout).toMatch(/PASS\s+queue-history-export/);
      expect(run.stdout).toMatch(/PASS\s+queue-plan/);
      expect(run.stderr).toMatch(/histories of 330 of 330 PRs read/);

      const [reportDir] = readdirSync(join(project.dir, 'merge-queue-report'));
      const files = readdirSync(join(project.dir, 'merge-queue-report', reportDir!));
      const report = JSON.parse(
        readFileSync(join(project.dir, 'merge-queue-report', reportDir!, files[0]!), 'utf8'),
      );
      expect(report).toMatchObject({ fit: true, synthetic: false });
      expect(report.backtest.recorded.merged).toBeGreaterThan(300);

      // What the later job posts: the outputs, then the table with the recommendation or the verdict.
      const posted = readFileSync(join(project.dir, 'posted.txt'), 'utf8');
      const recommended = report.recommendation ? JSON.stringify(report.recommendation.patch) : '';
      expect(posted.split('\n')[0]).toBe(`fit=true recommendation=${recommended}`);
      // The verdict is the table's headline sentence, capitalised (and markdown-escaped past its start).
      const opening = report.recommendation ? 'Recommended: ' : report.verdict.split(' (')[0].slice(1);
      expect(posted).toContain(opening);
      expect(posted).toMatch(/recorded/);
      expect(posted).toContain('It compares settings under the same assumptions');
      // The plan alone: not the export's summary, which came to the plan job with the history.
      expect(posted).not.toContain('Queue history exported');
      expect(run.stdout + run.stderr + posted).not.toContain(emulator.current.v2Key);
    },
    PIPELINE_TIMEOUT_MS,
  );

  it(
    'every night exports alone, and the history comes back from the cache: a second night adds nothing',
    async () => {
      // Only the cache has it now: the file the last pipeline's artifacts left in the checkout is gone.
      rmSync(join(project.dir, 'queue-history.jsonl.gz'));
      const run = await project.run(schedule(), options());
      expect({ code: run.code, log: run.stdout.split('\n').slice(-12) }).toMatchObject({ code: 0 });
      expect(run.stdout).toMatch(/PASS\s+queue-history-export/);
      expect(run.stdout).not.toMatch(/queue-plan\s+>/);
      // Not one entry or run again, nor the same settings.
      expect(run.stderr).toMatch(/export: 0 new records appended .*\(330 entries, 394 runs read\)/);
      expect(existsSync(join(project.dir, 'queue-history.jsonl.gz'))).toBe(true);
    },
    PIPELINE_TIMEOUT_MS,
  );

  it('never sends anything but a read', () => {
    expect(proxy.all.length).toBeGreaterThan(10);
    expect(proxy.all.filter((request) => !request.startsWith('GET '))).toEqual([]);
    expect(proxy.problems).toEqual([]);
  });
});

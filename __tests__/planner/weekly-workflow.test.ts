// The README's weekly workflow for GitHub Actions, as pasted, run whole (helpers/github-workflow.ts: `on:`
// against the schedule event, `if:` by GitHub's own evaluator, this action as action.yml runs it,
// actions/cache across runs) against the emulator, which holds five days of a queue (330 PRs). A night
// exports and keeps the file in the cache; Monday's run gets it back from the cache, adds nothing to it,
// plans, and leaves the table in the job summary and the report as an artifact. Nothing but reads reaches
// the service.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Scenario } from '../../emulator/scenario.js';
import { useEmulator } from '../helpers/emulator.js';
import { runWorkflow, type WorkflowEvent } from '../helpers/github-workflow.js';
import { plannedPullRequests } from '../helpers/planner-history.js';
import { startCheckingProxy, type CheckingProxy } from '../helpers/v2-requests.js';

const REPO = 'acme/weekly';
const PRS = 330;
const GAP_MINUTES = 10;
// The export reads the last 45 days before now: the emulator's history ends a day before the real clock.
const START = Math.floor((Date.now() - 5 * 86_400_000) / 60_000) * 60_000;
const TIMEOUT_MS = 240_000;

function scenario(): Scenario {
  const pullRequests = plannedPullRequests(REPO, PRS, (i) => i * GAP_MINUTES);
  return { queues: [{ repo: REPO, targetBranch: 'main', concurrency: 3 }], pullRequests };
}

const emulator = useEmulator({ startTime: START, scenario: scenario() });
let proxy: CheckingProxy;
const root = mkdtempSync(join(tmpdir(), 'weekly-workflow-'));

/** The README's one workflow that runs plan-queue-settings. */
function readmeWorkflow(): string {
  const blocks = [...readFileSync('README.md', 'utf8').matchAll(/^```yaml\n([\s\S]*?)^```$/gm)]
    .map((match) => match[1]!)
    .filter((text) => /^on:/m.test(text) && text.includes('operation: plan-queue-settings'));
  expect(blocks).toHaveLength(1);
  return blocks[0]!;
}

const scheduled = (cron: string): WorkflowEvent => ({
  name: 'schedule',
  payload: { schedule: cron },
  sha: '0000000000000000000000000000000000000000',
  ref: 'refs/heads/main',
});

/** One run of the workflow on a fresh runner: only the cache is kept from the runs before. */
async function run(cron: string, runId: string) {
  rmSync(join(root, 'queue-plan'), { recursive: true, force: true });
  const jobs = await runWorkflow(readmeWorkflow(), scheduled(cron), {
    repository: REPO,
    origin: root,
    secrets: { TRUNK_API_TOKEN: emulator.current.v2Key },
    root,
    env: { GITHUB_RUN_ID: runId },
    actionInputs: { 'api-url': `${proxy.origin}/v1` },
  });
  expect(jobs).toHaveLength(1);
  return jobs[0]!;
}

const outcomes = (job: Awaited<ReturnType<typeof run>>) => job.steps.map((step) => step.outcome);

describe("the README's weekly workflow for GitHub Actions, run whole", () => {
  beforeAll(async () => {
    proxy = await startCheckingProxy(emulator.current.origin);
    await emulator.control('POST', '/clock/advance', { minutes: PRS * GAP_MINUTES + 1800 });
  });

  afterAll(async () => {
    await proxy?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it(
    'a night exports into the cache; Monday gets it back, adds nothing, plans and keeps the table and the report',
    async () => {
      const night = await run('17 3 * * *', '1001');
      expect(night.result).toBe('success');
      // cache (nothing yet), export, plan and the report's upload skipped.
      expect(outcomes(night)).toEqual(['success', 'success', 'skipped', 'skipped']);
      expect(night.steps[1]!.outputs).toMatchObject({ prs: String(PRS) });
      expect(Number(night.steps[1]!.outputs.added)).toBeGreaterThan(PRS);

      const monday = await run('47 3 * * 1', '1002');
      expect({ result: monday.result, log: monday.steps.at(-1)!.log }).toMatchObject({ result: 'success' });
      expect(outcomes(monday)).toEqual(['success', 'success', 'success', 'success']);
      expect(monday.steps[0]!.log).toContain('Cache restored from key: queue-history-1001');
      expect(monday.steps[1]!.outputs).toMatchObject({ added: '0', prs: String(PRS) });

      const plan = monday.steps[2]!.outputs;
      expect(plan.fit).toBe('true');
      expect(monday.summary).toContain('recorded');
      expect(monday.summary).toContain('It compares settings under the same assumptions');
      const [report] = readdirSync(join(root, 'artifacts', 'queue-plan'));
      const uploaded = JSON.parse(readFileSync(join(root, 'artifacts', 'queue-plan', report!), 'utf8'));
      expect(uploaded).toMatchObject({ fit: true, synthetic: false });
      expect(uploaded.backtest.recorded.merged).toBeGreaterThan(300);
      expect(plan.recommendation).toBe(
        uploaded.recommendation ? JSON.stringify(uploaded.recommendation.patch) : '',
      );
      expect(existsSync(join(root, 'caches', 'queue-history-1002', 'queue-history.jsonl.gz'))).toBe(true);
    },
    TIMEOUT_MS,
  );

  it('never sends anything but a read', () => {
    expect(proxy.all.length).toBeGreaterThan(10);
    expect(proxy.all.filter((request) => !request.startsWith('GET '))).toEqual([]);
    expect(proxy.problems).toEqual([]);
  });
});

// The summary of every operation leads with its outcome: its first line is a heading with an icon that a
// person reads in five seconds (merged, failed, paused, 3 flaky tests...), the details after it. Each
// operation runs once through run() against the emulator, in the order a repository's life would take
// them (one the story does not tell runs from its help example); every summary is then drawn as GitHub
// draws it.
import { beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OPERATIONS, OPERATION_NAMES, type OperationName } from '../../src/core/operations/registry.js';
import { runAction, type ActionRun } from '../helpers/action-runner.js';
import { QueueDriver, TEST_TOKEN, useEmulator } from '../helpers/emulator.js';
import { prepareExampleWorld, sampleInputs, sampleSucceeds } from '../helpers/operation-samples.js';
import { launchChromium } from '../helpers/chromium.js';
import { itWithTools } from '../helpers/tool-gate.js';
import { TOOLS } from '../helpers/tools.js';
import { SummaryRenderer } from '../helpers/render-summary.js';
import { example } from '../helpers/webhook-examples.js';

const emulator = useEmulator();
const payload = example('pull_request', (p) => p.action === 'opened');
const [owner, name] = payload.repository.full_name.split('/') as [string, string];
const BRANCH = payload.pull_request.base.ref;
const ORG = 'octo-org';
const TEST_ID = '0b8f3c2e-5d4a-4e7b-9c1f-2a3b4c5d6e7f';
const dir = mkdtempSync(join(tmpdir(), 'mqa-summaries-'));

/** The first line of each operation's summary, and the whole summary to draw. */
const written = new Map<OperationName, ActionRun>();

async function act(operation: OperationName, inputs: Record<string, string> = {}): Promise<ActionRun> {
  const result = await runAction({
    eventName: 'pull_request',
    payload,
    env: { GITHUB_REPOSITORY: `${owner}/${name}` },
    inputs: {
      operation,
      'api-url': emulator.current.url,
      'api-token': TEST_TOKEN,
      'target-branch': BRANCH,
      ...inputs,
    },
  });
  written.set(operation, result);
  return result;
}

beforeAll(async () => {
  const seeded = await fetch(`${emulator.current.origin}/_emulator/flaky-tests`, {
    method: 'POST',
    headers: { 'x-api-token': TEST_TOKEN, 'content-type': 'application/json' },
    body: JSON.stringify({
      repositories: [
        {
          repo: { host: 'github.com', owner, name },
          org_url_slug: ORG,
          tests: [
            {
              id: TEST_ID,
              name: 'CheckoutService > applies the discount',
              status: 'flaky',
              failures: [{ at: '2025-01-05T08:00:00Z', summary: 'TimeoutError: 5000ms exceeded' }],
            },
          ],
        },
      ],
    }),
  });
  expect(seeded.status).toBe(200);
  writeFileSync(
    join(dir, 'targets.yml'),
    'rules:\n  - match: "services/{name}/**"\n    targets: ["svc:{name}"]\nunmatched: all\n',
  );
  writeFileSync(join(dir, 'changed.txt'), 'services/payments/api.ts\nservices/checkout/cart.ts\n');
  writeFileSync(
    join(dir, 'junit.xml'),
    '<testsuite name="s"><testcase classname="CheckoutService" name="applies the discount"><failure message="TimeoutError"/></testcase><testcase classname="Cart" name="adds"/></testsuite>',
  );
});

describe('the summary of every operation', () => {
  it('leads with its outcome, in the order a queue lives', async () => {
    const queue = new QueueDriver(emulator, `${owner}/${name}`, BRANCH);
    await act('create-queue', { concurrency: '1' });
    await act('get-queue');
    await act('update-queue', { 'testing-timeout-minutes': '45' });
    await act('pause-queue');
    await act('drain-queue');
    await act('resume-queue');
    await act('set-impacted-targets', { 'impacted-targets': '["svc:payments"]' });
    await act('compute-impacted-targets', {
      'targets-config': join(dir, 'targets.yml'),
      'changed-files-from': 'file',
      'changed-files-file': join(dir, 'changed.txt'),
    });
    await act('lint-impacted-targets-config', { 'targets-config': join(dir, 'targets.yml') });
    await act('submit-pull-request');
    await act('get-submitted-pull-request');
    await act('restart-tests-on-pull-request');
    await act('list-pull-requests');
    const testRunId = String((await queue.pr(payload.pull_request.number)).verifiedByTestRun ?? '');
    // The operations only v2 serves, with the emulator's v2 key.
    const v2 = { 'api-token': emulator.current.v2Key, 'api-version': 'v2' };
    await act('reprioritize-pull-request', { ...v2, priority: 'high' });
    await act('update-queue-entry', { ...v2, 'no-batch': 'true' });
    await act('get-queue-entry-history', v2);
    await act('list-verification-runs', v2);
    await act('get-verification-run', { ...v2, 'test-run-id': testRunId });
    await act('list-testing-results', v2);
    await act('export-queue-history', { ...v2, history: join(dir, 'history.jsonl') });
    await act('plan-queue-settings', { history: join(dir, 'history.jsonl') });
    await act('get-merge-queue-testing-details', { 'test-run-id': testRunId });
    await act('describe-merge-queue-run', { 'test-run-id': testRunId });
    await act('get-merge-queue-metrics');
    await act('cancel-pull-request');
    await act('delete-queue');
    await act('list-unhealthy-tests', { 'org-url-slug': ORG });
    await act('list-quarantined-tests', { 'org-url-slug': ORG });
    await act('list-failing-tests', { 'org-url-slug': ORG });
    await act('check-test-results', { 'org-url-slug': ORG, 'junit-paths': join(dir, 'junit.xml') });
    await act('get-test-details', { 'org-url-slug': ORG, 'test-id': TEST_ID });
    await act('link-ticket-to-test-case', { 'test-case-id': TEST_ID, 'external-ticket-id': 'PAY-12' });
    // Any other operation (a new one) from its sample: its first help example, in a world of its own.
    const failedSamples: string[] = [];
    for (const operation of OPERATION_NAMES.filter((name) => !written.has(name))) {
      const repo = `${owner}/sample-${operation}`;
      await prepareExampleWorld(emulator, repo);
      const v2: Record<string, string> =
        OPERATIONS[operation].api === 'v2' ? { 'api-token': emulator.v2Key, 'api-version': 'v2' } : {};
      const run = await act(operation, { repo, ...v2, ...sampleInputs(operation) });
      if (run.failed && sampleSucceeds(operation)) failedSamples.push(`${operation}: ${run.error}`);
    }
    // Its help example runs as the help says (exit 0) unless it fails on purpose.
    expect(failedSamples).toEqual([]);

    expect([...written.keys()].sort()).toEqual(Object.keys(OPERATIONS).sort());
    const firstLines = Object.fromEntries(
      [...written].map(([operation, run]) => [operation, run.summary.split('\n')[0]]),
    );
    const withoutOutcome = Object.entries(firstLines).filter(
      ([, line]) => !/^## \p{Extended_Pictographic}\uFE0F? \S/u.test(line ?? ''),
    );
    expect(withoutOutcome).toEqual([]);
    // A few outcomes a person would look for, said in the first line.
    expect(firstLines['pause-queue']).toMatch(/paused/i);
    expect(firstLines['cancel-pull-request']).toMatch(/cancelled/i);
    expect(firstLines['delete-queue']).toMatch(/deleted/i);
  }, 120_000);

  itWithTools(
    [TOOLS.chromium()],
    'draws as GitHub draws it: no broken or empty-headed table, every chart renders, nothing a reader stumbles on',
    async () => {
      expect(written.size).toBe(Object.keys(OPERATIONS).length);
      const browser = await launchChromium();
      try {
        const renderer = await SummaryRenderer.open(browser);
        const broken = [];
        for (const [operation, run] of written) {
          const rendered = await renderer.render(run.summary);
          if (rendered.problems.length || rendered.reading.length || rendered.charts.some(Boolean))
            broken.push({
              operation,
              problems: [...rendered.problems, ...rendered.reading],
              charts: rendered.charts.filter(Boolean),
            });
        }
        expect(broken).toEqual([]);
      } finally {
        await browser.close();
      }
    },
    120_000,
  );
});

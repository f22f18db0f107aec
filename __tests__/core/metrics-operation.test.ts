import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { renderSummary } from '../helpers/render-summary.js';
import { toolsFor } from '../helpers/tool-gate.js';
import { TOOLS } from '../helpers/tools.js';
import { startEmulator, type Emulator } from '../../emulator/server.js';
import { prepareFrom } from '../helpers/prepare.js';
import { runOperation } from '../helpers/prepare.js';
import { REPO, apiClient, control } from '../helpers/queue-harness.js';

let emulator: Emulator;
const OTHER_REPO = { host: 'github.com', owner: 'acme', name: 'api' };

// octo-org/octo-repo, concurrency 2, CI runs of 5 minutes: PRs 1 and 2 test first and merge at minute 5, then 3
// and 4 test; PR 5 waits for GitHub to call it mergeable; PR 6 is cancelled. acme/api holds one PR.
beforeAll(async () => {
  emulator = await startEmulator();
  const client = apiClient(emulator);
  const ref = { repo: REPO, targetBranch: 'main' };
  await client.call('createQueue', { ...ref, concurrency: 2 });
  await control(emulator, 'pull-requests', {
    repo: 'octo-org/octo-repo',
    number: 5,
    mergeability: 'not_mergeable',
  });
  for (const number of [1, 2, 3, 4, 5, 6]) await client.call('submitPullRequest', { ...ref, pr: { number } });
  await client.call('cancelPullRequest', { ...ref, pr: { number: 6 } });
  await control(emulator, 'clock/advance', { minutes: 7 });
  await client.call('createQueue', { repo: OTHER_REPO, targetBranch: 'main' });
  await client.call('submitPullRequest', { repo: OTHER_REPO, targetBranch: 'main', pr: { number: 1 } });
});

afterAll(async () => {
  await emulator.close();
});

describe('get-merge-queue-metrics', () => {
  it("puts one repository's headline figures in outputs and the summary, and the text in metrics-file", async () => {
    const run = await runOperation(emulator, 'get-merge-queue-metrics', {});

    expect(run.failure).toBeUndefined();
    expect(run.warnings).toEqual([]);
    expect(run.outputs).toMatchObject({
      // In line: #3 and #4 (testing); #5 is not ready, so it is not counted.
      depth: 2,
      testing: 2,
      'awaiting-mergeability': 1,
      'merged-last-hour': 2,
      'failed-last-hour': 0,
      'cancelled-last-hour': 1,
    });
    const text = readFileSync(String(run.outputs['metrics-file']), 'utf8');
    expect(text).toContain('# TYPE mq_depth_current gauge');
    expect(text).not.toContain('acme/api');
    expect(run.outputs.response).toBe(text);
    expect(run.summaryText).toContain('| PRs in the queue (depth) | 2 |');
    expect(run.summaryText).toContain('| Concluded in the last hour | 2 merged, 0 failed, 1 cancelled |');
    expect(run.summaryText).toContain('| Average test duration (last hour) | 5m 0s over 2 PRs |');
    // One queue (its bisection lane idle): no per-queue table.
    expect(run.summaryText).not.toContain('### By queue');
    // The outcome first: the figures a person looks for, percentiles from the histograms, a chart.
    expect(run.summaryText.split('\n')[0]).toMatch(/^## 📊 Merge queue: \S+, last hour$/);
    expect(run.summaryText).toContain(
      '| In queue | Testing | Merged | Failed | Wait before testing p50 / p90 | Test duration p50 | Time in queue p50 |',
    );
    expect(run.summaryText).toMatch(/\| 2 \| 2 \| 2 \| 0 \| [^|]+ \/ [^|]+ \| 1m–5m \| [^|]+ \|/);
    // Two 5-minute runs, both in the 1m–5m bucket: interpolated as Prometheus does, 60 + 240 / 2.
    expect(run.outputs['test-duration-p50-seconds']).toBe(180);
    expect(run.summaryText).toMatch(/```mermaid\n%%\{init: .*\}%%\nxychart-beta horizontal\n/);
    expect(run.summaryText).toContain('| Waited under 1m |');
    expect(run.summaryText).toContain('<details><summary>Every figure</summary>');
    // Drawn in Chromium as GitHub draws it: the table parses and the chart renders.
    if (toolsFor([TOOLS.chromium()], 'drawing the metrics summary in Chromium'))
      expect(await renderSummary(run.summaryText)).toMatchObject({ problems: [], charts: [''], reading: [] });
  }, 60_000);

  it('narrows to the branch given by target-branch', async () => {
    const run = await runOperation(emulator, 'get-merge-queue-metrics', { 'target-branch': 'release' });
    expect(run.outputs).toMatchObject({ depth: 0, testing: 0, 'merged-last-hour': 0 });
    expect(run.summaryText).toContain('The service reported no queue in this scope.');
  });

  it('asks for every repository with all-repositories, and shows each queue', async () => {
    const run = await runOperation(emulator, 'get-merge-queue-metrics', { 'all-repositories': 'true' });
    expect(run.outputs).toMatchObject({ depth: 3, testing: 3 });
    expect(readFileSync(String(run.outputs['metrics-file']), 'utf8')).toContain('repo="acme/api"');
    expect(run.summaryText).toContain('| Repositories | every repository of the organization |');
    expect(run.summaryText).toContain('| acme/api | main | main | 1 | 1 | 0 | 0 | 0 | 0 | 0 |');
    expect(run.summaryText).toContain('| octo-org/octo-repo | main | main | 2 | 2 | 1 | 2 | 0 | 1 | 0 |');
    expect(run.summaryText).not.toContain('| bisection |');
  });

  it('refuses all-repositories together with repo', () => {
    const inputs: Record<string, string> = {
      operation: 'get-merge-queue-metrics',
      'api-token': 'secret-token',
      'all-repositories': 'true',
      repo: 'octo-org/octo-repo',
    };
    expect(() => prepareFrom(inputs)).toThrow(
      'Input "all-repositories": is true, which asks for every repository of the organization, but repo is set too. Remove repo to get every repository, or all-repositories to get one.',
    );
  });

  it('keeps text it cannot parse in metrics-file, and fails with one line: garbage is never success', async () => {
    emulator.faults.plan('/getMergeQueueMetrics', [
      { kind: 'status', status: 200, body: 'Sign in to continue', contentType: 'text/plain' },
    ]);
    const run = await runOperation(emulator, 'get-merge-queue-metrics', {});
    expect(run.outputs['metrics-file']).toBeUndefined();
    expect(run.outputs.depth).toBeUndefined();
    const kept = / it is in (\S+\/metrics\.prom) as sent\./.exec(run.failure ?? '')?.[1];
    expect(readFileSync(String(kept), 'utf8')).toBe('Sign in to continue');
    expect(run.failure).toMatch(
      /^getMergeQueueMetrics failed: the API answered 200 with text that is not Prometheus metrics; it is in .* Check api-url \(it should be the v1 API base\)\.$/,
    );
  });
});

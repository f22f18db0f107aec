import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { startEmulator, type Emulator } from '../../emulator/server.js';
import { runOperation } from '../helpers/prepare.js';
import { REPO, apiClient, control } from '../helpers/queue-harness.js';

let emulator: Emulator;
const ref = { repo: REPO, targetBranch: 'main' };

interface Report {
  complete: boolean;
  pages: number;
  pullRequests: { prNumber: number; state: string; stateChangedAt: string }[];
}

function report(path: unknown): Report {
  return JSON.parse(readFileSync(String(path), 'utf8')) as Report;
}

beforeAll(async () => {
  emulator = await startEmulator();
  const client = apiClient(emulator);
  await client.call('createQueue', { ...ref, concurrency: 2 });
  for (let number = 1; number <= 7; number++)
    await client.call('submitPullRequest', { ...ref, pr: { number } });
  await control(emulator, 'clock/run-until-idle', {});
  await client.call('submitPullRequest', { ...ref, pr: { number: 8 } });
  await client.call('cancelPullRequest', { ...ref, pr: { number: 8 } });
});

afterAll(async () => {
  await emulator.close();
});

describe('list-pull-requests', () => {
  it('follows the cursor to the last page and writes every row to report-file', async () => {
    const run = await runOperation(emulator, 'list-pull-requests', { take: '3' });

    expect(run.failure).toBeUndefined();
    expect(run.outputs).toMatchObject({ count: 8, pages: 3, complete: true });
    const written = report(run.outputs['report-file']);
    expect(written.complete).toBe(true);
    expect(written.pullRequests.map((pr) => pr.prNumber).sort((a, b) => a - b)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8,
    ]);
    // `response` is the last page as the service sent it.
    expect(JSON.parse(String(run.outputs.response)).pullRequests).toHaveLength(2);
    expect(run.summaryText).toContain('## 📋 8 pull requests in the merge queue for <code>main</code>');
    // Columns the service left empty (title, author) are left out, not filled with "unknown".
    expect(run.summaryText).toContain('| PR | State | In this state | Priority |');
    expect(run.summaryText).toMatch(
      /\| \[#<!-- -->8\]\(https:\/\/github\.com\/octo-org\/octo-repo\/pull\/8\) \| CANCELLED \| \d+[sm] \|/,
    );
  });

  it('stops at max-pages, keeps what it read, and fails saying how to get the rest', async () => {
    const run = await runOperation(emulator, 'list-pull-requests', { take: '3', 'max-pages': '2' });

    expect(run.outputs).toMatchObject({ count: 6, pages: 2, complete: false });
    expect(report(run.outputs['report-file']).pullRequests).toHaveLength(6);
    expect(run.failure).toBe(
      `Stopped after max-pages (2) pages of up to 3 with more PRs to come; raise max-pages or narrow since/until. The 6 PR(s) read are in ${String(run.outputs['report-file'])}.`,
    );
  });

  it('sends the state filter and the concluded-in window', async () => {
    const cancelled = await runOperation(emulator, 'list-pull-requests', { state: 'CANCELLED' });
    expect(report(cancelled.outputs['report-file']).pullRequests.map((pr) => pr.prNumber)).toEqual([8]);
    expect(cancelled.summaryText).toContain(
      '## 📋 1 pull request CANCELLED in the merge queue for <code>main</code>',
    );

    const merged = report(
      (await runOperation(emulator, 'list-pull-requests', { state: 'merged' })).outputs['report-file'],
    );
    expect(merged.pullRequests).toHaveLength(7);
    const times = merged.pullRequests.map((pr) => pr.stateChangedAt).sort();
    const since = times[3]!;
    const recent = await runOperation(emulator, 'list-pull-requests', { state: 'merged', since });
    expect(recent.outputs.count).toBe(times.filter((time) => time >= since).length);
    expect(recent.outputs.count).toBeLessThan(7);
  });

  it('says so when the branch has no queue', async () => {
    await expect(runOperation(emulator, 'list-pull-requests', {}, { targetBranch: 'nope' })).rejects.toThrow(
      /^No merge queue exists for branch nope of github\.com\/octo-org\/octo-repo \(listPullRequests answered 404\)\. Check target-branch, repo and repo-host\. \(the service said: .*\)$/,
    );
  });
});

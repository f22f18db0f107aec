// The emulator's queue endpoints and metrics, over HTTP: create/get/update/delete, listPullRequests
// paging and filters, and the Prometheus text of getMergeQueueMetrics.
import { describe, expect, it } from '@jest/globals';
import { Value } from '@sinclair/typebox/value';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListPullRequestsResponse, Queue, QueueConfiguration } from '../../src/wire/index.js';
import { QueueDriver, useEmulator } from '../helpers/emulator.js';
import { toolsFor } from '../helpers/tool-gate.js';
import { TOOLS } from '../helpers/tools.js';

const emu = useEmulator();
let repoCount = 0;
const freshRepo = () => new QueueDriver(emu, `queues/repo-${++repoCount}`);
const refOf = (queue: QueueDriver) => ({ repo: queue.repo, targetBranch: queue.branch });

describe('createQueue and getQueue', () => {
  it('creates a queue once (409 the second time) and returns its full configuration', async () => {
    const queue = freshRepo();
    expect((await emu.api('/getQueue', refOf(queue))).status).toBe(404);
    const created = await emu.api('/createQueue', { ...refOf(queue), mode: 'Parallel', concurrency: 3 });
    expect([created.status, created.text]).toEqual([200, '{}']);
    const again = await emu.api('/createQueue', refOf(queue));
    expect(again.status).toBe(409);
    expect(again.contentType).toMatch(/^text\/plain/);
    const got = await emu.api('/getQueue', refOf(queue));
    expect(Value.Check(Queue, got.json)).toBe(true);
    expect(got.json).toMatchObject({
      state: 'running',
      mode: 'parallel',
      concurrency: 3,
      branch: 'main',
      enqueuedPullRequests: [],
    });
  });

  it('lists enqueued PRs in queue order, leaving out PRs that are not ready', async () => {
    const queue = freshRepo();
    await queue.create({ concurrency: 1 });
    await queue.setPr(3, { mergeability: 'in_progress' });
    await queue.submit(1);
    await queue.submit(2, { priority: 'low' });
    await queue.submit(3);
    await queue.submit(4, { priority: 'high' });
    const listed = (await queue.queue()).enqueuedPullRequests.map((p) => [p.prNumber, p.state]);
    expect(listed).toEqual([
      [1, 'testing'],
      [4, 'pending'],
      [2, 'pending'],
    ]);
  });
});

describe('updateQueue', () => {
  it('returns the full configuration without the enqueued PRs', async () => {
    const queue = freshRepo();
    await queue.create();
    const answer = await queue.update({ concurrency: 4, batch: true, directMergeMode: 'ALWAYS' });
    expect(answer.status).toBe(200);
    expect(Value.Check(QueueConfiguration, answer.json)).toBe(true);
    expect(answer.json).not.toHaveProperty('enqueuedPullRequests');
    expect(answer.json).toMatchObject({ concurrency: 4, batch: true, directMergeMode: 'always' });
  });

  it('refuses fields it does not take, naming each, and changes nothing', async () => {
    const queue = freshRepo();
    await queue.create();
    const answer = await queue.update({ concurrency: 4, concurency: 5, enqueueingLabel: 'ship-it' });
    expect(answer.status).toBe(400);
    expect(answer.contentType).toMatch(/^text\/plain/);
    expect(answer.text).toMatch(
      /^updateQueue does not take the fields "concurency", "enqueueingLabel"; it takes /,
    );
    const after = await queue.queue();
    expect(after.concurrency).toBe(1);
    expect(after).not.toHaveProperty('enqueueingLabel');
  });

  it('refuses integers below 1 and a state of switching_modes', async () => {
    const queue = freshRepo();
    await queue.create();
    for (const bad of [
      { concurrency: 0 },
      { batchingMinSize: -1 },
      { testingTimeoutMinutes: 1.5 },
      { state: 'switching_modes' },
    ]) {
      const answer = await queue.update(bad);
      expect(answer.status).toBe(400);
      expect(answer.contentType).toMatch(/^text\/plain/);
    }
  });

  it('ignores an empty requiredStatuses and reverts to the default with deleteRequiredStatuses', async () => {
    const queue = freshRepo();
    await queue.create();
    expect((await queue.update({ requiredStatuses: ['ci/build', 'ci/test'] })).json).toMatchObject({
      requiredStatuses: ['ci/build', 'ci/test'],
    });
    expect((await queue.update({ requiredStatuses: [] })).json).toMatchObject({
      requiredStatuses: ['ci/build', 'ci/test'],
    });
    expect((await queue.update({ deleteRequiredStatuses: true })).json).toMatchObject({
      requiredStatuses: [],
    });
  });

  it('answers 404 for a branch without a queue', async () => {
    expect((await freshRepo().update({ concurrency: 2 })).status).toBe(404);
  });
});

describe('deleteQueue', () => {
  it('refuses with 400 while PRs remain, deletes an empty queue, and ignores a missing one', async () => {
    const queue = freshRepo();
    await queue.create();
    await queue.submit(8);
    const refused = await emu.api('/deleteQueue', refOf(queue));
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/still holds 1 pull request\(s\) \(#8\)/);
    await queue.runUntilIdle();
    expect((await emu.api('/deleteQueue', refOf(queue))).text).toBe('{}');
    expect((await emu.api('/getQueue', refOf(queue))).status).toBe(404);
    expect((await emu.api('/deleteQueue', refOf(queue))).status).toBe(200);
  });
});

describe('listPullRequests', () => {
  type Listing = { pullRequests: { prNumber: number; state: string }[]; nextCursor?: string };

  it('pages with take and nextCursor until the last page, which has no cursor', async () => {
    const queue = freshRepo();
    await queue.create({ concurrency: 10 });
    for (let pr = 1; pr <= 7; pr++) await queue.submit(pr);
    const seen: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const answer = await emu.api<Listing>('/listPullRequests', {
        ...refOf(queue),
        take: 3,
        ...(cursor ? { cursor } : {}),
      });
      expect(Value.Check(ListPullRequestsResponse, answer.json)).toBe(true);
      seen.push(...answer.json.pullRequests.map((p) => p.prNumber));
      cursor = answer.json.nextCursor;
      pages++;
    } while (cursor);
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(pages).toBe(3);
    const defaults = await emu.api<Listing>('/listPullRequests', refOf(queue));
    expect(defaults.json.pullRequests).toHaveLength(7);
    expect(defaults.json).not.toHaveProperty('nextCursor');
    for (const take of [0, 101])
      expect((await emu.api('/listPullRequests', { ...refOf(queue), take })).status).toBe(400);
  });

  it('filters by state and by the time PRs concluded', async () => {
    const queue = freshRepo();
    await queue.create();
    await queue.ci(2, { outcome: 'fail' });
    await queue.submit(1);
    await queue.runUntilIdle();
    await queue.advance(1);
    const { now } = (await emu.control<{ now: string }>('GET', '/clock')).json;
    await queue.submit(2);
    await queue.runUntilIdle();
    await queue.submit(3);
    const list = async (filter: Record<string, unknown>) =>
      (await emu.api<Listing>('/listPullRequests', { ...refOf(queue), ...filter })).json.pullRequests.map(
        (p) => p.prNumber,
      );
    expect(await list({ state: 'MERGED' })).toEqual([1]);
    expect(await list({ state: 'failed' })).toEqual([2]);
    expect(await list({ since: now })).toEqual([2]);
    expect(await list({ until: now })).toEqual([1]);
    expect((await emu.api('/listPullRequests', { ...refOf(queue), since: 'yesterday' })).status).toBe(400);
  });
});

describe('getMergeQueueMetrics', () => {
  async function metrics(query = ''): Promise<Response> {
    return fetch(`${emu.current.url}/getMergeQueueMetrics${query}`, {
      headers: { 'x-api-token': emu.current.token },
    });
  }

  it('serves Prometheus text 0.0.4 computed from the queue, for one repository or all', async () => {
    const queue = freshRepo();
    await queue.create({ concurrency: 2 });
    await queue.ci(2, { outcome: 'fail' });
    for (const pr of [1, 2, 3]) await queue.submit(pr);
    await queue.runUntilIdle();
    await queue.submit(4);
    await queue.setPr(5, { mergeability: 'not_mergeable' });
    await queue.submit(5);

    const answer = await metrics(`?repo=${queue.repo.owner}/${queue.repo.name}&repoHost=github.com`);
    expect(answer.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await answer.text();
    const labels = `repo="${queue.repo.owner}/${queue.repo.name}",branch="main"`;
    // Depth counts the PRs in line: #4 waits its turn; #5 is not ready, so it is not in line.
    expect(text).toContain(`mq_depth_current{${labels},queue_type="main"} 1`);
    expect(text).toContain(`mq_awaiting_mergeability{${labels},queue_type="main"} 1`);
    expect(text).toContain(`mq_testing_slots_active{${labels},queue_type="main"} 1`);
    expect(text).toContain(`mq_pr_conclusions_1h_total{${labels},queue_type="main",conclusion="merged"} 2`);
    expect(text).toContain(`mq_pr_conclusions_1h_total{${labels},queue_type="main",conclusion="failed"} 1`);
    expect(text).toMatch(new RegExp(`mq_pr_restarts_1h_total\\{${labels},queue_type="main"\\} [1-9]`));
    for (const family of ['mq_depth_current', 'mq_pr_conclusions_1h_total', 'mq_pr_restarts_1h_total'])
      expect(text).toContain(`# TYPE ${family} gauge`);
    for (const le of ['60', '300', '600', '900', '1800', '3600', '5400', '7200', '+Inf']) {
      expect(text).toContain(`mq_pr_time_in_queue_1h_seconds_bucket{${labels},queue_type="main",le="${le}"}`);
    }
    expect(text).not.toMatch(/repo="queues\/repo-1"/);
    expect(await (await metrics()).text()).toMatch(/repo="queues\/repo-1"/);
    expect(checkWithPromtool(text)).toBe('');
  });

  it('answers 400 when only one of repo and repoHost is given', async () => {
    const answer = await metrics('?repo=a/b');
    expect(answer.status).toBe(400);
    expect(await answer.text()).toMatch(/repo and repoHost go together/);
  });
});

/**
 * The service documents the rolling one-hour counts as gauges named `..._1h_total`; promtool's naming
 * lint flags that, and only that is let through.
 */
const DOCUMENTED_GAUGE_TOTALS =
  /^(mq_pr_conclusions_1h_total|mq_pr_restarts_1h_total) non-counter metrics should not have "_total" suffix$/;

/** promtool's verdict on the text ('' when it is happy); skipped, saying so, where promtool is not installed. */
function checkWithPromtool(text: string): string {
  if (!toolsFor([TOOLS.promtool()], "promtool check metrics on the emulator's metrics")) return '';
  const file = join(mkdtempSync(join(tmpdir(), 'mq-metrics-')), 'metrics.txt');
  writeFileSync(file, text);
  try {
    execFileSync('sh', ['-c', `promtool check metrics < "${file}"`], { stdio: 'pipe' });
    return '';
  } catch (error) {
    const failure = error as { stdout?: Buffer; stderr?: Buffer };
    const output = `${failure.stdout?.toString() ?? ''}${failure.stderr?.toString() ?? ''}`;
    return output
      .split('\n')
      .filter((line) => line.trim() && !DOCUMENTED_GAUGE_TOTALS.test(line.trim()))
      .join('\n');
  }
}

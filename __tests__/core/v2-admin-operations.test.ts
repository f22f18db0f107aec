// More operations over v1 and over v2 against the emulator's one engine: queue administration, listing a
// queue's PRs, uploading impacted targets, a failed PR's checks (testing details), the metrics, the
// quarantined tests and ticket links; and a submit whose answer is lost after the service acted, which is
// read back and never sent twice. Every v2 request passes a proxy that checks it against the document.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { useEmulator } from '../helpers/emulator.js';
import { VERSIONS, overVersion, type Version } from '../helpers/over-versions.js';
import { tests } from '../helpers/flaky-harness.js';
import { startCheckingProxy, type CheckingProxy } from '../helpers/v2-requests.js';

const emulator = useEmulator({ timeScale: 600 });
let proxy: CheckingProxy;
const SHA = 'b'.repeat(40);

beforeAll(async () => {
  proxy = await startCheckingProxy(emulator.current.origin);
});

afterAll(async () => {
  await proxy.close();
  expect(proxy.problems).toEqual([]);
});

/** The v2 id of the repository's queue for main, as the service lists it. */
async function v2QueueId(repo: string): Promise<string> {
  const find = async (path: string) =>
    (await emulator.v2<{ data: { id: string }[] }>('GET', path)).json.data[0]!.id;
  const repositoryId = await find(
    `/v2/repositories?providerUrl=${encodeURIComponent(`https://github.com/${repo}`)}`,
  );
  return find(`/v2/merge-queues?repositoryId=${repositoryId}&targetBranch=main`);
}

function setUp(version: Version, name: string) {
  return overVersion(emulator, () => proxy, version, `octo-org/${name}-${version}`);
}

describe.each(VERSIONS)('over %s', (version) => {
  it('creates, reads, updates, pauses, resumes and deletes a queue', async () => {
    const { queue, act } = setUp(version, 'admin');
    const created = await act({ operation: 'create-queue', mode: 'single', concurrency: '3' });
    expect(created.failed).toBe(false);
    expect(created.outputs).toMatchObject({
      'queue-created': 'true',
      'queue-mode': 'single',
      concurrency: '3',
    });

    const updated = await act({ operation: 'update-queue', concurrency: '2', batch: 'true' });
    expect(updated.failed).toBe(false);
    expect(updated.outputs).toMatchObject({ concurrency: '2' });

    const paused = await act({ operation: 'pause-queue' });
    expect(paused.outputs['queue-state']).toBe('paused');
    const resumed = await act({ operation: 'resume-queue' });
    expect(resumed.outputs['queue-state']).toBe('running');

    await queue.ci(undefined, { outcome: 'hang' });
    await queue.submit(4);
    const read = await act({ operation: 'get-queue' });
    expect(read.outputs).toMatchObject({
      'queue-exists': 'true',
      'queue-state': 'running',
      'enqueued-count': '1',
    });
    expect(read.summary).toContain('single mode, concurrency 2, 1 PR in line');

    const refused = await act({ operation: 'delete-queue' });
    expect(refused.failed).toBe(true);
    expect(refused.error).toContain('#4');
    await queue.cancel(4);
    const deleted = await act({ operation: 'delete-queue' });
    expect(deleted.failed).toBe(false);
    expect((await act({ operation: 'get-queue' })).outputs['queue-exists']).toBe('false');
  });

  it('keeps a change whose read back fails: a warning and exit 0, as over v1', async () => {
    const { repo, act } = setUp(version, 'read-back');
    expect((await act({ operation: 'create-queue', concurrency: '3' })).failed).toBe(false);
    const path = version === 'v1' ? '/getQueue' : `/v2/merge-queues/${await v2QueueId(repo)}`;
    // Every read of the queue after the change is refused; those before it pass.
    const refused = { kind: 'status', status: 400, body: 'Bad Request' };
    await emulator.control('POST', '/faults', { path, faults: [{ kind: 'delay', ms: 0 }, refused, refused] });

    const updated = await act({ operation: 'update-queue', concurrency: '5' });
    await emulator.control('DELETE', '/faults');
    expect(updated.failed).toBe(false);
    expect(updated.log).toMatch(
      /The change was made, but reading the queue back failed: (getQueue|mergeQueues.get) failed/,
    );
    expect((await act({ operation: 'get-queue' })).outputs.concurrency).toBe('5');
  });

  it("lists a queue's PRs by state", async () => {
    const { queue, act } = setUp(version, 'list');
    await queue.create();
    await queue.ci(undefined, { outcome: 'hang' });
    await queue.submit(5);
    await queue.submit(6);
    await queue.cancel(6);
    const listed = await act({ operation: 'list-pull-requests', state: 'cancelled' });
    expect(listed.failed).toBe(false);
    const response = JSON.parse(listed.outputs.response ?? '{}') as { pullRequests: { prNumber: number }[] };
    expect(response.pullRequests.map((pr) => pr.prNumber)).toEqual([6]);
  });

  it('uploads impacted targets for the PR head', async () => {
    const { queue, act, repo } = setUp(version, 'targets');
    await queue.create({ mode: 'parallel' });
    const uploaded = await act({
      operation: 'set-impacted-targets',
      'pr-number': '8',
      'pr-sha': SHA,
      'impacted-targets': '//svc:api\n//libs:util',
    });
    expect(uploaded.failed).toBe(false);
    expect(uploaded.outputs['impacted-targets-count']).toBe('2');
    const [owner, name] = repo.split('/') as [string, string];
    const stored = emulator.current.engine.core.pullRequest(
      { host: 'github.com', owner, name },
      8,
    ).targetsBySha;
    expect(stored.get(SHA)).toEqual(['//svc:api', '//libs:util']);
  });

  it("names a failed PR's failing check, read from its test run", async () => {
    const { queue, act } = setUp(version, 'failing');
    await queue.create();
    await queue.ci(9, { outcome: 'fail', durationMinutes: 1 });
    const result = await act({ operation: 'submit-pull-request', 'pr-number': '9', 'wait-for': 'merged' });
    expect(result.failed).toBe(true);
    expect(result.outputs.state).toBe('FAILED');
    expect(JSON.parse(result.outputs['failing-checks'] ?? '[]')).toEqual([
      expect.objectContaining({ name: 'emulated-ci/test' }),
    ]);
  });

  it("reads the repository's metrics", async () => {
    const { queue, act } = setUp(version, 'metrics');
    await queue.create();
    const result = await act({ operation: 'get-merge-queue-metrics' });
    expect(result.failed).toBe(false);
    expect(result.outputs['metrics-file']).toBeTruthy();
  });
});

describe.each(VERSIONS)('flaky tests over %s', (version) => {
  it('lists the quarantined tests and links a ticket to one', async () => {
    const { act } = setUp(version, 'flaky');
    const repo = { host: 'github.com', owner: 'octo-org', name: `flaky-${version}` };
    const seeded = await emulator.control('POST', '/flaky-tests', {
      repositories: [
        {
          repo,
          org_url_slug: 'octo-org',
          auto_quarantine: true,
          ticket_url_template: 'https://tracker.example.com/browse/{id}',
          tests: [
            ...tests(2, 'flaky', `${version}-auto`),
            ...tests(1, 'broken', `${version}-held`).map((t) => ({
              ...t,
              quarantine_override: 'ALWAYS_QUARANTINE' as const,
              quarantined_at: '2025-01-01T00:00:00Z',
            })),
          ],
        },
      ],
    });
    expect(seeded.status).toBe(200);
    const listed = await act({ operation: 'list-quarantined-tests', 'org-url-slug': 'octo-org' });
    expect(listed.failed).toBe(false);
    expect(listed.outputs['quarantined-count']).toBe('3');
    expect(listed.summary).toContain('| always (set by a person) |');
    expect(listed.summary).toContain('| automatic |');

    const report = JSON.parse(listed.outputs.response ?? '{}') as {
      quarantined_tests: { test_case_id: string }[];
    };
    const testCaseId = report.quarantined_tests[0]!.test_case_id;
    const linked = await act({
      operation: 'link-ticket-to-test-case',
      'test-case-id': testCaseId,
      'external-ticket-id': 'PAY-42',
    });
    expect(linked.failed).toBe(false);
  });
});

describe.each(VERSIONS)('the nightly report over %s', (version) => {
  it("lists the flaky and broken tests of the run's repository with their counts, and over v2 goes only to v2", async () => {
    const { act } = setUp(version, 'nightly');
    const repo = { host: 'github.com', owner: 'octo-org', name: `nightly-${version}` };
    const seeded = await emulator.control('POST', '/flaky-tests', {
      repositories: [
        {
          repo,
          org_url_slug: 'octo-org',
          tests: [...tests(3, 'flaky', `${version}-nightly`), ...tests(2, 'broken', `${version}-nightly`)],
        },
      ],
    });
    expect(seeded.status).toBe(200);
    const before = proxy.all.length;
    const report = await act({ operation: 'list-unhealthy-tests', 'org-url-slug': 'octo-org' });
    expect([report.failed, report.error]).toEqual([false, '']);
    expect(report.outputs).toMatchObject({ 'flaky-count': '3', 'broken-count': '2' });
    expect(report.summary).toContain(`${version}-nightly`);
    // No column is left for what the service filled for no test (these tests have no owner or ticket).
    expect(report.summary).not.toMatch(/\| +\|/);
    const sent = proxy.all.slice(before);
    const spoken =
      version === 'v2' ? /^GET \/v2\/test-cases$/ : /^POST \/v1\/flaky-tests\/list-unhealthy-tests$/;
    expect(sent.filter((line) => spoken.test(line)).length).toBeGreaterThanOrEqual(2);
    expect(sent.filter((line) => line.includes(version === 'v2' ? '/v1/' : '/v2/'))).toEqual([]);
  });
});

async function emulatorNow(): Promise<string> {
  return (await emulator.control<{ now: string }>('GET', '/clock')).json.now;
}

describe.each(VERSIONS)("failing tests and a test's details over %s", (version) => {
  it('lists the tests that failed in the window and shows one, with no v1 request over v2', async () => {
    const { act } = setUp(version, 'failing');
    const repo = { host: 'github.com', owner: 'octo-org', name: `failing-${version}` };
    const now = Date.parse(await emulatorNow());
    const ago = (hours: number) => new Date(now - hours * 3_600_000).toISOString();
    const seeded = await emulator.control('POST', '/flaky-tests', {
      repositories: [
        {
          repo,
          org_url_slug: 'octo-org',
          tests: [
            {
              name: `${version} fails often`,
              status: 'flaky',
              failures: [{ at: ago(2), summary: 'TimeoutError' }],
              failure_rate_last_7d: 0.25,
              failure_rate_last_24h: 0.5,
            },
            {
              name: `${version} failed long ago`,
              status: 'flaky',
              failures: [{ at: ago(24 * 5), summary: 'x' }],
            },
          ],
        },
      ],
    });
    expect(seeded.status).toBe(200);
    const before = proxy.all.length;
    const window = { 'start-time': ago(24), 'end-time': ago(-1) };
    const failing = await act({ operation: 'list-failing-tests', 'org-url-slug': 'octo-org', ...window });
    expect([failing.failed, failing.error]).toEqual([false, '']);
    expect(failing.outputs['failing-count']).toBe('1');
    expect(failing.summary).toContain(`${version} fails often`);
    expect(failing.summary).not.toContain('failed long ago');
    expect(failing.summary).not.toMatch(/\| +\|/);

    const report = JSON.parse(failing.outputs.response ?? '{}') as { tests: { id: string }[] };
    const details = await act({
      operation: 'get-test-details',
      'org-url-slug': 'octo-org',
      'test-id': report.tests[0]!.id,
    });
    expect([details.failed, details.error]).toEqual([false, '']);
    expect(details.outputs['test-name']).toBe(`${version} fails often`);
    expect(details.summary).toMatch(/Failure rate 24h \/ 7d \| \d+\.\d% \/ \d+\.\d%/);
    const sent = proxy.all.slice(before);
    expect(sent.filter((line) => line.includes(version === 'v2' ? '/v1/' : '/v2/'))).toEqual([]);
  });
});

describe('a lost answer over v2', () => {
  it('reads a submit back after the connection was cut once the service had acted, and never submits twice', async () => {
    const { queue, act } = setUp('v2', 'lost');
    await queue.create();
    await queue.ci(undefined, { outcome: 'hang' });
    proxy.cutAfterAnswer('POST', /^\/v2\/merge-queues\/[^/]+\/pull-requests$/);
    const before = proxy.seen.length;
    const result = await act({ operation: 'submit-pull-request', 'pr-number': '11' });
    expect(result.failed).toBe(false);
    expect(result.outputs['already-queued']).toBe('false');
    expect(result.log).toMatch(
      /submitPullRequest: could not reach the API .* Read back: it was done, so it is not sent again\./,
    );
    const submits = proxy.seen.slice(before).filter((line) => /^POST .*\/pull-requests$/.test(line));
    expect(submits).toHaveLength(1);
    expect(await queue.state(11)).toBe('testing');
  });
});

describe('a restart whose answer is lost over v2 (the emulator cuts it after acting)', () => {
  it('reads the PR back and does not restart it a second time', async () => {
    const { queue, act } = setUp('v2', 'restart-lost');
    await queue.create();
    await queue.ci(undefined, { outcome: 'hang' });
    await queue.submit(12);
    const find = async <T>(path: string) => (await emulator.v2<{ data: T[] }>('GET', path)).json.data[0] as T;
    const providerUrl = encodeURIComponent('https://github.com/octo-org/restart-lost-v2');
    const repository = await find<{ id: string }>(`/v2/repositories?providerUrl=${providerUrl}`);
    const pr = await find<{ id: string }>(`/v2/pull-requests?repositoryId=${repository.id}&number=12`);
    const path = `/v2/pull-requests/${pr.id}/restart-tests`;
    const planned = await emulator.control('POST', '/faults', {
      path,
      faults: [{ kind: 'reset', afterHandling: true }],
    });
    expect(planned.status).toBe(200);

    const result = await act({ operation: 'restart-tests-on-pull-request', 'pr-number': '12' });
    expect(result.failed).toBe(false);
    expect(result.log).toMatch(
      /restartTestsOnPullRequest: could not reach the API .* Read back: it was done, so it is not sent again\./,
    );
    const requests = await emulator.control<Record<string, number>>('GET', '/faults/requests');
    expect(requests.json[path]).toBe(1);
  });
});

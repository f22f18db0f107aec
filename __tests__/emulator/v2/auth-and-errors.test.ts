// The v2 API's keys, permissions, errors and pages, as a client meets them over HTTP: every answer is
// checked against the v2 document by V2Calls, errors included.
import { beforeAll, describe, expect, it } from '@jest/globals';
import type { V2 } from '../../../src/wire/v2/index.js';
import { request, TEST_TOKEN, useEmulator } from '../../helpers/emulator.js';
import { V2Calls } from '../../helpers/v2-calls.js';

const READER = 'trunk_v2_reader0000000000000000000000000000';
const CI_BOT = 'trunk_v2_cibot00000000000000000000000000000';
const emulator = useEmulator({
  v2RateLimits: false,
  apiKeys: [
    { name: 'reader', permissions: [], key: READER },
    { name: 'ci-bot', permissions: ['mergeAndCancel'], key: CI_BOT },
  ],
});
const v2 = new V2Calls(emulator);
let repositoryId = '';
let queueId = '';

async function error(operation: Parameters<V2Calls['call']>[0], options: Parameters<V2Calls['call']>[1]) {
  const answer = await v2.call<{ error: { code: string; message: string } }>(operation, options);
  return { status: answer.status, ...answer.json.error };
}

beforeAll(async () => {
  const repos = await v2.ok<V2<'RepositoryList'>>('repositories.resolveByProviderUrl', {
    query: { providerUrl: 'https://github.com/acme/app' },
  });
  repositoryId = repos.data[0]!.id;
  queueId = (
    await v2.ok<V2<'MergeQueue'>>('mergeQueues.create', { body: { repositoryId, targetBranch: 'main' } })
  ).id;
});

describe('v2 authentication', () => {
  it('asks for a key when none is sent', async () => {
    const refused = await error('mergeQueues.get', { path: { id: queueId }, key: null });
    expect(refused).toMatchObject({ status: 401, code: 'AUTHENTICATION_REQUIRED' });
    expect(refused.message).toContain('Authorization: Bearer');
  });

  it('refuses the v1 organization token, saying it works with v1 only and where keys are made', async () => {
    const sent: Record<string, string>[] = [
      { authorization: `Bearer ${TEST_TOKEN}` },
      { 'x-api-token': TEST_TOKEN },
    ];
    for (const headers of sent) {
      const refused = await error('mergeQueues.get', { path: { id: queueId }, key: null, headers });
      expect(refused).toMatchObject({ status: 401, code: 'INVALID_TOKEN' });
      expect(refused.message).toMatch(/v1 API only/);
      expect(refused.message).toContain('Settings > Developer > API Keys');
    }
  });

  it('refuses an unknown key, and v1 refuses a v2 key as it refuses any other token', async () => {
    const refused = await error('mergeQueues.get', { path: { id: queueId }, key: 'trunk_v2_nope' });
    expect(refused).toMatchObject({ status: 401, code: 'INVALID_TOKEN' });
    const v1 = await emulator.api(
      '/getQueue',
      { repo: { host: 'github.com', owner: 'acme', name: 'app' }, targetBranch: 'main' },
      { 'x-api-token': emulator.v2Key },
    );
    expect([v1.status, v1.text]).toEqual([401, 'Unauthorized']);
  });
});

describe('x-trunk-token', () => {
  it('takes a device-login session, which reads merge queues but may not write them', async () => {
    const initiated = await emulator.api<{ deviceCode: string; userCode: string }>(
      '/device-auth/initiate',
      {},
    );
    const decided = await request(
      `${emulator.current.origin}/device/decision`,
      'POST',
      { userCode: initiated.json.userCode, approve: true },
      {},
    );
    expect(decided.status).toBe(200);
    const tokens = await emulator.api<{ status: string; sealedSession: string }>('/device-auth/tokens', {
      deviceCode: initiated.json.deviceCode,
    });
    expect(tokens.json.status).toBe('success');
    const headers = { 'x-trunk-token': tokens.json.sealedSession };
    expect(
      (await v2.ok<V2<'MergeQueue'>>('mergeQueues.get', { path: { id: queueId }, key: null, headers })).id,
    ).toBe(queueId);
    const refused = await error('mergeQueues.submitPullRequest', {
      path: { id: queueId },
      body: { number: 9 },
      key: null,
      headers,
    });
    expect(refused).toMatchObject({ status: 403, code: 'INSUFFICIENT_PERMISSIONS' });
  });
});

describe('v2 permissions', () => {
  it('lets a key with no permission read, and refuses its submit naming the permission an admin grants', async () => {
    expect(
      (await v2.ok<V2<'MergeQueue'>>('mergeQueues.get', { path: { id: queueId }, key: READER })).id,
    ).toBe(queueId);
    const refused = await error('mergeQueues.submitPullRequest', {
      path: { id: queueId },
      body: { number: 1 },
      key: READER,
    });
    expect(refused).toMatchObject({ status: 403, code: 'INSUFFICIENT_PERMISSIONS' });
    expect(refused.message).toContain('"Merge and cancel PRs"');
    expect(refused.message).toContain('reader');
  });

  it('needs Set priority on PRs as well for a submit that names a priority', async () => {
    const refused = await error('mergeQueues.submitPullRequest', {
      path: { id: queueId },
      body: { number: 2, priorityName: 'urgent' },
      key: CI_BOT,
    });
    expect(refused).toMatchObject({ status: 403, code: 'INSUFFICIENT_PERMISSIONS' });
    expect(refused.message).toContain('"Set priority on PRs"');
    expect(refused.message).not.toContain('Merge and cancel');
    const submitted = await v2.ok<V2<'PullRequest'>>('mergeQueues.submitPullRequest', {
      path: { id: queueId },
      body: { number: 2 },
      key: CI_BOT,
    });
    expect(submitted.queueEntry?.priorityName).toBe('medium');
  });

  it('refuses queue settings to a key without Update Merge Queue settings', async () => {
    const refused = await error('mergeQueues.pause', { path: { id: queueId }, key: CI_BOT });
    expect(refused).toMatchObject({ status: 403, code: 'INSUFFICIENT_PERMISSIONS' });
    expect(refused.message).toContain('"Update Merge Queue settings"');
  });
});

describe('v2 errors', () => {
  it('refuses unknown fields, unknown query parameters and enums spelled the v1 way', async () => {
    const unknownField = await error('mergeQueues.submitPullRequest', {
      path: { id: queueId },
      body: { number: 3, noBatch: true },
    });
    expect(unknownField).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    expect(unknownField.message).toContain('noBatch');
    const unknownQuery = await error('mergeQueues.list', { query: { repo: 'acme/app' } });
    expect(unknownQuery).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    expect(unknownQuery.message).toContain('repo');
    const v1Mode = await error('mergeQueues.switchModes', {
      path: { id: queueId },
      body: { mode: 'single' },
    });
    expect(v1Mode).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    expect(v1Mode.message).toContain('queue, graph');
    const v1State = await error('mergeQueues.listPullRequests', {
      path: { id: queueId },
      query: { state: 'not_ready' },
    });
    expect(v1State).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    expect(v1State.message).toContain('notReady');
    const both = await error('mergeQueues.submitPullRequest', {
      path: { id: queueId },
      body: { number: 3, priorityValue: 1, priorityName: 'high' },
    });
    expect(both).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
  });

  it('answers conflicts: a resubmit, a second dequeue, a restart of a PR not testing', async () => {
    await v2.ok('mergeQueues.pause', { path: { id: queueId } });
    const submitted = await v2.ok<V2<'PullRequest'>>('mergeQueues.submitPullRequest', {
      path: { id: queueId },
      body: { number: 5 },
    });
    expect(submitted.queueEntry?.state).toBe('notReady');
    expect(
      (await error('mergeQueues.submitPullRequest', { path: { id: queueId }, body: { number: 5 } })).code,
    ).toBe('PR_ALREADY_ENQUEUED');
    const restart = await error('pullRequests.restartTests', { path: { id: submitted.id } });
    expect(restart).toMatchObject({ status: 422, code: 'PR_TESTS_NOT_RESTARTABLE' });
    await v2.ok('pullRequests.dequeue', { path: { id: submitted.id } });
    const again = await error('pullRequests.dequeue', { path: { id: submitted.id } });
    expect(again).toMatchObject({ status: 409, code: 'PR_NOT_IN_ACTIVE_STATE' });
    await v2.ok('mergeQueues.resume', { path: { id: queueId } });
  });

  it('names what is not found, with a request id on every answer', async () => {
    expect(await v2.refused('mergeQueues.get', 404, { path: { id: 'Zz9Zz9Zz' } })).toBe(
      'MERGE_QUEUE_NOT_FOUND',
    );
    expect(
      await v2.refused('pullRequests.get', 404, { path: { id: '00000000-0000-4000-8000-000000000000' } }),
    ).toBe('PR_NOT_FOUND');
    expect(
      await v2.refused('repositories.get', 404, { path: { id: '00000000-0000-4000-8000-000000000000' } }),
    ).toBe('REPOSITORY_NOT_FOUND');
    const unknownPath = await fetch(`${emulator.current.v2Url}/v2/no-such-thing`, {
      headers: { authorization: `Bearer ${emulator.v2Key}` },
    });
    expect(unknownPath.status).toBe(404);
    expect(unknownPath.headers.get('x-request-id')).toMatch(/^req_/);
    expect(((await unknownPath.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
  });
});

describe('v2 pages', () => {
  it('pages through more than 100 entries with cursors, and refuses a cursor of other filters', async () => {
    for (let number = 100; number < 230; number++) {
      await v2.ok('mergeQueues.submitPullRequest', { path: { id: queueId }, body: { number } });
    }
    const first = await v2.ok<V2<'PullRequestList'>>('mergeQueues.listPullRequests', {
      path: { id: queueId },
      query: { limit: 100, includeTotal: true, state: 'pending,testing,notReady' },
    });
    expect([first.data.length, first.hasMore, first.total]).toEqual([100, true, 131]);
    const second = await v2.ok<V2<'PullRequestList'>>('mergeQueues.listPullRequests', {
      path: { id: queueId },
      query: { limit: 100, cursor: first.nextCursor!, state: 'pending,testing,notReady' },
    });
    expect([second.data.length, second.hasMore, second.nextCursor]).toEqual([31, false, null]);
    const numbers = new Set([...first.data, ...second.data].map((pr) => pr.number));
    expect(numbers.size).toBe(131);
    expect(first.data[0]!.number).toBe(229);

    const otherFilters = await error('mergeQueues.listPullRequests', {
      path: { id: queueId },
      query: { cursor: first.nextCursor! },
    });
    expect(otherFilters).toMatchObject({ status: 400, code: 'INVALID_CURSOR' });
    const garbage = await error('mergeQueues.listPullRequests', {
      path: { id: queueId },
      query: { cursor: 'not-a-cursor' },
    });
    expect(garbage).toMatchObject({ status: 400, code: 'INVALID_CURSOR' });
    const tooMany = await error('mergeQueues.listPullRequests', {
      path: { id: queueId },
      query: { limit: 101 },
    });
    expect(tooMany).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    const byDefault = await v2.ok<V2<'PullRequestList'>>('mergeQueues.listPullRequests', {
      path: { id: queueId },
    });
    expect(byDefault.data).toHaveLength(25);
  });
});

describe('v2 rate limits', () => {
  const limited = useEmulator();
  const calls = new V2Calls(limited);

  it('answers 429 RATE_LIMIT_EXCEEDED past 5 pull-request reads a second per key', async () => {
    const repos = await calls.ok<V2<'RepositoryList'>>('repositories.resolveByProviderUrl', {
      query: { providerUrl: 'https://github.com/acme/app' },
    });
    const id = repos.data[0]!.id;
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        calls.call('pullRequests.resolveByCoordinates', { query: { repositoryId: id, number: '1' } }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(5);
    const limitedAnswer = answers.find((a) => a.status === 429);
    expect((limitedAnswer?.json as { error: { code: string } }).error.code).toBe('RATE_LIMIT_EXCEEDED');
  });

  it("answers 429 past 10 uploads a second from a repository's GitHub Actions logins", async () => {
    const repos = await calls.ok<V2<'RepositoryList'>>('repositories.resolveByProviderUrl', {
      query: { providerUrl: 'https://github.com/acme/app' },
    });
    const repositoryId = repos.data[0]!.id;
    const { token } = (
      await limited.control<{ token: string }>('POST', '/actions-logins', { repo: 'acme/app' })
    ).json;
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        calls.call('impactedTargets.upload', {
          key: null,
          headers: { 'x-trunk-token': token },
          body: {
            repositoryId,
            targetBranch: 'main',
            number: i + 1,
            sha: 'f6'.repeat(20),
            impactsAllTargets: true,
          },
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 202).length).toBeGreaterThanOrEqual(10);
    const limitedAnswer = answers.find((a) => a.status === 429);
    expect((limitedAnswer?.json as { error: { code: string } }).error.code).toBe('RATE_LIMIT_EXCEEDED');
  });
});

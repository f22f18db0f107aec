// The v2 client over real HTTP against a small scripted v2 server: the Bearer key, ids looked up once,
// v2's error envelope read into one line (a 403 naming the permission to grant), any 429 retried, and a
// write whose answer was lost read back before it is ever sent again.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError } from '../../src/core/api/errors.js';
import { InputError } from '../../src/core/errors.js';
import { CLI_WORDING } from '../../src/cli/wording.js';
import { V2ServiceClient } from '../../src/core/api/v2/service-client.js';
import { v2RequestProblem } from '../helpers/v2-requests.js';
import { say } from '../../src/core/words.js';

const KEY = 'trunk_v2_testkey0123456789abcdef';
const REPO = { host: 'github.com', owner: 'octo-org', name: 'octo-repo' };
const REPOSITORY_ID = '0b3f8a52-4a7e-4c53-9d7e-3f5a1c2b7d10';
const PR_ID = '5d0c7a3e-1b2f-4c4d-8e9f-0a1b2c3d4e5f';
const QUEUE_ID = 'xK9mP2nQ';
const AT = '2026-11-25T10:00:00Z';

interface Seen {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  authorization?: string;
  apiToken?: string;
}

type Handler = (seen: Seen, res: ServerResponse) => boolean | void;

let server: Server;
let baseUrl: string;
const seen: Seen[] = [];
const invalid: string[] = [];
let handlers: Handler[] = [];
let entryState = 'pending';
let entryChangedAt = AT;

function pullRequest() {
  return {
    id: PR_ID,
    repositoryId: REPOSITORY_ID,
    number: 7,
    title: 'Add a thing',
    branch: 'feature',
    sha: 'a'.repeat(40),
    baseBranch: 'main',
    author: 'octocat',
    isCurrentlySubmittedToQueue: entryState !== 'none',
    createdAt: AT,
    ...(entryState === 'none'
      ? {}
      : {
          queueEntry: {
            id: 'entry-1',
            mergeQueueId: QUEUE_ID,
            state: entryState,
            stateChangedAt: entryChangedAt,
            skipsTheLine: false,
            allowBatching: true,
            direct: false,
            readiness: {
              requiresImpactedTargets: false,
              doesBaseBranchMatch: true,
              mergeability: 'mergeable',
            },
            createdAt: AT,
            updatedAt: AT,
          },
        }),
  };
}

/** A queue's config as the service answers it (every field v1's settings are read from). */
const CONFIG = {
  concurrency: 2,
  bisectionConcurrency: 1,
  pendingFailureDepth: 1,
  canOptimisticallyMerge: false,
  allowBatching: false,
  batchingMaxWaitTimeMinutes: 0,
  batchingMinSize: 1,
  testingTimeoutMinutes: 60,
  notReadyTimeoutMinutes: 60,
  createsPrsForTestingBranches: false,
  areCommentsEnabled: true,
  areCommandsEnabled: true,
  isStatusCheckEnabled: true,
  requiredStatuses: [],
  directMergeMode: 'off',
  optimizationMode: 'off',
  mergeMethod: 'squash',
  isExtensionEnabled: false,
  areLabelCommandsEnabled: false,
  areStateLabelsEnabled: false,
  allowedBotSubmitters: [],
  batchingRules: [],
  testBranchConstructionMode: 'renameTempBranch',
  enqueueingLabel: '',
};

const REPOSITORY = {
  id: REPOSITORY_ID,
  provider: 'github',
  path: 'octo-org/octo-repo',
  host: 'github.com',
  url: 'https://github.com/octo-org/octo-repo',
  defaultBranch: 'main',
  isPrivate: false,
  createdAt: AT,
  updatedAt: AT,
};

function queue(state = 'running') {
  return {
    id: QUEUE_ID,
    repositoryId: REPOSITORY_ID,
    targetBranch: 'main',
    state,
    mode: 'graph',
    managedState: 'manual',
    createdAt: AT,
    updatedAt: AT,
    repositoryUrl: REPOSITORY.url,
    pullRequestsUrl: `/v2/merge-queues/${QUEUE_ID}/pull-requests`,
    config: CONFIG,
  };
}

const page = (data: unknown[]) => ({ data, nextCursor: null, hasMore: false });

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': 'req-42', ...headers });
  res.end(JSON.stringify(body));
}

/** The lookups every call starts with, answered as the service would. */
const lookups: Handler = ({ method, path }, res) => {
  if (method !== 'GET') return false;
  if (path === '/v2/repositories') json(res, 200, page([REPOSITORY]));
  else if (path === '/v2/merge-queues') json(res, 200, page([queue()]));
  else if (path === '/v2/pull-requests') json(res, 200, page([pullRequest()]));
  else if (path === `/v2/pull-requests/${PR_ID}`) json(res, 200, pullRequest());
  else return false;
  return true;
};

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const text = Buffer.concat(chunks).toString('utf8');
      const request: Seen = {
        method: req.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        body: text ? JSON.parse(text) : undefined,
        authorization: req.headers.authorization,
        apiToken: req.headers['x-api-token'] as string | undefined,
      };
      seen.push(request);
      // Like the service, a request the document does not allow is refused, failing the test that sent it.
      const problem = url.pathname.startsWith('/v1/')
        ? undefined
        : v2RequestProblem(request.method, url, text);
      if (problem) {
        invalid.push(problem);
        json(res, 400, { error: { code: 'VALIDATION_FAILED', message: problem } });
        return;
      }
      for (const handler of [...handlers, lookups]) if (handler(request, res) !== false) return;
      json(res, 404, { error: { code: 'NOT_FOUND', message: 'no such route' } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  expect(invalid).toEqual([]);
});

beforeEach(() => {
  seen.length = 0;
  handlers = [];
  entryState = 'pending';
  entryChangedAt = AT;
});

function client(logs: string[] = [], known = {}) {
  return new V2ServiceClient({
    known,
    baseUrl,
    apiUrl: baseUrl,
    token: KEY,
    deadlineMs: 20_000,
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
    onRetry: (line) => logs.push(say(line)),
  });
}

const count = (method: string, path: string) =>
  seen.filter((s) => s.method === method && s.path === path).length;

describe('V2ServiceClient', () => {
  it('sends the key as a Bearer token to the host, and looks each id up once per run', async () => {
    const v2 = client();
    const first = await v2.call('getSubmittedPullRequest', {
      repo: REPO,
      targetBranch: 'main',
      pr: { number: 7 },
    });
    await v2.call('getSubmittedPullRequest', { repo: REPO, targetBranch: 'main', pr: { number: 7 } });

    expect(first.json).toMatchObject({
      prNumber: 7,
      prTitle: 'Add a thing',
      state: 'pending',
      noBatch: false,
    });
    expect(seen.every((s) => s.authorization === `Bearer ${KEY}`)).toBe(true);
    expect(count('GET', '/v2/repositories')).toBe(1);
    expect(seen.find((s) => s.path === '/v2/repositories')?.query.get('providerUrl')).toBe(
      'https://github.com/octo-org/octo-repo',
    );
    expect(count('GET', '/v2/merge-queues')).toBe(1);
    expect(count('GET', '/v2/pull-requests')).toBe(1);
    expect(count('GET', `/v2/pull-requests/${PR_ID}`)).toBe(2);
  });

  it("looks nothing up for the run's own queue and PR when queue-id and pull-request-id are given", async () => {
    const known = { queueId: QUEUE_ID, pullRequestId: PR_ID, targetBranch: 'main', prNumber: 7 };
    const answer = await client([], known).call('getSubmittedPullRequest', {
      repo: REPO,
      targetBranch: 'main',
      pr: { number: 7 },
    });
    expect(answer.json).toMatchObject({ prNumber: 7 });
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual([`GET /v2/pull-requests/${PR_ID}`]);
  });

  it('answers 404, as v1 did, for a PR that has no entry in the queue', async () => {
    entryState = 'none';
    const failure = await client()
      .call('getSubmittedPullRequest', { repo: REPO, targetBranch: 'main', pr: { number: 7 } })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(404);
  });

  it('names the permission a 403 lacks and where an admin grants it, with the request id', async () => {
    handlers.push(({ method, path }, res) => {
      if (method !== 'POST' || path !== `/v2/merge-queues/${QUEUE_ID}/pull-requests`) return false;
      json(res, 403, { error: { code: 'INSUFFICIENT_PERMISSIONS', message: 'missing permission' } });
    });
    const failure = (await client()
      .call('submitPullRequest', { repo: REPO, targetBranch: 'main', pr: { number: 7 }, priority: 'high' })
      .catch((error: unknown) => error)) as ApiError;

    expect(failure.status).toBe(403);
    expect(failure.code).toBe('INSUFFICIENT_PERMISSIONS');
    expect(failure.toString()).toBe(
      'mergeQueues.submitPullRequest failed: the API answered 403 INSUFFICIENT_PERMISSIONS. The API key needs the permissions "Merge and cancel PRs" and "Set priority on PRs": an organization admin grants it in Settings > Developer > API Keys. (the service said: "missing permission (request req-42)")',
    );
    expect(seen.find((s) => s.method === 'POST')?.body).toEqual({ number: 7, priorityName: 'high' });
  });

  it('retries a 429 that is not JSON (from the edge) and then succeeds', async () => {
    let limited = 0;
    handlers.push(({ path }, res) => {
      if (path !== '/v2/repositories' || limited++ > 0) return false;
      res.writeHead(429, { 'content-type': 'text/plain' });
      res.end('Too Many Requests');
    });
    const logs: string[] = [];
    const answer = await client(logs).call('getSubmittedPullRequest', {
      repo: REPO,
      targetBranch: 'main',
      pr: { number: 7 },
    });
    expect(answer.json).toMatchObject({ prNumber: 7 });
    expect(count('GET', '/v2/repositories')).toBe(2);
    expect(logs[0]).toMatch(
      /^repositories\.resolveByProviderUrl: the API answered 429\. .*\(the service said: "Too Many Requests"\)/,
    );
  });

  it('never submits twice: a submit whose connection was cut after the service acted is read back', async () => {
    entryState = 'none';
    handlers.push(({ method, path }, res) => {
      if (method !== 'POST' || path !== `/v2/merge-queues/${QUEUE_ID}/pull-requests`) return false;
      entryState = 'pending';
      res.socket?.destroy();
    });
    const logs: string[] = [];
    const answer = await client(logs).call('submitPullRequest', {
      repo: REPO,
      targetBranch: 'main',
      pr: { number: 7 },
    });

    expect(answer.status).toBe(200);
    expect(count('POST', `/v2/merge-queues/${QUEUE_ID}/pull-requests`)).toBe(1);
    expect(logs.join('\n')).toMatch(
      /^submitPullRequest: could not reach the API .* Read back: it was done, so it is not sent again\.$/m,
    );
  });

  it('never restarts twice: a 502 after the restart happened is read back, not retried', async () => {
    entryState = 'testing';
    handlers.push(({ method, path }, res) => {
      if (method !== 'POST' || path !== `/v2/pull-requests/${PR_ID}/restart-tests`) return false;
      entryChangedAt = '2026-11-25T10:05:00Z';
      json(res, 502, { error: { code: 'UPSTREAM_ERROR', message: 'GitHub did not answer' } });
    });
    await client().call('restartTestsOnPullRequest', { repo: REPO, targetBranch: 'main', pr: { number: 7 } });
    expect(count('POST', `/v2/pull-requests/${PR_ID}/restart-tests`)).toBe(1);
  });

  it('sends a restart again when the read-back shows the first one did not happen', async () => {
    entryState = 'testing';
    let restarts = 0;
    handlers.push(({ method, path }, res) => {
      if (method !== 'POST' || path !== `/v2/pull-requests/${PR_ID}/restart-tests`) return false;
      if (restarts++ === 0) json(res, 500, { error: { code: 'INTERNAL_ERROR', message: 'oops' } });
      else {
        entryChangedAt = '2026-11-25T10:05:00Z';
        json(res, 200, pullRequest());
      }
    });
    await client().call('restartTestsOnPullRequest', { repo: REPO, targetBranch: 'main', pr: { number: 7 } });
    expect(restarts).toBe(2);
  });

  it("reads v2's conflict on a concluded entry as v1's 'not in the queue'", async () => {
    handlers.push(({ method, path }, res) => {
      if (method !== 'POST' || path !== `/v2/pull-requests/${PR_ID}/dequeue`) return false;
      json(res, 409, { error: { code: 'PR_NOT_IN_ACTIVE_STATE', message: 'already merged' } });
    });
    const failure = (await client()
      .call('cancelPullRequest', { repo: REPO, targetBranch: 'main', pr: { number: 7 } })
      .catch((error: unknown) => error)) as ApiError;
    expect(failure.status).toBe(404);
  });

  it('hides the key when an answer echoes it', async () => {
    handlers.push(({ path }, res) => {
      if (path !== '/v2/repositories') return false;
      json(res, 401, { error: { code: 'INVALID_TOKEN', message: `key ${KEY} is revoked` } });
    });
    const failure = (await client()
      .call('getSubmittedPullRequest', { repo: REPO, targetBranch: 'main', pr: { number: 7 } })
      .catch((error: unknown) => error)) as ApiError;
    expect(failure.status).toBe(401);
    expect(failure.toString()).not.toContain('testkey');
    expect(failure.toString()).toContain('a v1 organization token works only with api-version v1');
  });

  it('uploads impacted targets with the repository id, sha and number, ALL as impactsAllTargets', async () => {
    handlers.push(({ method, path }, res) => {
      if (method !== 'PUT' || path !== '/v2/impacted-targets') return false;
      res.writeHead(202).end();
    });
    const upload = (impactedTargets: string[] | 'ALL') =>
      JSON.stringify({
        repo: REPO,
        targetBranch: 'main',
        pr: { number: '7', sha: 'f'.repeat(40) },
        impactedTargets,
      });
    await client().call('setImpactedTargets', upload(['//a', '//b']));
    await client().call('setImpactedTargets', upload('ALL'));
    const bodies = seen.filter((s) => s.method === 'PUT').map((s) => s.body);
    const common = { repositoryId: REPOSITORY_ID, targetBranch: 'main', sha: 'f'.repeat(40), number: 7 };
    expect(bodies).toEqual([
      { ...common, impactedTargets: ['//a', '//b'] },
      { ...common, impactsAllTargets: true },
    ]);
  });

  it('updates a queue by its config patch, mode switch and pause, then reads its settings as v1', async () => {
    let state = 'running';
    handlers.push(({ method, path }, res) => {
      const queuePath = `/v2/merge-queues/${QUEUE_ID}`;
      if (!path.startsWith(queuePath)) return false;
      if (method === 'POST' && path === `${queuePath}/pause`) state = 'paused';
      else if (method === 'GET' && path === queuePath) {
        json(res, 200, queue(state));
        return;
      } else if (method === 'GET') return false;
      else if (method === 'PATCH') {
        json(res, 200, queue(state));
        return;
      }
      json(res, 200, { id: QUEUE_ID, state, mode: 'graph', pullRequestsUrl: `${queuePath}/pull-requests` });
    });
    const answer = await client().call('updateQueue', {
      repo: REPO,
      targetBranch: 'main',
      state: 'paused',
      mode: 'parallel',
      batch: false,
      concurrency: 2,
    });
    expect(seen.filter((s) => s.method !== 'GET').map((s) => [s.method, s.path, s.body])).toEqual([
      ['PATCH', `/v2/merge-queues/${QUEUE_ID}/config`, { allowBatching: false, concurrency: 2 }],
      ['POST', `/v2/merge-queues/${QUEUE_ID}/switch-modes`, { mode: 'graph' }],
      ['POST', `/v2/merge-queues/${QUEUE_ID}/pause`, undefined],
    ]);
    expect(answer.json).toMatchObject({ state: 'paused', mode: 'parallel', batch: false, branch: 'main' });
  });

  it("lists a queue's PRs with v2's filter names and passes its cursor on", async () => {
    handlers.push(({ method, path }, res) => {
      if (method !== 'GET' || path !== `/v2/merge-queues/${QUEUE_ID}/pull-requests`) return false;
      json(res, 200, { data: [pullRequest()], nextCursor: 'opaque-cursor', hasMore: true });
    });
    const answer = await client().call('listPullRequests', {
      repo: REPO,
      targetBranch: 'main',
      state: 'tests_passed',
      since: '2026-11-01T00:00:00Z',
      take: 50,
    });
    const query = seen.find((s) => s.path.endsWith('/pull-requests') && s.path.includes(QUEUE_ID))!.query;
    expect(Object.fromEntries(query)).toEqual({
      state: 'testsPassed',
      concludedAfter: '2026-11-01T00:00:00Z',
      limit: '50',
    });
    expect(answer.json).toMatchObject({
      pullRequests: [{ prNumber: 7, state: 'pending' }],
      nextCursor: 'opaque-cursor',
    });
  });

  it("reads one repository's metrics as the Prometheus text it is", async () => {
    handlers.push(({ path, query }, res) => {
      if (path !== '/v2/merge-queues/metrics') return false;
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
      res.end(`# repository ${query.get('repositoryId')}\nmq_pull_requests_total 3\n`);
    });
    const answer = await client().call('getMergeQueueMetrics', {
      repo: 'octo-org/octo-repo',
      repoHost: 'github.com',
    });
    expect(answer.text).toBe(`# repository ${REPOSITORY_ID}\nmq_pull_requests_total 3\n`);
  });

  it('stops before any request for a v1-only endpoint that needs a key, naming api-version', async () => {
    const failure = await client()
      .call('createCiRun', {
        repo: REPO,
        org_url_slug: 'octo-org',
        ci_job_name: 'test',
        run_start: AT,
        run_end: AT,
        branch: 'main',
        sha: 'a'.repeat(40),
        attempt: 1,
      })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(InputError);
    expect((failure as InputError).input).toBe('api-version');
    expect(say((failure as InputError).fix, CLI_WORDING)).toBe(
      'Run this step over v1: --api-version v1, and MERGE_QUEUE_API_TOKEN the v1 organization token.',
    );
    expect(seen).toEqual([]);
  });

  it("sends a v1-only endpoint anyone may call to v1's base without the v2 key", async () => {
    handlers.push(({ method, path }, res) => {
      if (method !== 'GET' || path !== '/v1/status') return false;
      json(res, 200, {
        overallStatus: { type: 'up', color: 'green', overallStatusDescription: 'All systems operational' },
        statuses: [],
      });
    });
    const answer = await client().call('getStatus', {});
    expect(answer.status).toBe(200);
    expect(seen.map((s) => [s.path, s.authorization, s.apiToken])).toEqual([
      ['/v1/status', undefined, undefined],
    ]);
  });

  it('is checked by a validator that refuses what the document does not allow', () => {
    const at = (path: string) => new URL(path, 'http://localhost');
    expect(v2RequestProblem('GET', at('/v2/merge-queues?limit=5&targetBranch=main'), '')).toBeUndefined();
    expect(v2RequestProblem('GET', at('/v2/merge-queues?limit=500'), '')).toMatch(/query limit=500/);
    expect(v2RequestProblem('GET', at('/v2/pull-requests?number=7'), '')).toMatch(
      /query repositoryId is required/,
    );
    expect(
      v2RequestProblem('POST', at('/v2/merge-queues/q1/pull-requests'), '{"number":7,"priority":"high"}'),
    ).toMatch(/^mergeQueues.submitPullRequest: body/);
    expect(v2RequestProblem('POST', at('/v2/submitPullRequest'), '{}')).toMatch(/no operation/);
  });
});

// A hostile v2 service (issue 41): the emulator's real answers, changed on their way back by a proxy.
// Each check runs the CLI as a person or a CI step does and looks at what they would notice: the exit
// code, the one line on stderr, and what was (and was not) sent to the service.
import { afterAll, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { runCli } from '../../src/cli/main.js';
import { EXIT_CODES } from '../../src/core/failure.js';
import { QueueDriver, useEmulator } from '../helpers/emulator.js';
import { startTamperingProxy, type Answer, type TamperingProxy } from '../helpers/tampering-proxy.js';

jest.setTimeout(60_000);

const REPO = 'octo-org/hostile-v2';
const emulator = useEmulator({ timeScale: 600 });
let proxy: TamperingProxy;

beforeAll(async () => {
  proxy = await startTamperingProxy(emulator.current.origin);
  const queue = new QueueDriver(emulator, REPO, 'main');
  await queue.create();
  await queue.setPr(17, { title: 'Add a thing' });
  await queue.ci(17, { outcome: 'hang' });
  await queue.ci(18, { outcome: 'hang' });
  await queue.submit(18);
});

afterAll(() => proxy.close());
beforeEach(() => proxy.reset());

async function cli(argv: string[], env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const exitCode = await runCli({
    argv,
    env: {
      MERGE_QUEUE_API_URL: `${proxy.origin}/v1`,
      MERGE_QUEUE_API_TOKEN: emulator.current.v2Key,
      MERGE_QUEUE_API_VERSION: 'v2',
      MERGE_QUEUE_REPO: REPO,
      MERGE_QUEUE_TARGET_BRANCH: 'main',
      MERGE_QUEUE_PR_NUMBER: '17',
      ...env,
    },
    cwd: process.cwd(),
    stdout: { write: (chunk: string) => (stdout += chunk) },
    stderr: { write: (chunk: string) => (stderr += chunk) },
  });
  return { exitCode, stdout, stderr };
}

const writes = () => proxy.sent.filter((s) => s.method !== 'GET').map((s) => `${s.method} ${s.url}`);
const firstItem = (answer: Answer) => (answer.json as { data: Record<string, unknown>[] }).data[0]!;

describe('ids an answer hands back are the ones asked for (item 1)', () => {
  it('refuses a queue lookup that answers with another branch’s queue, and submits nothing', async () => {
    proxy.on('GET', /^\/v2\/merge-queues$/, (answer) => {
      firstItem(answer).targetBranch = 'release';
      return answer;
    });
    const run = await cli(['submit-pull-request']);
    expect(run.exitCode).toBe(EXIT_CODES.unreachable);
    expect(run.stderr).toContain('"data[0].targetBranch" is another value, not "main" as asked');
    expect(run.stderr).toContain('(the service said: "release")');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(writes()).toEqual([]);
  });

  it('refuses a repository lookup that answers with another repository', async () => {
    proxy.on('GET', /^\/v2\/repositories$/, (answer) => {
      firstItem(answer).url = 'https://github.com/evil-org/other';
      return answer;
    });
    const run = await cli(['submit-pull-request']);
    expect(run.exitCode).toBe(EXIT_CODES.unreachable);
    expect(run.stderr).toContain('"data[0].url" is another value, not "https://github.com/octo-org/');
    expect(run.stderr).toContain('(the service said: "https://github.com/evil-org/other")');
    expect(writes()).toEqual([]);
  });

  it('refuses a pull request lookup that answers with another repository’s PR', async () => {
    proxy.on('GET', /^\/v2\/pull-requests$/, (answer) => {
      firstItem(answer).repositoryId = '00000000-0000-4000-8000-000000000000';
      return answer;
    });
    const run = await cli(['cancel-pull-request']);
    expect(run.exitCode).toBe(EXIT_CODES.unreachable);
    expect(run.stderr).toContain('"data[0].repositoryId"');
    expect(writes()).toEqual([]);
  });
});

describe('ids are checked and sent as one path segment (item 5)', () => {
  it.each(['..', '.', 'a/b', 'x?y=1', 'x#y', 'x%2Fy', ''])(
    'never sends a request for a queue id %j from an answer',
    async (id) => {
      proxy.on('GET', /^\/v2\/merge-queues$/, (answer) => {
        firstItem(answer).id = id;
        return answer;
      });
      const run = await cli(['submit-pull-request']);
      expect(run.exitCode).toBe(EXIT_CODES.unreachable);
      expect(run.stderr).toContain('"data[0].id"');
      expect(
        proxy.sent.map((s) => s.url).filter((url) => !/^\/v2\/(repositories|merge-queues)\?/.test(url)),
      ).toEqual([]);
    },
  );

  it.each(['..', '../merge-queues', 'run?x=1', 'run#x', 'a%2Fb'])(
    'never lets a test-run-id of %j change the route',
    async (id) => {
      const run = await cli(['get-merge-queue-testing-details', '--test-run-id', id]);
      // A bad input: exit 2 and one line naming the flag, not an answer error.
      expect(run.exitCode).toBe(EXIT_CODES.badInput);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(/--test-run-id\b.*is not a verification run id/);
      expect(proxy.sent).toEqual([]);
    },
  );
});

describe('an answer that breaks the document is an error naming the endpoint and field (item 4)', () => {
  it('does not read a PR whose queue entry lacks its queue as "never submitted"', async () => {
    proxy.on('GET', /^\/v2\/pull-requests\/[^/]+$/, (answer) => {
      delete (answer.json as { queueEntry: Record<string, unknown> }).queueEntry.mergeQueueId;
      return answer;
    });
    const run = await cli(['get-submitted-pull-request', '--pr-number', '18']);
    expect(run.exitCode).toBe(EXIT_CODES.unreachable);
    expect(run.stderr).toContain('pullRequests.get failed');
    expect(run.stderr).toContain('"queueEntry.mergeQueueId" is missing');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('does not query with no id when the repository answer has none', async () => {
    proxy.on('GET', /^\/v2\/repositories$/, (answer) => {
      delete firstItem(answer).id;
      return answer;
    });
    const run = await cli(['submit-pull-request']);
    expect(run.exitCode).toBe(EXIT_CODES.unreachable);
    expect(run.stderr).toContain('repositories.resolveByProviderUrl failed');
    expect(run.stderr).toContain('"data[0].id" is missing');
    expect(proxy.sent.map((s) => s.url)).toEqual([expect.stringMatching(/^\/v2\/repositories\?/)]);
  });

  it('refuses a state that is not text instead of reading it as some other state', async () => {
    proxy.on('GET', /^\/v2\/pull-requests\/[^/]+$/, (answer) => {
      (answer.json as { queueEntry: Record<string, unknown> }).queueEntry.state = 7;
      return answer;
    });
    const run = await cli(['get-submitted-pull-request', '--pr-number', '18']);
    expect(run.exitCode).toBe(EXIT_CODES.unreachable);
    expect(run.stderr).toContain('"queueEntry.state" is a number, not text');
  });
});

describe("a v2 answer is checked once, against v2's shape, and read as v1's by typed code (issue 42)", () => {
  it("names a queue config's wrong-typed field once, by v2's name, on one line", async () => {
    proxy.on('GET', /^\/v2\/merge-queues\/[^/]+$/, (answer) => {
      (answer.json as { config: Record<string, unknown> }).config.concurrency = 'two';
      return answer;
    });
    const run = await cli(['get-queue']);
    expect(run.exitCode).toBe(EXIT_CODES.unreachable);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('mergeQueues.get failed');
    expect(lines[0]).toContain('"config.concurrency" is text, not a whole number');
    expect(lines[0]!.split('concurrency')).toHaveLength(2);
    expect(lines[0]).not.toMatch(/read as v1/);
  });

  it("reads a v2 value v1 never had (a new queue state) as it came, as a v1 answer's is kept", async () => {
    proxy.on('GET', /^\/v2\/merge-queues\/[^/]+$/, (answer) => {
      (answer.json as { state: string }).state = 'frozen';
      return answer;
    });
    const run = await cli(['get-queue', '--json']);
    expect(run.exitCode).toBe(EXIT_CODES.done);
    const shown = JSON.parse(run.stdout) as { outputs: Record<string, unknown>; response: { state: string } };
    expect(shown.outputs['queue-state']).toBe('frozen');
    expect(shown.response.state).toBe('frozen');
  });
});

describe('a list ends whatever the service answers (item 2)', () => {
  const activeList = /^\/v2\/merge-queues\/[^/]+\/pull-requests$/;
  let cursors = 0;

  let firstPage: Answer | undefined;

  /** The list's first page again and again (the emulator refuses the made-up cursors), saying more follow. */
  function endless(answer: Answer, options: { empty?: boolean; cursor?: string }): Answer {
    if (answer.status === 200) firstPage = answer;
    const again = structuredClone(firstPage!);
    const page = again.json as { data: unknown[]; nextCursor: string | null; hasMore: boolean };
    if (options.empty) page.data = [];
    page.hasMore = true;
    page.nextCursor = options.cursor ?? `c${++cursors}`;
    return again;
  }

  const listed = () => proxy.sent.filter((s) => activeList.test(s.url.split('?')[0]!)).length;

  it('stops on a cursor given twice', async () => {
    proxy.on('GET', activeList, (answer) => endless(answer, { cursor: 'again' }));
    const run = await cli(['get-queue']);
    expect(run.exitCode).toBe(EXIT_CODES.unreachable);
    expect(run.stderr).toContain('page 2 gave a cursor it had given before');
    expect(listed()).toBe(2);
  });

  it('stops on an empty page that says more follow', async () => {
    proxy.on('GET', activeList, (answer) => endless(answer, { empty: true }));
    const run = await cli(['get-queue']);
    expect(run.exitCode).toBe(EXIT_CODES.unreachable);
    expect(run.stderr).toContain('page 1 had no items yet said more follow');
    expect(listed()).toBe(1);
  });

  it('stops after the page cap', async () => {
    proxy.on('GET', activeList, (answer) => endless(answer, {}));
    const run = await cli(['get-queue']);
    expect(run.exitCode).toBe(EXIT_CODES.unreachable);
    expect(run.stderr).toContain('the list runs past 100 pages');
    expect(listed()).toBe(100);
  });

  it('stops at timeout-seconds for the whole list', async () => {
    proxy.on('GET', activeList, (answer) => endless(answer, {}), 150);
    const run = await cli(['get-queue'], { MERGE_QUEUE_TIMEOUT_SECONDS: '1' });
    expect(run.exitCode).toBe(EXIT_CODES.unreachable);
    expect(run.stderr).toMatch(/not complete within timeout-seconds \(1s, \d+ pages read\)/);
    expect(listed()).toBeLessThan(10);
  });
});

describe('retries have a floor, a cap and a budget (item 3)', () => {
  const rateLimited =
    (retryAfter: string, status = 429) =>
    (): Answer => ({
      status,
      headers: { 'content-type': 'text/plain', 'retry-after': retryAfter },
      json: undefined,
      text: 'slow down',
    });

  it.each([
    ['429', '0'],
    ['429', new Date(Date.now() - 60_000).toUTCString()],
    ['503', '0'],
  ])('does not retry a %s with Retry-After %j at once', async (status, retryAfter) => {
    proxy.on('GET', /^\/v2\/repositories$/, rateLimited(retryAfter, Number(status)));
    const run = await cli(['submit-pull-request'], { MERGE_QUEUE_TIMEOUT_SECONDS: '3' });
    expect(run.exitCode).toBe(EXIT_CODES.unreachable);
    expect(run.stderr).toContain('Gave up after');
    // Before: about 700 requests in 3 s. A floor of 1 s after a 429, a growing backoff after a 503.
    expect(proxy.sent.length).toBeLessThanOrEqual(6);
  });

  it('spaces pull-request reads at the documented 5 a second from the first request', async () => {
    const { V2Transport } = await import('../../src/core/api/v2/transport.js');
    const v2 = new V2Transport({ baseUrl: proxy.origin, token: emulator.current.v2Key, deadlineMs: 10_000 });
    const id = '00000000-0000-4000-8000-000000000000';
    await Promise.allSettled(Array.from({ length: 6 }, () => v2.call('pullRequests.get', { path: { id } })));
    expect(proxy.sent.map((s) => s.url)).toEqual(Array(6).fill(`/v2/pull-requests/${id}`));
  });

  it('gives six reads asked for at once the slots of 5 a second: the sixth a second behind the first', async () => {
    const { RequestPacer } = await import('../../src/core/api/v2/transport.js');
    const pacer = new RequestPacer();
    const delays = Array.from({ length: 6 }, () => pacer.delayMs('pullRequests.get', 1_000_000));
    expect(delays).toEqual([0, 210, 420, 630, 840, 1050]);
    // Another bucket keeps its own slots, and a read asked for after its slot waits no more.
    expect(pacer.delayMs('mergeQueues.list', 1_000_000)).toBe(0);
    expect(pacer.delayMs('pullRequests.get', 1_002_000)).toBe(0);
  });
});

// One emulator per test file: `const emu = useEmulator()` starts it before the file's tests and stops
// it after. The handle talks to it over HTTP: the public API (`api`) and the control surface (`control`).
import { afterAll, beforeAll } from '@jest/globals';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../emulator/server.js';
import type { V2Method } from '../../src/wire/v2/index.js';

export interface HttpAnswer<T = unknown> {
  status: number;
  contentType: string;
  text: string;
  /** The body parsed as JSON; undefined when it is not JSON. */
  json: T;
  headers: Headers;
}

export interface EmulatorHandle {
  /** The running emulator (only inside tests and hooks). */
  readonly current: Emulator;
  /** POST to the public API, e.g. api('/submitPullRequest', {...}). */
  api<T = unknown>(path: string, body: unknown, headers?: Record<string, string>): Promise<HttpAnswer<T>>;
  /** The v2 key with every permission (Authorization: Bearer). */
  readonly v2Key: string;
  /**
   * A call to the v2 API with a key (the one with every permission unless given), e.g.
   * v2('GET', '/v2/merge-queues?targetBranch=main').
   */
  v2<T = unknown>(method: V2Method, path: string, body?: unknown, key?: string): Promise<HttpAnswer<T>>;
  /** A call to the control surface, e.g. control('POST', '/clock/advance', { minutes: 5 }). */
  control<T = unknown>(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    body?: unknown,
  ): Promise<HttpAnswer<T>>;
}

export const TEST_TOKEN = 'emulator-test-token';

export function useEmulator(options: EmulatorOptions = {}): EmulatorHandle {
  let emulator: Emulator | undefined;
  beforeAll(async () => {
    emulator = await startEmulator({ token: TEST_TOKEN, ...options });
  });
  afterAll(async () => {
    await emulator?.close();
  });
  return handleOf(() => {
    if (!emulator) throw new Error('useEmulator: the emulator runs only inside tests and hooks');
    return emulator;
  });
}

/** A handle on an emulator a test started itself. */
export function handleOf(current: () => Emulator): EmulatorHandle {
  return {
    get current() {
      return current();
    },
    api: (path, body, headers = {}) =>
      request(`${current().url}${path}`, 'POST', body, { 'x-api-token': current().token, ...headers }),
    get v2Key() {
      return current().v2Key;
    },
    v2: (method, path, body, key) =>
      request(`${current().v2Url}${path}`, method, body, {
        authorization: `Bearer ${key ?? current().v2Key}`,
      }),
    control: (method, path, body) =>
      request(`${current().origin}/_emulator${path}`, method, body, { 'x-api-token': current().token }),
  };
}

export async function request<T>(
  url: string,
  method: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<HttpAnswer<T>> {
  const hasBody = body !== undefined;
  const response = await fetch(url, {
    method,
    headers: { ...(hasBody ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(hasBody ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    text,
    json: json as T,
    headers: response.headers,
  };
}

/** A repository and branch to drive through the API and the control surface, for scenario tests. */
export class QueueDriver {
  readonly repo: { host: string; owner: string; name: string };

  constructor(
    private readonly emulator: EmulatorHandle,
    repo: string,
    readonly branch = 'main',
  ) {
    const [owner, name] = repo.split('/') as [string, string];
    this.repo = { host: 'github.com', owner, name };
  }

  private get ref() {
    return { repo: this.repo, targetBranch: this.branch };
  }

  /** Creates the queue (through the control surface, so any setting can be given at once). */
  async create(settings: Record<string, unknown> = {}): Promise<void> {
    await this.expectOk(this.emulator.control('POST', '/queues', { ...this.ref, ...settings }));
  }

  async update(settings: Record<string, unknown>): Promise<HttpAnswer<Record<string, unknown>>> {
    return this.emulator.api('/updateQueue', { ...this.ref, ...settings });
  }

  async submit(pr: number, options: { priority?: number | string; noBatch?: boolean } = {}): Promise<void> {
    await this.expectOk(
      this.emulator.api('/submitPullRequest', { ...this.ref, pr: { number: pr }, ...options }),
    );
  }

  async cancel(pr: number): Promise<HttpAnswer> {
    return this.emulator.api('/cancelPullRequest', { ...this.ref, pr: { number: pr } });
  }

  async restart(pr: number): Promise<HttpAnswer> {
    return this.emulator.api('/restartTestsOnPullRequest', { ...this.ref, pr: { number: pr } });
  }

  async pr(pr: number): Promise<Record<string, unknown> & { state: string }> {
    const answer = await this.emulator.api<Record<string, unknown> & { state: string }>(
      '/getSubmittedPullRequest',
      {
        ...this.ref,
        pr: { number: pr },
      },
    );
    if (answer.status !== 200)
      throw new Error(`getSubmittedPullRequest #${pr}: ${answer.status} ${answer.text}`);
    return answer.json;
  }

  async state(pr: number): Promise<string> {
    return (await this.pr(pr)).state;
  }

  async states(...prs: number[]): Promise<Record<number, string>> {
    const entries = await Promise.all(prs.map(async (pr) => [pr, await this.state(pr)] as const));
    return Object.fromEntries(entries);
  }

  async queue(): Promise<
    Record<string, unknown> & { enqueuedPullRequests: { prNumber: number; state: string }[] }
  > {
    const answer = await this.emulator.api<
      Record<string, unknown> & { enqueuedPullRequests: { prNumber: number; state: string }[] }
    >('/getQueue', this.ref);
    if (answer.status !== 200) throw new Error(`getQueue: ${answer.status} ${answer.text}`);
    return answer.json;
  }

  async ci(pr: number | undefined, behaviour: Record<string, unknown>): Promise<void> {
    const target = pr === undefined ? {} : { repo: this.repo, prNumber: pr };
    await this.expectOk(this.emulator.control('POST', '/ci', { ...target, ...behaviour }));
  }

  async setPr(pr: number, facts: Record<string, unknown>): Promise<void> {
    await this.expectOk(
      this.emulator.control('POST', '/pull-requests', { repo: this.repo, number: pr, ...facts }),
    );
  }

  /** Tells the flaky-tests service of this repository's tests, under the organization `orgUrlSlug`. */
  async flakyTests(orgUrlSlug: string, tests: Record<string, unknown>[]): Promise<void> {
    await this.expectOk(
      this.emulator.control('POST', '/flaky-tests', {
        repositories: [{ repo: this.repo, org_url_slug: orgUrlSlug, tests }],
      }),
    );
  }

  async targets(pr: number, sha: string, impactedTargets: string[] | 'ALL'): Promise<void> {
    await this.expectOk(
      this.emulator.api('/setImpactedTargets', { ...this.ref, pr: { number: pr, sha }, impactedTargets }),
    );
  }

  async advance(minutes: number): Promise<void> {
    await this.expectOk(this.emulator.control('POST', '/clock/advance', { minutes }));
  }

  async runUntilIdle(): Promise<void> {
    await this.expectOk(this.emulator.control('POST', '/clock/run-until-idle', {}));
  }

  async testingDetails(testRunId: string): Promise<HttpAnswer<Record<string, unknown>>> {
    return this.emulator.api('/getMergeQueueTestingDetails', { ...this.ref, testRunId });
  }

  /** This queue's history: PR transitions and test runs. */
  async history(): Promise<HistoryEntry[]> {
    const query = `?repo=${this.repo.owner}/${this.repo.name}&repoHost=${this.repo.host}&targetBranch=${this.branch}`;
    const answer = await this.emulator.control<{ events: HistoryEntry[] }>('GET', `/history${query}`);
    return answer.json.events;
  }

  /** The order in which PRs merged. */
  async mergeOrder(): Promise<number[]> {
    return (await this.history())
      .filter((e) => e.kind === 'pr_state' && e.to === 'merged')
      .map((e) => e.prNumber!);
  }

  private async expectOk(call: Promise<HttpAnswer>): Promise<void> {
    const answer = await call;
    if (answer.status !== 200) throw new Error(`expected 200, got ${answer.status}: ${answer.text}`);
  }
}

export interface HistoryEntry {
  kind: 'pr_state' | 'run';
  at: string;
  prNumber?: number;
  from?: string | null;
  to?: string;
  reason?: string | null;
  runId?: string;
  runKind?: 'main' | 'bisection';
  status?: string;
  prNumbers?: number[];
}

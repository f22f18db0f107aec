// The fault matrix: every operation against every fault the emulator can inject, each cell a real run of
// the action (as the runner runs it) on its own repository. A cell must succeed after retries or fail
// within its deadline with one clear line; never hang, print a stack trace or the token; never leave a
// duplicated side effect in the emulator (a retried submit is still one submission); and its outputs
// must agree with how it ended.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { ApiClient } from '../../src/core/api/client.js';
import { ApiError } from '../../src/core/api/errors.js';
import type { Repo } from '../../src/wire/index.js';
import { ROUTES } from '../../src/wire/routes.js';
import type { Fault } from '../../emulator/faults.js';
import { startEmulator, type Emulator } from '../../emulator/server.js';
import {
  OPERATIONS as REGISTRY,
  OPERATION_NAMES,
  type OperationName,
} from '../../src/core/operations/registry.js';
import { ActionPool, type PooledRun } from '../helpers/action-pool.js';
import { handleOf } from '../helpers/emulator.js';
import { prepareExampleWorld, sampleInputs } from '../helpers/operation-samples.js';
import { secretLeaks } from '../helpers/leaks.js';
import { writeRecord, type FaultCellRow } from '../helpers/reliability-record.js';
import { example } from '../helpers/webhook-examples.js';

const TOKEN = 'tok_matrix_Hk4sW9qZ2rV7';
const TIMEOUT_SECONDS = 5;
/** A run still going this long after its deadline is hung. */
const WATCHDOG_MS = (TIMEOUT_SECONDS + 20) * 1000;
const POOL_SIZE = 12;
const BRANCH = 'main';
const PR = 1;
const HEAD_SHA = 'c0ffee0000000000000000000000000000000001';
const TARGETS = ['//app:server', '//lib:util'];

// ---------------------------------------------------------------------------------------------------
// The faults (columns)

interface FaultColumn {
  id: string;
  label: string;
  faults: (redirectTo: string) => Fault[];
  /** How a run meeting this fault once must end. */
  expect: 'succeeded' | 'failed';
  /** Requests the faulted endpoint must receive (the faulted one and its retries). */
  attempts: number;
  /** What the ::error:: line must say, when the cell fails. */
  says?: RegExp;
}

const FAULTS: FaultColumn[] = [
  {
    id: 'status-503',
    label: '503 + body',
    faults: () => [{ kind: 'status', status: 503, body: 'Service Unavailable: planned maintenance' }],
    expect: 'succeeded',
    attempts: 2,
  },
  {
    id: 'status-400',
    label: '400 + body',
    faults: () => [{ kind: 'status', status: 400, body: 'request refused: field repo.name is malformed' }],
    expect: 'failed',
    attempts: 1,
    says: /400\b.*\(the service said: "request refused: field repo\.name is malformed"\)/,
  },
  {
    id: 'rate-limit-retry-after',
    label: '429 + Retry-After',
    faults: () => [{ kind: 'rate-limit', retryAfterSeconds: 1 }],
    expect: 'succeeded',
    attempts: 2,
  },
  {
    id: 'rate-limit-past-deadline',
    label: '429 + Retry-After: 600',
    faults: () => [{ kind: 'rate-limit', retryAfterSeconds: 600 }],
    expect: 'failed',
    attempts: 1,
    says: /answered 429\. .*Gave up after 1 attempt\. The organization is over its rate limit.*\(the service said: "Too Many Requests"\)/,
  },
  {
    id: 'rate-limit',
    label: '429, no Retry-After',
    faults: () => [{ kind: 'rate-limit' }],
    expect: 'succeeded',
    attempts: 2,
  },
  {
    id: 'delay',
    label: 'delay 500 ms',
    faults: () => [{ kind: 'delay', ms: 500 }],
    expect: 'succeeded',
    attempts: 1,
  },
  {
    id: 'hang',
    label: 'hang',
    faults: () => [{ kind: 'hang' }],
    expect: 'failed',
    attempts: 1,
    // The attempt has what is left of timeout-seconds: its full 5.0 s, or less once a busy runner took some.
    says: new RegExp(
      `no complete answer within (${TIMEOUT_SECONDS}\\.0|[1-${TIMEOUT_SECONDS - 1}]\\.\\d)s\\. Gave up after 1 attempt\\. .*timeout-seconds`,
    ),
  },
  {
    id: 'reset',
    label: 'connection reset',
    faults: () => [{ kind: 'reset' }],
    expect: 'succeeded',
    attempts: 2,
  },
  {
    id: 'reset-after-handling',
    label: 'reset after the work is done',
    faults: () => [{ kind: 'reset', afterHandling: true }],
    expect: 'succeeded',
    attempts: 2,
  },
  {
    id: 'truncated',
    label: 'truncated body',
    faults: () => [{ kind: 'truncated' }],
    expect: 'succeeded',
    attempts: 2,
  },
  {
    id: 'non-json',
    label: 'non-JSON 200',
    faults: () => [{ kind: 'non-json' }],
    expect: 'failed',
    attempts: 1,
    says: /answered 200 with an HTML page instead of its own answer.*Check api-url.*\(the service said: "Welcome"\)/,
  },
  {
    id: 'html-error',
    label: 'proxy HTML 502',
    faults: () => [{ kind: 'html-error', status: 502 }],
    expect: 'succeeded',
    attempts: 2,
  },
  {
    id: 'redirect',
    label: '307 to another host',
    faults: (redirectTo) => [{ kind: 'redirect', location: redirectTo, status: 307 }],
    expect: 'failed',
    attempts: 1,
    says: /answered 307 redirecting to another address, which is not followed.*\(the service said: "Location: http:\/\/127\.0\.0\.1:\d+\/v1\/.*"\)/,
  },
  {
    id: 'wrong-shape',
    label: '200 with [1,2,3]',
    faults: () => [{ kind: 'status', status: 200, body: '[1,2,3]', contentType: 'application/json' }],
    // A read's answer has a schema; a write answers `{}`, nothing or OK: neither is a list.
    expect: 'failed',
    attempts: 1,
    says: /answered 200 with a body that is not its answer \(it is a list, not an object\), so nothing was taken from it/,
  },
  {
    id: 'not-json',
    label: '200 with text that is not JSON',
    faults: () => [{ kind: 'status', status: 200, body: 'garbage', contentType: 'text/plain' }],
    expect: 'failed',
    attempts: 1,
    says: /answered 200 with text that is not JSON, so nothing was taken from it.*\(the service said: "garbage"\)/,
  },
];

const NOT_THE_ANSWER_FAULTS = ['wrong-shape', 'not-json'];

// ---------------------------------------------------------------------------------------------------
// The operations (rows)

/** One cell's world: its emulator, its repository, and what setup saw before the run. */
class CellWorld {
  readonly repo: Repo;
  readonly slug: string;
  historyBefore = 0;
  queueBefore = '';

  constructor(
    readonly emulator: Emulator,
    name: string,
  ) {
    this.repo = { host: 'github.com', owner: 'matrix', name };
    this.slug = `matrix/${name}`;
  }

  client(): ApiClient {
    return new ApiClient({ baseUrl: this.emulator.url, token: TOKEN, deadlineMs: 5000 });
  }

  async control(method: string, path: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${this.emulator.origin}/_emulator${path}`, {
      method,
      headers: {
        'x-api-token': TOKEN,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`control ${method} ${path}: ${response.status} ${text}`);
    return JSON.parse(text) as unknown;
  }

  createQueue(settings: Record<string, unknown> = {}): Promise<unknown> {
    return this.control('POST', '/queues', { repo: this.slug, targetBranch: BRANCH, ...settings });
  }

  submit(): Promise<unknown> {
    return this.client().call('submitPullRequest', {
      repo: this.repo,
      targetBranch: BRANCH,
      pr: { number: PR },
    });
  }

  async history(): Promise<HistoryEvent[]> {
    const answer = (await this.control('GET', `/history?repo=${this.slug}`)) as { events: HistoryEvent[] };
    return answer.events;
  }

  async prEvents(): Promise<HistoryEvent[]> {
    return (await this.history()).filter((e) => e.kind === 'pr_state' && e.prNumber === PR);
  }

  /** The queue as getQueue answers, or undefined on 404. */
  async queue(): Promise<Record<string, unknown> | undefined> {
    try {
      const response = await this.client().call('getQueue', { repo: this.repo, targetBranch: BRANCH });
      return response.json as Record<string, unknown>;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return undefined;
      throw error;
    }
  }

  seedFlakyTests(): Promise<unknown> {
    return this.control('POST', '/flaky-tests', {
      repositories: [
        {
          repo: this.repo,
          org_url_slug: 'acme',
          tests: [
            {
              id: '00000000-0000-4000-8000-000000000001',
              name: 'test one',
              status: 'flaky',
              quarantine_override: 'ALWAYS_QUARANTINE',
              failures: [{ at: '2025-01-05T12:00:00Z', summary: 'timeout' }],
            },
            {
              id: '00000000-0000-4000-8000-000000000002',
              name: 'test two',
              status: 'broken',
              failures: [{ at: '2025-01-05T13:00:00Z', summary: 'assertion failed' }],
            },
            { id: '00000000-0000-4000-8000-000000000003', name: 'test three', status: 'healthy' },
          ],
        },
      ],
    });
  }
}

interface HistoryEvent {
  kind: string;
  prNumber?: number;
  submissionId?: string;
  from?: string | null;
  to?: string;
  reason?: string | null;
  runId?: string;
}

interface Effects {
  /** What the cell left in the emulator, in words, for the table. */
  described: string;
  problems: string[];
}

interface OperationSpec {
  operation: OperationName;
  /** The endpoint whose requests meet the fault. */
  endpoint: string;
  /** Requests the operation makes to that endpoint when nothing goes wrong (default 1). */
  calls?: number;
  inputs?: (world: CellWorld) => Record<string, string> | Promise<Record<string, string>>;
  setup?: (world: CellWorld) => Promise<void>;
  /** Checks the emulator after the run: the change happened at most once (exactly once on success). */
  effects: (world: CellWorld, succeeded: boolean) => Promise<Effects>;
  /** Outputs a successful run must set (a RegExp for values that vary). */
  success: Record<string, string | RegExp>;
  /** Where this operation must end otherwise than the fault's column says. */
  overrides?: Partial<Record<string, Pick<FaultColumn, 'expect' | 'attempts' | 'says'>>>;
  /** For a row taken from the operation's sample: why its cells cannot run, once its probe ran. */
  unusable?: string;
}

/** A write that is not repeated once its answer is lost: a dropped connection ends the step. */
const NOT_REPEATED = {
  expect: 'failed',
  attempts: 1,
  says: /It was not sent again: the service may already have done it/,
} as const;

/** Where an endpoint's route (src/wire/routes.ts) makes its operations end otherwise than a column says. */
function routeOverrides(endpoint: string): OperationSpec['overrides'] {
  const route = Object.values(ROUTES).find((candidate) => candidate.path === endpoint);
  const lost = ['hang', 'reset', 'reset-after-handling', 'truncated'];
  return {
    // Metrics are Prometheus text: the operation reads them, and garbage fails it with its own line.
    ...(route?.answer === 'metrics'
      ? Object.fromEntries(
          NOT_THE_ANSWER_FAULTS.map((fault) => [
            fault,
            { expect: 'failed', attempts: 1, says: /answered 200 with text that is not Prometheus metrics/ },
          ]),
        )
      : {}),
    ...(route && 'repeatable' in route && route.repeatable === false
      ? Object.fromEntries(lost.map((fault) => [fault, NOT_REPEATED]))
      : {}),
  };
}

const PR_INPUTS = { 'target-branch': BRANCH, 'pr-number': String(PR) };
const QUEUE_INPUTS = { 'target-branch': BRANCH };
const FLAKY_INPUTS = { 'org-url-slug': 'acme' };

async function queueWithPr(world: CellWorld): Promise<void> {
  await world.createQueue();
  await world.submit();
  world.historyBefore = (await world.history()).length;
}

async function seededFlakyTests(world: CellWorld): Promise<void> {
  await world.seedFlakyTests();
}

/** At most `max` of something, and exactly `max` when the run succeeded. */
function counted(what: string, count: number, succeeded: boolean, max = 1): Effects {
  const problems: string[] = [];
  if (count > max) problems.push(`duplicated side effect: ${count} ${what}`);
  if (succeeded && count < max) problems.push(`succeeded, but ${count} ${what}`);
  return { described: `${count} ${what}`, problems };
}

async function unchangedHistory(world: CellWorld): Promise<Effects> {
  const added = (await world.history()).length - world.historyBefore;
  return {
    described: added ? `${added} new event(s)` : 'none (read only)',
    problems: added ? [`a read changed the queue's history (${added} event(s))`] : [],
  };
}

async function unchangedQueue(world: CellWorld): Promise<Effects> {
  const now = JSON.stringify(await world.queue());
  return {
    described: now === world.queueBefore ? 'none (read only)' : 'the queue changed',
    problems: now === world.queueBefore ? [] : ['a read changed the queue'],
  };
}

async function queueSetting(
  world: CellWorld,
  succeeded: boolean,
  field: string,
  wanted: unknown,
): Promise<Effects> {
  const queue = await world.queue();
  const value = queue?.[field];
  const problems =
    succeeded && value !== wanted ? [`succeeded, but the queue's ${field} is ${String(value)}`] : [];
  return { described: `queue ${field}: ${String(value)}`, problems };
}

/** The rows written here: a world, inputs, outputs and side effects checked closely. */
const WRITTEN: OperationSpec[] = [
  {
    operation: 'submit-pull-request',
    endpoint: '/submitPullRequest',
    inputs: () => ({ ...PR_INPUTS, priority: 'high' }),
    setup: async (world) => {
      await world.createQueue();
    },
    effects: async (world, succeeded) => {
      const submissions = new Set(
        (await world.prEvents()).filter((e) => e.from === null).map((e) => e.submissionId),
      );
      return counted('submission(s)', submissions.size, succeeded);
    },
    success: { 'is-submitted': 'true', 'priority-name': 'high', 'priority-value': '10' },
  },
  {
    operation: 'cancel-pull-request',
    endpoint: '/cancelPullRequest',
    inputs: () => PR_INPUTS,
    setup: queueWithPr,
    effects: async (world, succeeded) =>
      counted(
        'cancellation(s)',
        (await world.prEvents()).filter((e) => e.to === 'cancelled').length,
        succeeded,
      ),
    success: {},
  },
  {
    operation: 'restart-tests-on-pull-request',
    endpoint: '/restartTestsOnPullRequest',
    inputs: () => PR_INPUTS,
    setup: queueWithPr,
    effects: async (world, succeeded) =>
      counted(
        'restart(s)',
        (await world.prEvents()).filter((e) => e.reason === 'TESTS_RESTARTED_BY_API_REQUEST').length,
        succeeded,
      ),
    // Not repeated once its answer is lost: its route's row says so (routeOverrides).
    success: {},
  },
  {
    operation: 'get-submitted-pull-request',
    endpoint: '/getSubmittedPullRequest',
    inputs: () => PR_INPUTS,
    setup: queueWithPr,
    effects: unchangedHistory,
    success: { 'is-submitted': 'true', state: 'TESTING', 'priority-name': 'medium' },
  },
  {
    operation: 'get-merge-queue-testing-details',
    endpoint: '/getMergeQueueTestingDetails',
    inputs: async (world) => {
      const run = (await world.history()).find((e) => e.kind === 'run');
      return { ...QUEUE_INPUTS, 'test-run-id': run?.runId ?? 'no-run-found' };
    },
    setup: queueWithPr,
    effects: unchangedHistory,
    success: { 'test-status': 'in_progress', 'tested-pr-numbers': String(PR) },
  },
  {
    operation: 'describe-merge-queue-run',
    endpoint: '/getMergeQueueTestingDetails',
    inputs: async (world) => {
      const run = (await world.history()).find((e) => e.kind === 'run');
      return { ...QUEUE_INPUTS, 'test-run-id': run?.runId ?? 'no-run-found' };
    },
    setup: queueWithPr,
    effects: unchangedHistory,
    success: { 'is-merge-queue-run': 'true', 'tested-pr-numbers': String(PR), dequeued: 'false' },
  },
  {
    operation: 'set-impacted-targets',
    endpoint: '/setImpactedTargets',
    inputs: () => ({ ...PR_INPUTS, 'pr-sha': HEAD_SHA, 'impacted-targets': TARGETS.join('\n') }),
    setup: async (world) => {
      await world.createQueue({ mode: 'parallel' });
      await world.control('POST', '/pull-requests', { repo: world.slug, number: PR, headSha: HEAD_SHA });
    },
    effects: async (world, succeeded) => {
      const info = (await world.control('POST', '/pull-requests', { repo: world.slug, number: PR })) as {
        impactedTargets: Record<string, unknown>;
      };
      const stored = info.impactedTargets[HEAD_SHA];
      const right = JSON.stringify(stored) === JSON.stringify(TARGETS);
      return {
        described: stored
          ? `targets stored for the head sha: ${JSON.stringify(stored)}`
          : 'no targets stored',
        problems:
          succeeded && !right ? [`succeeded, but the stored targets are ${JSON.stringify(stored)}`] : [],
      };
    },
    success: { 'impacted-targets-count': '2', 'impacted-targets-sent': 'list' },
  },
  {
    operation: 'create-queue',
    endpoint: '/createQueue',
    inputs: () => ({ ...QUEUE_INPUTS, mode: 'parallel', concurrency: '3' }),
    effects: async (world, succeeded) => {
      const queue = await world.queue();
      const described = queue
        ? `1 queue (${String(queue.mode)}, concurrency ${String(queue.concurrency)})`
        : 'no queue';
      const right = queue?.mode === 'parallel' && queue.concurrency === 3;
      return { described, problems: succeeded && !right ? [`succeeded, but ${described}`] : [] };
    },
    success: { 'queue-created': 'true', 'queue-mode': 'parallel', concurrency: '3' },
  },
  {
    operation: 'get-queue',
    endpoint: '/getQueue',
    inputs: () => QUEUE_INPUTS,
    setup: async (world) => {
      await world.createQueue();
      world.queueBefore = JSON.stringify(await world.queue());
    },
    effects: unchangedQueue,
    success: { 'queue-exists': 'true', 'queue-state': 'running', 'queue-mode': 'single' },
  },
  {
    operation: 'update-queue',
    endpoint: '/updateQueue',
    inputs: () => ({ ...QUEUE_INPUTS, concurrency: '4' }),
    setup: async (world) => {
      await world.createQueue();
    },
    effects: (world, succeeded) => queueSetting(world, succeeded, 'concurrency', 4),
    success: { concurrency: '4', 'queue-state': 'running' },
  },
  {
    operation: 'delete-queue',
    endpoint: '/deleteQueue',
    inputs: () => QUEUE_INPUTS,
    setup: async (world) => {
      await world.createQueue();
    },
    effects: async (world, succeeded) => {
      const queue = await world.queue();
      return {
        described: queue ? 'the queue is still there' : 'the queue is gone',
        problems: succeeded && queue ? ['succeeded, but the queue is still there'] : [],
      };
    },
    success: { 'queue-exists': 'false' },
  },
  {
    operation: 'pause-queue',
    endpoint: '/updateQueue',
    inputs: () => QUEUE_INPUTS,
    setup: async (world) => {
      await world.createQueue();
    },
    effects: (world, succeeded) => queueSetting(world, succeeded, 'state', 'paused'),
    success: { 'queue-state': 'paused' },
  },
  {
    operation: 'resume-queue',
    endpoint: '/updateQueue',
    inputs: () => QUEUE_INPUTS,
    setup: async (world) => {
      await world.createQueue({ state: 'paused' });
    },
    effects: (world, succeeded) => queueSetting(world, succeeded, 'state', 'running'),
    success: { 'queue-state': 'running' },
  },
  {
    operation: 'drain-queue',
    endpoint: '/updateQueue',
    inputs: () => QUEUE_INPUTS,
    setup: async (world) => {
      await world.createQueue();
    },
    effects: (world, succeeded) => queueSetting(world, succeeded, 'state', 'draining'),
    success: { 'queue-state': 'draining' },
  },
  {
    operation: 'list-pull-requests',
    endpoint: '/listPullRequests',
    inputs: () => QUEUE_INPUTS,
    setup: queueWithPr,
    effects: unchangedHistory,
    success: { count: '1', complete: 'true' },
  },
  {
    operation: 'get-merge-queue-metrics',
    endpoint: '/getMergeQueueMetrics',
    setup: queueWithPr,
    effects: unchangedHistory,
    success: { 'metrics-file': /metrics\.prom$/, response: /mq_depth_current/ },
  },
  {
    operation: 'list-unhealthy-tests',
    endpoint: '/flaky-tests/list-unhealthy-tests',
    // One listing per status, FLAKY and BROKEN, side by side.
    calls: 2,
    inputs: () => FLAKY_INPUTS,
    setup: seededFlakyTests,
    effects: async () => ({ described: 'none (read only)', problems: [] }),
    success: { 'unhealthy-count': '2', 'flaky-count': '1', 'broken-count': '1' },
  },
  {
    operation: 'list-quarantined-tests',
    endpoint: '/flaky-tests/list-quarantined-tests',
    inputs: () => FLAKY_INPUTS,
    setup: seededFlakyTests,
    effects: async () => ({ described: 'none (read only)', problems: [] }),
    success: { 'quarantined-count': '1' },
  },
  {
    operation: 'list-failing-tests',
    endpoint: '/flaky-tests/list-failing-tests',
    inputs: () => ({
      ...FLAKY_INPUTS,
      'start-time': '2025-01-04T00:00:00Z',
      'end-time': '2025-01-07T00:00:00Z',
    }),
    setup: seededFlakyTests,
    effects: async () => ({ described: 'none (read only)', problems: [] }),
    success: { 'failing-count': '2' },
  },
  {
    // Its one failure is quarantined, so it succeeds when the service answers; on-service-error: fail
    // makes an outage fail the step, as every other read does (the default passes with a warning).
    operation: 'check-test-results',
    endpoint: '/flaky-tests/list-quarantined-tests',
    inputs: () => ({
      ...FLAKY_INPUTS,
      'checkout-dir': resolve('__tests__/fixtures/junit'),
      'junit-paths': 'quarantined-failure.xml',
      'on-service-error': 'fail',
    }),
    setup: seededFlakyTests,
    effects: async () => ({ described: 'none (read only)', problems: [] }),
    // Outputs only a checked run has (an outage sets service-error, and checks nothing).
    success: { 'quarantined-failures': /"name":"test one","classname":"suite"/, 'service-error': '' },
  },
  {
    operation: 'get-test-details',
    endpoint: '/flaky-tests/get-test-details',
    inputs: () => ({ ...FLAKY_INPUTS, 'test-id': '00000000-0000-4000-8000-000000000001' }),
    setup: seededFlakyTests,
    effects: async () => ({ described: 'none (read only)', problems: [] }),
    success: { 'test-name': 'test one', 'test-health': 'FLAKY' },
  },
  {
    operation: 'link-ticket-to-test-case',
    endpoint: '/flaky-tests/link-ticket-to-test-case',
    inputs: () => ({ 'test-case-id': '00000000-0000-4000-8000-000000000001', 'external-ticket-id': 'KAN-7' }),
    setup: seededFlakyTests,
    effects: async (world, succeeded) => {
      const response = await world.client().call('getTestDetails', {
        repo: world.repo,
        org_url_slug: 'acme',
        test_id: '00000000-0000-4000-8000-000000000001',
      });
      const ticket = (response.json as { test?: { ticket?: { html_url?: string } } }).test?.ticket?.html_url;
      const linked = !!ticket?.endsWith('KAN-7');
      return {
        described: linked ? 'ticket KAN-7 linked' : 'no ticket linked',
        problems: succeeded && !linked ? ['succeeded, but no ticket is linked'] : [],
      };
    },
    success: {},
  },
];

/** Any value: an output its sample set, which a successful cell must set too. */
const SET = /[\s\S]*/;
/** Outputs run() sets from the context before the operation runs, however it ends. */
const CONTEXT_OUTPUTS = ['repo', 'pr-number', 'target-branch', 'is-merge-queue-test-run'];

/**
 * The row of an operation without a written one, from its sample (helpers/operation-samples.ts): its first
 * help example in the world the help's examples expect. Where it meets the fault, how many calls it makes,
 * the outputs it sets and the history events it adds are what one run without a fault showed (`probe`);
 * how a lost answer ends is its endpoint's route row.
 */
function fromSample(operation: OperationName): OperationSpec {
  let changes = 0;
  const spec: OperationSpec = {
    operation,
    endpoint: '',
    inputs: () => sampleInputs(operation),
    setup: async (world) => {
      await prepareExampleWorld(
        handleOf(() => world.emulator),
        world.slug,
      );
      world.historyBefore = (await world.history()).length;
    },
    effects: async (world, succeeded) => {
      if (!changes) return unchangedHistory(world);
      const added = (await world.history()).length - world.historyBefore;
      return counted('history event(s)', added, succeeded, changes);
    },
    success: {},
  };
  const probe = async () => {
    // Twice, in two worlds: an output both runs set alike is a value a success must set (but the
    // response, the service's own answer, which differs when a retry meets the work already done).
    const [first, second] = [await probeRun(spec, 'probe-a'), await probeRun(spec, 'probe-b')];
    if (first.run.failed)
      return `its help example failed with no fault: ${first.run.error || first.run.stderr.trim()}`;
    if (first.called.length !== 1)
      return `it called ${first.called.length} endpoint(s) (${first.called.join(', ')}): write its row here, naming the one that meets the fault`;
    const [endpoint, calls] = [first.called[0]!, first.calls[0]!];
    changes = first.changes;
    const outputs = Object.entries(first.run.outputs).filter(([name]) => !CONTEXT_OUTPUTS.includes(name));
    Object.assign(spec, {
      endpoint,
      calls,
      success: Object.fromEntries(
        outputs.map(([name, value]) => [
          name,
          name !== 'response' && second.run.outputs[name] === value ? value : SET,
        ]),
      ),
      overrides: routeOverrides(endpoint),
    });
    return undefined;
  };
  sampleProbes.set(operation, async () => {
    spec.unusable = await probe().catch((error: Error) => `its probe could not run: ${error.message}`);
  });
  return spec;
}

const sampleProbes = new Map<OperationName, () => Promise<void>>();

/** One run of a sample without a fault, in a world of its own: what it called and changed. */
async function probeRun(spec: OperationSpec, name: string) {
  const emulator = emulators.get(spec.operation)!;
  const world = new CellWorld(emulator, name);
  await spec.setup!(world);
  const before = await requestCounts(emulator);
  const run = await pool.run(
    { inputs: await cellInputs(spec, world), eventName: 'workflow_dispatch', payload: dispatchEvent },
    WATCHDOG_MS,
  );
  const after = await requestCounts(emulator);
  const called = Object.keys(after).filter((path) => after[path]! > (before[path] ?? 0));
  const calls = called.map((path) => after[path]! - (before[path] ?? 0));
  return { run, called, calls, changes: (await world.history()).length - world.historyBefore };
}

/** Every operation that calls the service (the registry says so), by its written row or its sample's. */
const OPERATIONS: OperationSpec[] = OPERATION_NAMES.filter((name) => REGISTRY[name].api === undefined).map(
  (name) => WRITTEN.find((spec) => spec.operation === name) ?? fromSample(name),
);
for (const spec of WRITTEN) spec.overrides = { ...routeOverrides(spec.endpoint), ...spec.overrides };

/**
 * Cells that show a defect already reported to the owners of the code, with the problem they show. Such a
 * cell passes while it shows exactly that problem; once the defect is fixed it fails until removed here.
 * All three come from a write whose answer was lost after the service had done the work: the client
 * retries (it cannot know), and the retry meets the work already done.
 */
const KNOWN_ISSUES: Record<string, { issue: string; shows: RegExp }> = {};

// ---------------------------------------------------------------------------------------------------
// Running a cell

const dispatchEvent = example('workflow_dispatch');

interface CellResult {
  row: FaultCellRow;
  problems: string[];
}

let pool: ActionPool;
const emulators = new Map<OperationName, Emulator>();
let elsewhere: Server;
let elsewhereUrl: string;
const elsewhereRequests: string[] = [];
const results = new Map<string, CellResult>();
let matrixSeconds = 0;

const cellKey = (operation: string, fault: string) => `${operation} × ${fault}`;

/** How many requests each endpoint of the emulator has received. */
async function requestCounts(emulator: Emulator): Promise<Record<string, number>> {
  const response = await fetch(`${emulator.origin}/_emulator/faults/requests`, {
    headers: { 'x-api-token': TOKEN },
  });
  return (await response.json()) as Record<string, number>;
}

async function requestCount(emulator: Emulator, endpoint: string): Promise<number> {
  return (await requestCounts(emulator))[endpoint] ?? 0;
}

async function cellInputs(spec: OperationSpec, world: CellWorld): Promise<Record<string, string>> {
  return {
    operation: spec.operation,
    'api-token': TOKEN,
    'api-url': world.emulator.url,
    repo: world.slug,
    'timeout-seconds': String(TIMEOUT_SECONDS),
    ...(await spec.inputs?.(world)),
  };
}

async function runCell(spec: OperationSpec, column: FaultColumn): Promise<CellResult> {
  const emulator = emulators.get(spec.operation)!;
  const world = new CellWorld(emulator, column.id);
  await spec.setup?.(world);
  const inputs = await cellInputs(spec, world);
  const redirectTo = `${elsewhereUrl}/v1${spec.endpoint}`;
  const before = await requestCount(emulator, spec.endpoint);
  const elsewhereBefore = elsewhereRequests.length;
  await world.control('POST', '/faults', { path: spec.endpoint, faults: column.faults(redirectTo) });
  const run = await pool.run({ inputs, eventName: 'workflow_dispatch', payload: dispatchEvent }, WATCHDOG_MS);
  const leftOver = ((await world.control('GET', '/faults')) as Record<string, unknown>)[spec.endpoint];
  await world.control('DELETE', '/faults');
  const attempts = (await requestCount(emulator, spec.endpoint)) - before;

  const succeeded = !run.failed;
  const effects = await spec.effects(world, succeeded);
  const problems = [
    ...runProblems(run, { ...column, ...spec.overrides?.[column.id] }, attempts - ((spec.calls ?? 1) - 1)),
    ...outputProblems(spec, run),
    ...effects.problems,
    ...(leftOver ? ['the fault was never met: the operation did not call the endpoint'] : []),
    ...(elsewhereRequests.length > elsewhereBefore
      ? ['a request followed the redirect to another host']
      : []),
  ];
  return {
    problems,
    row: {
      operation: spec.operation,
      fault: column.id,
      outcome: succeeded ? 'succeeded' : 'failed',
      attempts,
      sideEffects: effects.described,
      line: run.error,
      seconds: run.seconds,
      deadlineSeconds: TIMEOUT_SECONDS,
      passed: problems.length === 0,
      problems,
      knownIssue: KNOWN_ISSUES[cellKey(spec.operation, column.id)]?.issue,
    },
  };
}

function runProblems(run: PooledRun, column: FaultColumn, attempts: number): string[] {
  if (run.hung) return [`the run did not end within ${WATCHDOG_MS / 1000}s: it hung`];
  const problems: string[] = [];
  const lines = `${run.log}\n${run.stderr}`.split('\n');
  const errors = lines.filter((line) => line.startsWith('::error'));
  const outcome = run.failed ? 'failed' : 'succeeded';
  if (outcome !== column.expect)
    problems.push(`${outcome}, but a run meeting this fault must have ${column.expect}`);
  if (run.failed && errors.length !== 1)
    problems.push(`failed with ${errors.length} ::error:: lines instead of one`);
  if (!run.failed && errors.length) problems.push(`succeeded but printed ${errors.length} ::error:: line(s)`);
  if (run.failed && column.says && !column.says.test(run.error)) {
    problems.push(`the line does not say ${column.says}`);
  }
  if (attempts !== column.attempts)
    problems.push(`${attempts} request(s) to the endpoint, not ${column.attempts}`);
  if (lines.some((line) => /^\s+at /.test(line))) problems.push('a stack trace was printed');
  if (/\b[A-Z][A-Za-z]*Error: /.test(run.log + run.stderr))
    problems.push('a JavaScript error name was printed');
  if (run.stderr.trim()) problems.push(`stderr: ${run.stderr.trim().slice(0, 200)}`);
  const leaks = secretLeaks({ ...run, log: `${run.log}\n${run.stderr}` }, TOKEN);
  problems.push(...leaks.map((where) => `the token is readable in ${where}`));
  return problems;
}

/** Success sets the outputs the operation promises; failure claims none of them. */
function outputProblems(spec: OperationSpec, run: PooledRun): string[] {
  if (run.hung) return [];
  const problems: string[] = [];
  const matches = (name: string, wanted: string | RegExp) => {
    const value = run.outputs[name];
    return value !== undefined && (typeof wanted === 'string' ? value === wanted : wanted.test(value));
  };
  if (!run.failed) {
    if (!('response' in run.outputs)) problems.push('succeeded without a response output');
    for (const [name, wanted] of Object.entries(spec.success)) {
      if (!matches(name, wanted))
        problems.push(`succeeded, but output ${name} is ${JSON.stringify(run.outputs[name])}`);
    }
    if (!run.summary.trim()) problems.push('succeeded without a summary');
  } else {
    for (const [name, wanted] of Object.entries(spec.success)) {
      if (wanted !== SET && matches(name, wanted))
        problems.push(`failed, yet output ${name} claims success (${run.outputs[name]})`);
    }
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------------

beforeAll(async () => {
  elsewhere = createServer((request, response) => {
    elsewhereRequests.push(
      `${request.method} ${request.url} token=${String(request.headers['x-api-token'])}`,
    );
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
  elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
  pool = await ActionPool.start(POOL_SIZE);
  for (const spec of OPERATIONS) emulators.set(spec.operation, await startEmulator({ token: TOKEN }));
  await Promise.all([...sampleProbes.values()].map((probe) => probe()));

  const started = performance.now();
  // One lane per operation (its own emulator, its cells one after another, so that two cells never
  // share an endpoint's fault queue); the lanes run side by side, as many runs at once as the pool has.
  await Promise.all(
    OPERATIONS.map(async (spec) => {
      for (const column of FAULTS) {
        let result: CellResult;
        try {
          if (spec.unusable) throw new Error(spec.unusable);
          result = await runCell(spec, column);
        } catch (error) {
          const problem = `the cell could not run: ${(error as Error).message}`;
          result = {
            problems: [problem],
            row: {
              operation: spec.operation,
              fault: column.id,
              outcome: 'failed',
              attempts: 0,
              sideEffects: '',
              line: problem,
              seconds: 0,
              deadlineSeconds: TIMEOUT_SECONDS,
              passed: false,
              problems: [problem],
            },
          };
        }
        results.set(cellKey(spec.operation, column.id), result);
      }
    }),
  );
  matrixSeconds = Math.round(performance.now() - started) / 1000;
}, 240_000);

afterAll(async () => {
  await pool?.close();
  await Promise.all([...emulators.values()].map((emulator) => emulator.close()));
  await new Promise((resolve) => elsewhere?.close(resolve));
  writeRecord(
    'fault-matrix',
    OPERATIONS.flatMap((spec) =>
      FAULTS.map((column) => results.get(cellKey(spec.operation, column.id))?.row),
    ).filter((row) => row !== undefined),
  );
  writeRecord('fault-matrix-meta', [
    {
      seconds: matrixSeconds,
      poolSize: POOL_SIZE,
      timeoutSeconds: TIMEOUT_SECONDS,
      faults: FAULTS.map(({ id, label, expect, attempts }) => ({ id, label, expect, attempts })),
      missingOperations: OPERATION_NAMES.filter(
        (name) => !OPERATIONS.some((spec) => spec.operation === name),
      ),
      callsPerRun: Object.fromEntries(
        OPERATIONS.filter((spec) => spec.calls).map((spec) => [spec.operation, spec.calls]),
      ),
    },
  ]);
});

describe('the fault matrix', () => {
  it('runs every operation of the action, from its written row or its sample', () => {
    // Those whose registry row says `api: 'none'` call no endpoint of the service: their own failures
    // (git, the GitHub API, a command) are covered by __tests__/core/impacted-targets-*.test.ts. Those
    // whose row says `api: 'v2'` stop over v1 before any request: the v2 transport's faults (retries, a
    // write read back before it is resent) are covered by __tests__/core/v2-client.test.ts, the planner's
    // refusals by __tests__/planner/.
    const unusable = OPERATIONS.filter((spec) => spec.unusable).map(
      (spec) => `${spec.operation}: ${spec.unusable}`,
    );
    expect(unusable).toEqual([]);
    expect(OPERATIONS.map((spec) => spec.operation).sort()).toEqual(
      OPERATION_NAMES.filter((name) => REGISTRY[name].api === undefined).sort(),
    );
  });

  it.each(
    OPERATIONS.flatMap((spec) => FAULTS.map((column) => [cellKey(spec.operation, column.id)] as const)),
  )('%s', (key) => {
    const result = results.get(key);
    expect(result).toBeDefined();
    const { line } = result!.row;
    const known = KNOWN_ISSUES[key];
    if (known) {
      // Still the known defect, and nothing else; when it is fixed, remove it from KNOWN_ISSUES.
      expect(result!.problems.length).toBeGreaterThan(0);
      expect(result!.problems.filter((problem) => !known.shows.test(problem))).toEqual([]);
    } else {
      expect({ line, problems: result!.problems }).toEqual({ line, problems: [] });
    }
  });
});

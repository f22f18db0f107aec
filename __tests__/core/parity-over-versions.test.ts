// v1/v2 parity: every operation both API versions serve runs its sample (its first help example, in the
// world the help's examples expect) once over api-version v1 and once over v2, each on a fresh emulator
// started alike (same seed, same clock), and a user must not notice which answered: the same outcome and
// error line, the same outputs, the same lead line of the summary. Over v2 the calls go to v2's paths,
// none to v1's path of an endpoint whose route (src/wire/routes.ts) says `translated`. A new operation is
// covered from its sample; one whose sample cannot run here gets a row in WRITTEN, never a silent skip.
import { beforeAll, describe, expect, it } from '@jest/globals';
import { tmpdir } from 'node:os';
import { basename, resolve } from 'node:path';
import { startEmulator } from '../../emulator/server.js';
import { OPERATIONS, OPERATION_NAMES, type OperationName } from '../../src/core/operations/registry.js';
import type { Route } from '../../src/wire/endpoint-row.js';
import { ROUTES } from '../../src/wire/routes.js';
import { runAction } from '../helpers/action-runner.js';
import { QueueDriver, TEST_TOKEN, handleOf, type EmulatorHandle } from '../helpers/emulator.js';
import {
  EXAMPLE_BRANCH,
  EXAMPLE_ORG,
  prepareExampleWorld,
  sampleInputs,
  sampleSucceeds,
} from '../helpers/operation-samples.js';
import type { Version } from '../helpers/over-versions.js';
import { startCheckingProxy } from '../helpers/v2-requests.js';

const REPO = 'acme/parity';
const SEED = 7;
/** Both worlds start at the same instant, so that the service's times agree too. */
const START = Date.parse('2026-11-20T09:00:00Z');

interface ParityRow {
  /** Prepares the world; by default the help examples' world. */
  setup?: (emulator: EmulatorHandle) => Promise<void>;
  /** The inputs; by default the sample's. */
  inputs?: (emulator: EmulatorHandle) => Promise<Record<string, string>> | Record<string, string>;
  /** Whether the run must succeed; by default what the sample's help example says. */
  succeeds?: boolean;
}

async function firstRunId(emulator: EmulatorHandle): Promise<string> {
  const run = (await new QueueDriver(emulator, REPO, EXAMPLE_BRANCH).history()).find((e) => e.kind === 'run');
  if (!run?.runId) throw new Error('the example world has no test run');
  return run.runId;
}

/** A test the world's flaky-tests service knows, quarantined, whose one failure is the JUnit fixture's. */
const KNOWN_TEST = '00000000-0000-4000-8000-000000000001';

async function withKnownTest(emulator: EmulatorHandle): Promise<void> {
  await prepareExampleWorld(emulator, REPO);
  await new QueueDriver(emulator, REPO).flakyTests(EXAMPLE_ORG, [
    {
      id: KNOWN_TEST,
      name: 'test one',
      status: 'flaky',
      quarantine_override: 'ALWAYS_QUARANTINE',
      failures: [{ at: '2026-11-19T12:00:00Z', summary: 'timeout' }],
    },
  ]);
}

/**
 * The operations whose sample cannot show parity as it is: its help example names an id the emulator's
 * world lacks or a file the test's directory does not have, or meets a world where the two versions
 * legitimately answer otherwise. A row gives its world, its inputs, or both.
 */
const WRITTEN: Partial<Record<OperationName, ParityRow>> = {
  // Over v1 a second submit updates the entry, over v2 it is refused as already queued: the sample
  // submits a PR the world has not queued yet, and creates a queue it has not.
  'submit-pull-request': { setup: (emulator) => prepareExampleWorld(emulator, REPO, { noPr: true }) },
  'create-queue': { setup: (emulator) => prepareExampleWorld(emulator, REPO, { noQueue: true }) },
  'get-merge-queue-testing-details': {
    inputs: async (emulator) => ({
      'target-branch': EXAMPLE_BRANCH,
      'test-run-id': await firstRunId(emulator),
    }),
  },
  'describe-merge-queue-run': {
    inputs: async (emulator) => ({
      'target-branch': EXAMPLE_BRANCH,
      'test-run-id': await firstRunId(emulator),
    }),
  },
  'get-test-details': {
    setup: withKnownTest,
    inputs: () => ({ 'org-url-slug': EXAMPLE_ORG, 'test-id': KNOWN_TEST }),
  },
  'link-ticket-to-test-case': {
    setup: withKnownTest,
    inputs: () => ({ 'test-case-id': KNOWN_TEST, 'external-ticket-id': 'KAN-7' }),
  },
  'check-test-results': {
    // Its one failure ("test one" of suite) is quarantined: the gate passes over both.
    setup: withKnownTest,
    inputs: () => ({
      'org-url-slug': EXAMPLE_ORG,
      'checkout-dir': resolve('__tests__/fixtures/junit'),
      'junit-paths': 'quarantined-failure.xml',
    }),
    succeeds: true,
  },
};

/** Every operation both versions serve (its registry row names no `api`), by its written row or its sample. */
const BOTH = OPERATION_NAMES.filter((name) => OPERATIONS[name].api === undefined);

function rowOf(operation: OperationName): Required<ParityRow> {
  const written = WRITTEN[operation];
  return {
    setup: written?.setup ?? ((emulator) => prepareExampleWorld(emulator, REPO)),
    inputs: written?.inputs ?? (() => sampleInputs(operation)),
    succeeds: written?.succeeds ?? (written?.inputs ? true : sampleSucceeds(operation)),
  };
}

/** What a user sees of one run, and what it asked of the service. */
interface Seen {
  failed: boolean;
  error: string;
  outputs: Record<string, string>;
  lead: string;
  /** `METHOD /v1/...` and `METHOD /v2/...`, as they reached the emulator. */
  requests: string[];
  /** Requests over v2 that the v2 document does not allow. */
  problems: string[];
}

/** One run of `operation` over `version`, on a fresh emulator started as every other. */
async function runOver(operation: OperationName, version: Version): Promise<Seen> {
  const emulator = await startEmulator({ token: TEST_TOKEN, seed: SEED, startTime: START });
  const proxy = await startCheckingProxy(emulator.origin);
  try {
    const handle = handleOf(() => emulator);
    const row = rowOf(operation);
    await row.setup(handle);
    const inputs = await row.inputs(handle);
    const run = await runAction({
      eventName: 'workflow_dispatch',
      env: { GITHUB_REPOSITORY: REPO },
      inputs: {
        operation,
        'api-url': `${proxy.origin}/v1`,
        'api-token': version === 'v1' ? TEST_TOKEN : emulator.v2Key,
        'api-version': version,
        'target-branch': EXAMPLE_BRANCH,
        ...inputs,
      },
    });
    return {
      failed: run.failed,
      error: run.error,
      outputs: run.outputs,
      lead: run.summary.split('\n')[0] ?? '',
      requests: [...proxy.all],
      problems: [...proxy.problems],
    };
  } finally {
    await proxy.close();
    await emulator.close();
  }
}

/** The v1 paths of the endpoints v2 answers itself: over v2 none of them may be called. */
const TRANSLATED_PATHS = new Set(
  Object.values(ROUTES)
    .filter((route) => route.v2 === 'translated')
    .map((route) => `${route.method} /v1${route.path}`),
);

/** Each operation's two runs, or why they could not be made. */
/**
 * The v1 paths of the v1-only endpoints that take a key: over v2 they go to v1 with the v2 key, which v1
 * refuses (docs/api-v2.md), so an operation calling one fails over v2.
 */
const V1_ONLY_PATHS = new Set(
  Object.values(ROUTES)
    .filter((route: Route) => route.v2 === 'v1-only' && route.authenticated !== false)
    .map((route) => `${route.method} /v1${route.path}`),
);

const seen = new Map<OperationName, Record<Version, Seen> | string>();

beforeAll(async () => {
  // One after another: each run has its own emulator, and the runs' stdout is captured in turn.
  for (const operation of BOTH) {
    try {
      seen.set(operation, { v1: await runOver(operation, 'v1'), v2: await runOver(operation, 'v2') });
    } catch (error) {
      seen.set(operation, `its runs could not be prepared: ${(error as Error).message}`);
    }
  }
}, 180_000);

function runsOf(operation: OperationName): Record<Version, Seen> {
  const runs = seen.get(operation);
  if (typeof runs !== 'object') throw new Error(`${operation}: ${runs ?? 'never run'}`);
  return runs;
}

/**
 * Differences a user may notice that the translation accepts, each with its reason, by operation and path
 * into what is compared (an output holding JSON is compared parsed): set aside before comparing, and
 * checked to differ still, so that each goes from here once it is gone.
 */
const KNOWN_DIFFERENCES: Partial<Record<OperationName, string[]>> = {
  // While a PR tests, v2 names no verifying run; reading it would cost a call in the 5/s pull-request
  // bucket, and the translation reads it only where a report names the run's checks (v2/pull-requests.ts).
  'get-submitted-pull-request': ['outputs.response.verifiedByTestRun'],
  // v1's submit answers an empty object; v2's answers the entry it made, which the translation passes on.
  'submit-pull-request': ['outputs.response'],
  // v2's test case has no address, repository, failure summaries or reason for its status: over v2 the
  // test-url output is empty and the answer has none of them.
  'get-test-details': [
    'outputs.test-url',
    'outputs.response.test.html_url',
    'outputs.response.test.repository',
    'outputs.response.test.most_common_failures',
    'outputs.response.test.status.reason',
  ],
};

/** v1 tells a PR's place as a position, v2 from its dispatch order (summary.ts atPlace): either is its place. */
const PLACE_IN_LINE =
  / at position \d+ of \d+(?=: )| \((?:in (?:its own|one) (?:bisection )?run|directly behind|next to be tested)[^)]*\)(?=: )/;
/** The service's own words: each version words its refusals itself, with request ids of its own. */
const SERVICE_SAID = /\(the service said: .*\)$/;

function visible(run: Seen): Record<string, unknown> {
  return {
    failed: run.failed,
    error: run.error.replace(SERVICE_SAID, '(the service said: <its own words>)'),
    outputs: Object.fromEntries(
      Object.entries(run.outputs).map(([name, value]) => [name, outputValue(value)]),
    ),
    lead: run.lead.replace(PLACE_IN_LINE, ' <place in line>'),
  };
}

/** An output as compared: JSON parsed (key order is no difference), a file by its name. */
function outputValue(value: string): unknown {
  // Each run writes its files under a RUNNER_TEMP of its own.
  if (value.startsWith(tmpdir())) return `<temp>/${basename(value)}`;
  try {
    return withoutCursors(JSON.parse(value));
  } catch {
    return value;
  }
}

/**
 * A page's tokens are each version's own cursor (v2 pages by cursor and has no last page): whether there
 * is a next page is compared, not its token.
 */
function withoutCursors(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutCursors);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'last_page_token' && key !== 'prev_page_token')
      .map(([key, inner]) => [key, key === 'next_page_token' ? Boolean(inner) : withoutCursors(inner)]),
  );
}

function valueAt(value: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], value);
}

function withoutPath(value: unknown, path: string): unknown {
  const [key, ...rest] = path.split('.');
  if (value === null || typeof value !== 'object' || !(key! in value)) return value;
  const copy = { ...(value as Record<string, unknown>) };
  if (rest.length) copy[key!] = withoutPath(copy[key!], rest.join('.'));
  else delete copy[key!];
  return copy;
}

/** What a user sees of a run, without the known differences of its operation. */
function comparable(run: Seen, operation: OperationName): unknown {
  return (KNOWN_DIFFERENCES[operation] ?? []).reduce(withoutPath, visible(run));
}

/** Why an operation's run cannot show parity, or undefined when it can. */
function unusable(operation: OperationName): string | undefined {
  const runs = seen.get(operation);
  if (typeof runs !== 'object') return runs ?? 'never run';
  const { v1 } = runs;
  const row = rowOf(operation);
  if (v1.failed === row.succeeds)
    return `over v1 it ${v1.failed ? `failed (${v1.error})` : 'succeeded'}, but its ${WRITTEN[operation]?.inputs ? 'row' : 'help example'} says it ${row.succeeds ? 'succeeds' : 'fails'}: write its row in WRITTEN`;
  if (!v1.requests.some((request) => request.includes(' /v1/')))
    return 'over v1 it called no endpoint of the service: write its row in WRITTEN';
  const v1Only = v1.requests.filter((request) => V1_ONLY_PATHS.has(request));
  if (v1Only.length && !KNOWN_DIFFERENCES[operation])
    return `it calls ${v1Only.join(', ')}, v1-only: over v2 the v2 key goes to v1, which refuses it. Translate the endpoint, or name the difference in KNOWN_DIFFERENCES`;
  return undefined;
}

describe('v1/v2 parity of every operation both versions serve', () => {
  it('runs every operation whose registry row serves both versions, each as its sample or row says', () => {
    const cannot = BOTH.flatMap((operation) => {
      const why = unusable(operation);
      return why ? [`${operation}: ${why}`] : [];
    });
    expect(cannot).toEqual([]);
  });

  it('calls every translated endpoint over v1 from some operation, so that its translation runs over v2', () => {
    const called = new Set(
      [...seen.values()].flatMap((runs) => (typeof runs === 'object' ? runs.v1.requests : [])),
    );
    const neverCalled = Object.entries(ROUTES)
      .filter(([, route]) => TRANSLATED_PATHS.has(`${route.method} /v1${route.path}`))
      .filter(([, route]) => !called.has(`${route.method} /v1${route.path}`))
      .map(([endpoint]) => endpoint);
    expect(neverCalled).toEqual([]);
  });

  it.each(BOTH.map((operation) => [operation]))('%s: the same over v1 and v2', (operation) => {
    const { v1, v2 } = runsOf(operation);
    expect(comparable(v2, operation)).toEqual(comparable(v1, operation));
  });

  it.each(
    Object.entries(KNOWN_DIFFERENCES).flatMap(([operation, paths]) => paths!.map((p) => [operation, p])),
  )(
    '%s: %s still differs as known (remove it from KNOWN_DIFFERENCES once it does not)',
    (operation, path) => {
      const { v1, v2 } = runsOf(operation as OperationName);
      const at = (run: Seen) => valueAt(visible(run), path);
      expect(at(v2)).not.toEqual(at(v1));
    },
  );

  it.each(BOTH.map((operation) => [operation]))(
    '%s: over v2 it calls v2 for its translated endpoints, never v1',
    (operation) => {
      const { v1, v2 } = runsOf(operation);
      expect(v2.requests.filter((request) => TRANSLATED_PATHS.has(request))).toEqual([]);
      // An operation whose endpoints are all `v1-only` may go to v1 alone over v2 too.
      const translated = v1.requests.some((request) => TRANSLATED_PATHS.has(request));
      const overV2 = v2.requests.filter((request) => request.includes(' /v2/'));
      expect(overV2.length).toBeGreaterThanOrEqual(translated ? 1 : 0);
      expect(v2.problems).toEqual([]);
    },
  );
});

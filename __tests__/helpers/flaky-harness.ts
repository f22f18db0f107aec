// Shared by the flaky-tests test files: an emulator with a seeded flaky-tests store, fixtures in the
// shapes that break summaries, and an operation run in-process against the emulator over HTTP.
import type { ClientOptions } from '../../src/core/api/client.js';
import type { FixtureTest, FlakyFixture } from '../../emulator/flaky-tests/fixture.js';
import { startEmulator, type Emulator } from '../../emulator/server.js';
import type { OperationResult } from '../../src/core/operations/types.js';
import { contextOf, prepareFrom, startPrepared, type RecordedAnnotation } from './prepare.js';

export const TOKEN = 'tok_flaky_tests_5ecret';
export const ORG = 'octo-org';
export const REPO = { host: 'github.com', owner: 'octo-org', name: 'octo-repo' };

export function startFlakyEmulator(): Promise<Emulator> {
  return startEmulator({ token: TOKEN });
}

/** Seeds through the control surface, as a user rehearsing a workflow would. */
export async function seed(emulator: Emulator, fixture: FlakyFixture): Promise<unknown> {
  const response = await fetch(`${emulator.origin}/_emulator/flaky-tests`, {
    method: 'POST',
    headers: { 'x-api-token': TOKEN, 'content-type': 'application/json' },
    body: JSON.stringify(fixture),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`seeding failed: ${response.status} ${text}`);
  return JSON.parse(text);
}

/** `count` tests of one status named `<prefix> <i>`, impacting i pull requests each. */
export function tests(count: number, status: FixtureTest['status'], prefix: string = status): FixtureTest[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `${prefix} ${i}`,
    status,
    pull_requests_impacted_last_7d: i,
  }));
}

export interface OperationRun extends OperationResult {
  logs: string[];
  warnings: string[];
  annotations: RecordedAnnotation[];
}

type FlakyOperation =
  | 'check-test-results'
  | 'list-unhealthy-tests'
  | 'list-quarantined-tests'
  | 'list-failing-tests'
  | 'get-test-details'
  | 'link-ticket-to-test-case';

/** Runs one operation in-process with settings read from `inputs`, against the emulator. */
export async function runOperation(
  operation: FlakyOperation,
  emulator: Emulator,
  inputs: Record<string, string>,
): Promise<OperationRun> {
  const given: Record<string, string> = {
    operation,
    'api-url': emulator.url,
    'api-token': TOKEN,
    ...(operation === 'link-ticket-to-test-case' ? {} : { 'org-url-slug': ORG }),
    ...inputs,
  };
  const prepared = prepareFrom(given);
  const clientOptions: ClientOptions = {
    baseUrl: prepared.common.apiUrl,
    token: prepared.common.apiToken,
    deadlineMs: prepared.common.timeoutMs,
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
  };
  const context = contextOf({ repo: REPO, trigger: 'schedule' });
  const { infos, ...result } = await startPrepared(prepared, context, clientOptions);
  return { ...result, logs: infos };
}

/** The message of the error `call` fails with. */
export async function failureOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  throw new Error('expected a failure');
}

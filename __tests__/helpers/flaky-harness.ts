// Shared by the flaky-tests test files: an emulator with a seeded flaky-tests store, fixtures in the
// shapes that break summaries (operations run with prepare.ts's runOperation).
import type { FixtureTest, FlakyFixture } from '../../emulator/flaky-tests/fixture.js';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../emulator/server.js';

export const TOKEN = 'tok_flaky_tests_5ecret';
export const ORG = 'octo-org';
export const REPO = { host: 'github.com', owner: 'octo-org', name: 'octo-repo' };

export function startFlakyEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  return startEmulator({ token: TOKEN, ...options });
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

/** The message of the error `call` fails with. */
export async function failureOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  throw new Error('expected a failure');
}

// Each operation's sample run: the first example of its registry row (which the compiler asks of every
// operation) as the action's inputs, in the world the help's examples expect. The suites that run
// every operation (the fault matrix, the summaries) run an operation they have no step of their own for
// from its sample, so a new operation is covered without editing them.
import { exampleInputs } from '../../src/core/operations/example.js';
import { OPERATIONS, type OperationName } from '../../src/core/operations/registry.js';
import { QueueDriver, type EmulatorHandle } from './emulator.js';

/** The branch, PR and organization the help's examples name. */
export const EXAMPLE_BRANCH = 'main';
export const EXAMPLE_PR = 12;
export const EXAMPLE_ORG = 'acme';

/** The inputs of the operation's first help example, as the action takes them. */
export function sampleInputs(operation: OperationName): Record<string, string> {
  return { 'target-branch': EXAMPLE_BRANCH, ...exampleInputs(OPERATIONS[operation].examples[0]) };
}

/** Whether the example ends with exit 0 (one may fail on purpose, as its help says). */
export function sampleSucceeds(operation: OperationName): boolean {
  return !OPERATIONS[operation].examples[0].exitCode;
}

export interface ExampleWorldOptions {
  /** Leave main without a queue (an example that creates it). */
  noQueue?: boolean;
  /** Leave PR 12 out of main's queue (an example that submits it). */
  noPr?: boolean;
}

/**
 * The state the help's examples expect of `repo`: queues for main and release, PR 12 in main's (its CI
 * needing `emulated-ci/test`), and tests of the organization acme, two of them flaky, none broken.
 */
export async function prepareExampleWorld(
  emulator: EmulatorHandle,
  repo: string,
  { noQueue = false, noPr = false }: ExampleWorldOptions = {},
): Promise<void> {
  const main = new QueueDriver(emulator, repo, EXAMPLE_BRANCH);
  if (!noQueue) await main.create({ requiredStatuses: ['emulated-ci/test'] });
  if (!noQueue && !noPr) await main.submit(EXAMPLE_PR);
  await new QueueDriver(emulator, repo, 'release').create();
  const seeded = await emulator.control('POST', '/flaky-tests', {
    repositories: [
      { repo: main.repo, org_url_slug: EXAMPLE_ORG, generate: { flaky: 2, broken: 0, healthy: 2, seed: 3 } },
    ],
  });
  if (seeded.status !== 200) throw new Error(`seeding the flaky tests: ${seeded.status} ${seeded.text}`);
}

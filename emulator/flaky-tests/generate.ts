// Made-up but realistic flaky-tests data for benchmarks and demos: test names in the shapes of jest,
// pytest and go test, owners per area, a long tail of impacted PRs, recent failures with real-looking
// messages, some quarantine overrides and tickets. The same spec always gives the same tests.
import { SeededRandom } from '../../src/queue-model/index.js';
import type { FixtureTest, GenerateSpec, TestStatus } from './fixture.js';

const DAY_MS = 24 * 3600 * 1000;

const AREAS = [
  { area: 'checkout', team: '@acme/payments', noun: 'Cart' },
  { area: 'payments', team: '@acme/payments', noun: 'Invoice' },
  { area: 'search', team: '@acme/discovery', noun: 'Query' },
  { area: 'auth', team: '@acme/identity', noun: 'Session' },
  { area: 'inventory', team: '@acme/supply', noun: 'Stock' },
  { area: 'notifications', team: '@acme/messaging', noun: 'Email' },
  { area: 'shipping', team: '@acme/supply', noun: 'Parcel' },
  { area: 'profile', team: '@acme/identity', noun: 'Avatar' },
] as const;

const VERBS = ['creates', 'updates', 'retries', 'expires', 'renders', 'validates', 'syncs', 'cancels'];
const CONDITIONS = ['when offline', 'under load', 'after a timeout', 'with a stale cache', 'on first run'];
const VARIANTS = ['', '', '', 'linux-x64', 'macos-arm64', 'postgres-16'];
const FAILURE_MESSAGES = [
  'TimeoutError: waiting for selector "#submit" failed: timeout 5000ms exceeded',
  'AssertionError: expected 200 but got 503',
  'Error: connect ECONNREFUSED 127.0.0.1:5432',
  'expected [] to have a length of 3 but got 0',
  'panic: runtime error: invalid memory address or nil pointer dereference',
  'AssertionError: assert 0.30000000000000004 == 0.3',
  'Error: Jest did not exit one second after the test run has completed',
  'context deadline exceeded',
];
const TICKET_PROJECTS = ['KAN', 'FLAKE', 'QA'];

/** `spec.flaky` flaky, `spec.broken` broken and `spec.healthy` healthy tests, in a shuffled order. */
export function generateFlakyTests(spec: GenerateSpec, nowMs: number): FixtureTest[] {
  const random = new SeededRandom(spec.seed ?? 42);
  const statuses: TestStatus[] = [
    ...Array<TestStatus>(spec.flaky).fill('flaky'),
    ...Array<TestStatus>(spec.broken).fill('broken'),
    ...Array<TestStatus>(spec.healthy ?? 0).fill('healthy'),
  ];
  for (let i = statuses.length - 1; i > 0; i--) {
    const j = random.int(i + 1);
    [statuses[i], statuses[j]] = [statuses[j]!, statuses[i]!];
  }
  return statuses.map((status, index) => generateTest(random, status, index, nowMs));
}

function generateTest(random: SeededRandom, status: TestStatus, index: number, nowMs: number): FixtureTest {
  const { area, team, noun } = pick(random, AREAS);
  const verb = pick(random, VERBS);
  const condition = pick(random, CONDITIONS);
  const shape = random.int(3);
  const module = `${noun.toLowerCase()}_${verb}`;
  const naming =
    shape === 0
      ? {
          name: `${noun}Service > ${verb} the ${noun.toLowerCase()} ${condition} (#${index})`,
          file_path: `src/${area}/__tests__/${module}.test.ts`,
          parent: `${noun}Service`,
        }
      : shape === 1
        ? {
            name: `test_${verb}_${noun.toLowerCase()}_${condition.replace(/ /g, '_')}[case-${index}]`,
            file_path: `tests/${area}/test_${module}.py`,
            classname: `tests.${area}.test_${module}.Test${noun}`,
          }
        : {
            name: `Test${noun}${capitalize(verb)}/${condition.replace(/ /g, '_')}_${index}`,
            file_path: `${area}/${module}_test.go`,
            parent: `Test${noun}${capitalize(verb)}`,
          };
  const failureCount = status === 'healthy' ? random.int(2) : 1 + random.int(status === 'broken' ? 20 : 6);
  const failures = Array.from({ length: failureCount }, () => ({
    at: new Date(nowMs - random.int(7 * DAY_MS)).toISOString(),
    summary: pick(random, FAILURE_MESSAGES),
  })).sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  const runs = 20 + random.int(400);
  const rate7d = Math.min(1, failureCount / runs);
  const test: FixtureTest = {
    ...naming,
    variant: pick(random, VARIANTS),
    status,
    reason: reasonFor(status, failureCount, runs),
    status_changed_at: new Date(nowMs - random.int(30 * DAY_MS)).toISOString(),
    codeowners: random.int(10) === 0 ? [team, '@acme/platform'] : [team],
    // A long tail: most tests hurt a few PRs, a handful hurt many.
    pull_requests_impacted_last_7d: status === 'healthy' ? 0 : Math.floor(Math.exp(random.next() * 5)) - 1,
    failures,
    failure_rate_last_7d: round(rate7d),
    failure_rate_last_24h: round(Math.min(1, rate7d * (0.5 + random.next()))),
  };
  const roll = random.int(100);
  if (roll < 5) test.quarantine_override = 'ALWAYS_QUARANTINE';
  else if (roll < 7) test.quarantine_override = 'NEVER_QUARANTINE';
  if (random.int(10) === 0) {
    test.ticket_url = `https://acme.atlassian.net/browse/${pick(random, TICKET_PROJECTS)}-${100 + random.int(9000)}`;
  }
  return test;
}

function reasonFor(status: TestStatus, failures: number, runs: number): string {
  if (status === 'flaky') return `Failed ${failures} of ${runs} runs on main and passed on retry`;
  if (status === 'broken') return `Failed the last ${failures} runs on main`;
  return `Passed ${runs - failures} of ${runs} runs`;
}

function pick<T>(random: SeededRandom, values: readonly T[]): T {
  return values[random.int(values.length)]!;
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

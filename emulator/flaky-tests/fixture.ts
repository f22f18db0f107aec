// The seed format of the emulator's flaky-tests store: what `--flaky-fixture <path>` reads and what
// `POST /_emulator/flaky-tests` takes. snake_case like the wire, so that a fixture reads like the API.
import { readFileSync, statSync } from 'node:fs';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { MAX_BODY_BYTES, Repo } from '../../src/wire/index.js';

export const TEST_STATUSES = ['healthy', 'flaky', 'broken'] as const;
export type TestStatus = (typeof TEST_STATUSES)[number];
export const QUARANTINE_OVERRIDES = ['ALWAYS_QUARANTINE', 'NEVER_QUARANTINE', 'UNSPECIFIED'] as const;
export type QuarantineOverride = (typeof QUARANTINE_OVERRIDES)[number];

// A pattern rather than `format`, so that TypeBox's own checker (the fixture file) and fastify's agree.
const DateTime = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}:\\d{2})$',
});
const Count = (max = 1_000_000) => Type.Integer({ minimum: 0, maximum: max });
const Text = (maxLength = 65_536) => Type.String({ maxLength });

/**
 * Bounds that keep seeding, even of a fixture at every maximum, a matter of a second or two of work
 * (the emulator answers requests on one thread): before them, a fixture at the schema's own maximum
 * held it for minutes.
 */
export const FIXTURE_LIMITS = {
  repositories: 50,
  testsPerRepository: 10_000,
  generatedPerStatus: 5_000,
  failuresPerTest: 200,
  /** Tests (given and generated) in the whole fixture. */
  tests: 12_000,
  /** Failures in the whole fixture. */
  failures: 100_000,
  /** A fixture file, in bytes (as a request body). */
  fileBytes: MAX_BODY_BYTES,
} as const;

export const FixtureTest = Type.Object(
  {
    /** A uuid, as the service's test ids are; made up (from the store's seeded random source) when absent. */
    id: Type.Optional(
      Type.String({
        pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
      }),
    ),
    name: Type.String({ minLength: 1, maxLength: 65_536 }),
    variant: Type.Optional(Text()),
    status: Type.Union(TEST_STATUSES.map((s) => Type.Literal(s))),
    reason: Type.Optional(Text()),
    status_changed_at: Type.Optional(DateTime),
    file_path: Type.Optional(Text()),
    parent: Type.Optional(Text()),
    classname: Type.Optional(Text()),
    codeowners: Type.Optional(Type.Array(Text(256), { maxItems: 50 })),
    pull_requests_impacted_last_7d: Type.Optional(Count()),
    quarantine_override: Type.Optional(Type.Union(QUARANTINE_OVERRIDES.map((s) => Type.Literal(s)))),
    quarantined_at: Type.Optional(DateTime),
    ticket_url: Type.Optional(Type.String({ maxLength: 2_048, pattern: '^https?://' })),
    /** Each failure of the test; list-failing-tests selects tests by these. */
    failures: Type.Optional(
      Type.Array(Type.Object({ at: DateTime, summary: Text() }, { additionalProperties: false }), {
        maxItems: FIXTURE_LIMITS.failuresPerTest,
      }),
    ),
    failure_rate_last_7d: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    failure_rate_last_24h: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  },
  { additionalProperties: false },
);
export type FixtureTest = Static<typeof FixtureTest>;

export const GenerateSpec = Type.Object(
  {
    flaky: Count(FIXTURE_LIMITS.generatedPerStatus),
    broken: Count(FIXTURE_LIMITS.generatedPerStatus),
    healthy: Type.Optional(Count(FIXTURE_LIMITS.generatedPerStatus)),
    seed: Type.Optional(Type.Integer()),
  },
  { additionalProperties: false },
);
export type GenerateSpec = Static<typeof GenerateSpec>;

export const FixtureRepository = Type.Object(
  {
    repo: Repo,
    /** When set, requests for this repository must carry this org_url_slug (else 404). */
    org_url_slug: Type.Optional(Type.String({ minLength: 1 })),
    /** The repository's quarantining switch (default true). */
    quarantining: Type.Optional(Type.Boolean()),
    /** Quarantine every flaky or broken test automatically (default false). */
    auto_quarantine: Type.Optional(Type.Boolean()),
    /** Where a linked ticket lives; `{id}` is replaced by the external ticket id. */
    ticket_url_template: Type.Optional(Type.String({ pattern: '\\{id\\}' })),
    /** A fault for rehearsals: list pages after the first answer with the token they were asked for. */
    repeat_page_tokens: Type.Optional(Type.Boolean()),
    tests: Type.Optional(Type.Array(FixtureTest, { maxItems: FIXTURE_LIMITS.testsPerRepository })),
    /** Realistic tests made up on top of `tests` (see generate.ts). */
    generate: Type.Optional(GenerateSpec),
  },
  { additionalProperties: false },
);
export type FixtureRepository = Static<typeof FixtureRepository>;

export const FlakyFixture = Type.Object(
  {
    repositories: Type.Optional(Type.Array(FixtureRepository, { maxItems: FIXTURE_LIMITS.repositories })),
    /** Every flaky-tests answer leaves this many real milliseconds after its request came in (benchmarks). */
    latency_ms: Type.Optional(Count(60_000)),
  },
  { additionalProperties: false },
);
export type FlakyFixture = Static<typeof FlakyFixture>;

/** A fixture checked against the schema; a bad one fails with one line naming the first problem. */
export function parseFlakyFixture(value: unknown, source: string): FlakyFixture {
  if (Value.Check(FlakyFixture, value)) return withinTotals(value, source);
  const first = Value.Errors(FlakyFixture, value).First();
  const where = first?.path || '(top level)';
  throw new Error(`${source}: ${where} ${first?.message ?? 'does not match the flaky-tests fixture format'}`);
}

/** The whole fixture within FIXTURE_LIMITS' totals, or one line saying which is exceeded. */
function withinTotals(fixture: FlakyFixture, source: string): FlakyFixture {
  let tests = 0;
  let failures = 0;
  for (const repository of fixture.repositories ?? []) {
    const generated = repository.generate;
    tests +=
      (repository.tests?.length ?? 0) +
      (generated ? generated.flaky + generated.broken + (generated.healthy ?? 0) : 0);
    for (const test of repository.tests ?? []) failures += test.failures?.length ?? 0;
  }
  if (tests > FIXTURE_LIMITS.tests) {
    throw new Error(`${source}: ${tests} tests in all; a fixture holds at most ${FIXTURE_LIMITS.tests}`);
  }
  if (failures > FIXTURE_LIMITS.failures) {
    throw new Error(
      `${source}: ${failures} failures in all; a fixture holds at most ${FIXTURE_LIMITS.failures}`,
    );
  }
  return fixture;
}

export function loadFlakyFixture(path: string): FlakyFixture {
  let text: string;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) throw new Error(`--flaky-fixture ${path}: not a file`);
    if (stat.size > FIXTURE_LIMITS.fileBytes) {
      throw new Error(
        `--flaky-fixture ${path}: ${stat.size} bytes; a fixture file holds at most ${FIXTURE_LIMITS.fileBytes} (20 MiB)`,
      );
    }
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (!(error as NodeJS.ErrnoException).code) throw error;
    throw new Error(
      `--flaky-fixture ${path}: cannot read it (${(error as NodeJS.ErrnoException).code ?? error})`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`--flaky-fixture ${path}: not valid JSON (${(error as Error).message})`);
  }
  return parseFlakyFixture(parsed, `--flaky-fixture ${path}`);
}

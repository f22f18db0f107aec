// The emulator's flaky-tests store: per repository, its test cases and quarantine settings, answering the
// five flaky-tests endpoints. Seeded from a fixture (file or control surface); times come from the
// emulator's clock.
import type {
  FailingTest,
  ListFailingTestsResponse,
  ListQuarantinedTestsResponse,
  ListUnhealthyTestsResponse,
  QuarantinedTest,
  Repo,
  RequestOf,
  TestDetailsResponse,
  UnhealthyTest,
} from '../../src/wire/index.js';
import { SeededRandom, QueueModelError } from '../../src/queue-model/index.js';
import {
  testCaseEvents,
  type Actor,
  type ChangeContext,
  type TestCaseEvent,
  type TestCaseState,
} from './events.js';
import type {
  FixtureRepository,
  FixtureTest,
  FlakyFixture,
  QuarantineOverride,
  TestStatus,
} from './fixture.js';
import { generateFlakyTests } from './generate.js';
import { pageOf } from './paging.js';

interface Failure {
  at: number;
  summary: string;
}

export interface StoredTest {
  id: string;
  name: string;
  variant: string;
  status: TestStatus;
  reason: string;
  statusChangedAt: string;
  filePath?: string;
  parent?: string;
  classname?: string;
  codeowners: string[];
  pullRequestsImpactedLast7d: number;
  quarantineOverride: QuarantineOverride;
  quarantinedAt?: string;
  ticketUrl?: string;
  failures: Failure[];
  failureRateLast7d: number;
  failureRateLast24h: number;
}

interface FlakyRepository {
  repo: Repo;
  orgUrlSlug?: string;
  quarantining: boolean;
  autoQuarantine: boolean;
  ticketUrlTemplate: string;
  repeatPageTokens: boolean;
  tests: StoredTest[];
  byId: Map<string, StoredTest>;
  /** The tests of each status, in `tests` order; built when first listed, dropped when a status changes. */
  byStatus: Map<TestStatus, StoredTest[]>;
}

export interface TestCaseRecords {
  repo: Readonly<Repo>;
  quarantining: boolean;
  autoQuarantine: boolean;
  tests: { test: Readonly<StoredTest>; quarantined: boolean }[];
}

export interface FlakyTestStoreOptions {
  /** The emulator's clock (virtual); real time when absent. */
  now?: () => number;
  /** Seed of the random source that makes up ids. */
  seed?: number;
  /** Base of the web app links (`html_url`) in answers. */
  webUrl?: string;
  /** Hears each `test_case.*` event: a test's status or quarantine setting changed. */
  onEvent?: (event: TestCaseEvent) => void;
}

/** A change to one test case through the control surface. */
export interface TestCaseChange {
  status?: TestStatus;
  quarantineSetting?: QuarantineOverride;
  actor?: Actor;
  /** Why: the test's new status reason, and the reason its quarantine setting changed. */
  reason?: string;
}

export interface SeedResult {
  repo: string;
  tests: number;
}

/** A CI run recorded through create-ci-run, as the control surface and the page show it. */
export interface CiRun {
  run_id: string;
  repo: Repo;
  org_url_slug: string;
  ci_job_name: string;
  provider: string | null;
  run_start: string;
  run_end: string;
  branch: string;
  sha: string;
  attempt: number;
  run_conclusion: string | null;
  run_conclusion_cause: string | null;
  providers_job_id: string | null;
  providers_run_id: string | null;
  /** Virtual time at which it was recorded. */
  recorded_at: string;
}

/** Recorded CI runs kept per repository; the oldest go first. */
const MAX_CI_RUNS = 10_000;
const DAY_MS = 24 * 3600 * 1000;
const MAX_FAILING_WINDOW_MS = 7 * DAY_MS;
const MOST_COMMON_FAILURES = 3;
const EMULATOR_ACTOR: Actor = { email: 'emulator@localhost', full_name: 'Emulator control surface' };

export class FlakyTestStore {
  /** Real milliseconds each flaky-tests answer takes at least (its own work included): a distant service. */
  latencyMs = 0;
  /**
   * Goes up with every change to the data the lists show. A list's answer depends only on its request and
   * the data at a revision (never on the clock), so answers can be kept until the revision moves.
   */
  revision = 0;
  private readonly repositories = new Map<string, FlakyRepository>();
  private readonly runs = new Map<string, CiRun[]>();
  private readonly random: SeededRandom;
  private readonly now: () => number;
  private readonly webUrl: string;
  private readonly onEvent?: (event: TestCaseEvent) => void;

  constructor(options: FlakyTestStoreOptions = {}) {
    this.random = new SeededRandom(options.seed ?? 1);
    this.now = options.now ?? Date.now;
    this.webUrl = (options.webUrl ?? 'https://app.trunk.io').replace(/\/+$/, '');
    this.onEvent = options.onEvent;
  }

  /**
   * Replaces the data of every repository the fixture names; other repositories are kept. A test that
   * was there before (same id) and changed status or quarantine setting is announced.
   */
  seed(fixture: FlakyFixture): SeedResult[] {
    if (fixture.latency_ms !== undefined) this.latencyMs = fixture.latency_ms;
    this.revision++;
    return (fixture.repositories ?? []).map((entry) => {
      const repository = this.buildRepository(entry);
      const previous = this.repositories.get(repoKey(entry.repo));
      this.repositories.set(repoKey(entry.repo), repository);
      if (previous) this.announceReseed(previous, repository);
      return { repo: repoKey(entry.repo), tests: repository.tests.length };
    });
  }

  /** Sets one test's status and/or quarantine setting (the control surface); answers the test. */
  changeTestCase(repo: Repo, id: string, change: TestCaseChange): FailingTest {
    if (change.status === undefined && change.quarantineSetting === undefined) {
      throw new QueueModelError(400, 'test-case change: give status, quarantineSetting or both');
    }
    const repository = this.find(repo);
    const test = this.testCase(repository, id);
    const before: TestCaseState = { status: test.status, quarantineOverride: test.quarantineOverride };
    const wasQuarantined = isQuarantined(repository, test);
    const now = new Date(this.now()).toISOString();
    this.revision++;
    if (change.status !== undefined && change.status !== test.status) {
      repository.byStatus.clear();
      test.status = change.status;
      test.reason = change.reason ?? defaultReason(change.status);
      test.statusChangedAt = now;
    }
    if (change.quarantineSetting !== undefined) test.quarantineOverride = change.quarantineSetting;
    if (!wasQuarantined && isQuarantined(repository, test)) test.quarantinedAt = now;
    this.announce(repository, before, test, this.changeContext(change));
    return this.eventView(repository, test);
  }

  listUnhealthyTests(request: RequestOf<'listUnhealthyTests'>): ListUnhealthyTestsResponse {
    const repository = this.listed(request.repo, request.org_url_slug);
    const status = request.status.toLowerCase() as TestStatus;
    const { items, page } = pageOf(
      testsWithStatus(repository, status),
      request.page_query,
      listing(repository, status),
      {
        repeatTokens: repository.repeatPageTokens,
      },
    );
    return { tests: items.map((test) => this.unhealthyView(repository, test, request.org_url_slug)), page };
  }

  listQuarantinedTests(request: RequestOf<'listQuarantinedTests'>): ListQuarantinedTestsResponse {
    const repository = this.listed(request.repo, request.org_url_slug);
    const matching = repository.tests.filter((test) => isQuarantined(repository, test));
    const { items, page } = pageOf(matching, request.page_query, listing(repository, 'quarantined'), {
      repeatTokens: repository.repeatPageTokens,
    });
    return { quarantined_tests: items.map((test) => quarantinedView(repository, test)), page };
  }

  listFailingTests(request: RequestOf<'listFailingTests'>): ListFailingTestsResponse {
    const repository = this.listed(request.repo, request.org_url_slug);
    const start = Date.parse(request.start_time);
    const end = Date.parse(request.end_time);
    if (end <= start) throw new QueueModelError(400, 'end_time must be after start_time');
    if (end - start > MAX_FAILING_WINDOW_MS) {
      throw new QueueModelError(400, 'the window from start_time to end_time must be at most 7 days');
    }
    const inWindow = (failure: Failure) => failure.at >= start && failure.at < end;
    const matching = repository.tests.filter((test) => test.failures.some(inWindow));
    const { items, page } = pageOf(
      matching,
      request.page_query,
      listing(repository, `failing:${start}:${end}`),
      { repeatTokens: repository.repeatPageTokens },
    );
    return {
      tests: items.map((test) => this.failingView(repository, test, request.org_url_slug, inWindow)),
      page,
    };
  }

  getTestDetails(request: RequestOf<'getTestDetails'>): TestDetailsResponse {
    const repository = this.find(request.repo, request.org_url_slug);
    const test = this.testCase(repository, request.test_id);
    const since = this.now() - MAX_FAILING_WINDOW_MS;
    return {
      test: this.failingView(repository, test, request.org_url_slug, (failure) => failure.at >= since),
    };
  }

  linkTicketToTestCase(request: RequestOf<'linkTicketToTestCase'>): void {
    const repository = this.find(request.repo);
    const test = this.testCase(repository, request.test_case_id);
    this.revision++;
    test.ticketUrl = repository.ticketUrlTemplate.replace(
      '{id}',
      encodeURIComponent(request.external_ticket_id),
    );
  }

  /** create-ci-run: keeps the run for the repository (with or without test data) and names it. */
  recordCiRun(request: RequestOf<'createCiRun'>): { run_id: string } {
    if (Date.parse(request.run_end) < Date.parse(request.run_start)) {
      throw new QueueModelError(400, 'run_end must not be before run_start');
    }
    const lower = (value: string | undefined) => (value === undefined ? null : value.toLowerCase());
    const run: CiRun = {
      run_id: this.random.uuid(),
      repo: { ...request.repo },
      org_url_slug: request.org_url_slug,
      ci_job_name: request.ci_job_name,
      provider: lower(request.provider),
      run_start: request.run_start,
      run_end: request.run_end,
      branch: request.branch,
      sha: request.sha,
      attempt: request.attempt,
      run_conclusion: lower(request.run_conclusion),
      run_conclusion_cause: lower(request.run_conclusion_cause),
      providers_job_id: request.providers_job_id ?? null,
      providers_run_id: request.providers_run_id ?? null,
      recorded_at: new Date(this.now()).toISOString(),
    };
    const key = repoKey(request.repo);
    const runs = this.runs.get(key) ?? [];
    runs.push(run);
    if (runs.length > MAX_CI_RUNS) runs.splice(0, runs.length - MAX_CI_RUNS);
    this.runs.set(key, runs);
    return { run_id: run.run_id };
  }

  /** Per repository: counts, the most impactful unhealthy tests, and how many CI runs were recorded. */
  summary(shown = 15) {
    const keys = new Set([...this.repositories.keys(), ...this.runs.keys()]);
    return [...keys].map((key) => {
      const repository = this.repositories.get(key);
      const tests = repository?.tests ?? [];
      const unhealthy = tests.filter((t) => t.status !== 'healthy');
      return {
        repo: key,
        counts: {
          flaky: unhealthy.filter((t) => t.status === 'flaky').length,
          broken: unhealthy.filter((t) => t.status === 'broken').length,
          quarantined: repository ? tests.filter((t) => isQuarantined(repository, t)).length : 0,
        },
        tests: [...unhealthy]
          .sort((a, b) => b.pullRequestsImpactedLast7d - a.pullRequestsImpactedLast7d)
          .slice(0, shown)
          .map((t) => ({ name: t.name, status: t.status, quarantined: isQuarantined(repository!, t) })),
        ciRuns: this.runs.get(key)?.length ?? 0,
      };
    });
  }

  /** The CI runs recorded for a repository, or for every repository, oldest first. */
  ciRuns(repo?: Repo): CiRun[] {
    if (repo) return [...(this.runs.get(repoKey(repo)) ?? [])];
    return [...this.runs.values()].flat();
  }

  /** The repositories the store has data for. */
  repositoriesWithData(): Repo[] {
    return [...this.repositories.values()].map((repository) => ({ ...repository.repo }));
  }

  /** Each repository's tests as they are now, for the v2 API's test cases and collections (read only). */
  testCaseRecords(): TestCaseRecords[] {
    return [...this.repositories.values()].map((repository) => ({
      repo: repository.repo,
      quarantining: repository.quarantining,
      autoQuarantine: repository.autoQuarantine,
      tests: repository.tests.map((test) => ({ test, quarantined: isQuarantined(repository, test) })),
    }));
  }

  private changeContext(change: { actor?: Actor; reason?: string }): ChangeContext {
    return {
      timestamp: new Date(this.now()).toISOString(),
      actor: change.actor ?? EMULATOR_ACTOR,
      reason: change.reason ?? '',
    };
  }

  private announceReseed(previous: FlakyRepository, repository: FlakyRepository): void {
    const context = this.changeContext({ reason: 'Set by a flaky-tests fixture' });
    for (const test of repository.tests) {
      const before = previous.byId.get(test.id);
      if (before) this.announce(repository, before, test, context);
    }
  }

  private announce(
    repository: FlakyRepository,
    before: TestCaseState,
    after: StoredTest,
    context: ChangeContext,
  ): void {
    if (!this.onEvent) return;
    const events = testCaseEvents(before, after, this.eventView(repository, after), context);
    for (const event of events) this.onEvent(event);
  }

  /** A test as get-test-details shows it, linked under the repository's organization. */
  private eventView(repository: FlakyRepository, test: StoredTest): FailingTest {
    const since = this.now() - MAX_FAILING_WINDOW_MS;
    const orgUrlSlug = repository.orgUrlSlug ?? repository.repo.owner;
    return this.failingView(repository, test, orgUrlSlug, (failure) => failure.at >= since);
  }

  /**
   * The repository a list shows: one the store has no data for (or that belongs to another organization)
   * lists nothing, as the service answers 200 with an empty page.
   */
  private listed(repo: Repo, orgUrlSlug: string): FlakyRepository {
    const repository = this.repositories.get(repoKey(repo));
    if (repository && (!repository.orgUrlSlug || repository.orgUrlSlug === orgUrlSlug)) return repository;
    return this.buildRepository({ repo });
  }

  private find(repo: Repo, orgUrlSlug?: string): FlakyRepository {
    const repository = this.repositories.get(repoKey(repo));
    if (!repository) {
      throw new QueueModelError(404, `Not Found: no flaky-tests data for repository ${repoKey(repo)}`);
    }
    if (orgUrlSlug !== undefined && repository.orgUrlSlug && repository.orgUrlSlug !== orgUrlSlug) {
      throw new QueueModelError(
        404,
        `Not Found: repository ${repoKey(repo)} does not belong to organization ${orgUrlSlug}`,
      );
    }
    return repository;
  }

  private testCase(repository: FlakyRepository, id: string): StoredTest {
    const test = repository.byId.get(id);
    if (!test) throw new QueueModelError(404, `Not Found: no test case ${id} in ${repoKey(repository.repo)}`);
    return test;
  }

  private buildRepository(entry: FixtureRepository): FlakyRepository {
    const owner = entry.org_url_slug ?? entry.repo.owner.split('/')[0]!;
    const fixtureTests = [
      ...(entry.tests ?? []),
      ...(entry.generate ? generateFlakyTests(entry.generate, this.now()) : []),
    ];
    const repository: FlakyRepository = {
      repo: { ...entry.repo },
      orgUrlSlug: entry.org_url_slug,
      quarantining: entry.quarantining ?? true,
      autoQuarantine: entry.auto_quarantine ?? false,
      ticketUrlTemplate:
        entry.ticket_url_template ?? `https://${owner.toLowerCase()}.atlassian.net/browse/{id}`,
      repeatPageTokens: entry.repeat_page_tokens ?? false,
      tests: [],
      byId: new Map(),
      byStatus: new Map(),
    };
    for (const fixture of fixtureTests) {
      const test = this.storedTest(fixture);
      if (repository.byId.has(test.id)) {
        throw new QueueModelError(400, `test id ${test.id} appears twice in ${repoKey(entry.repo)}`);
      }
      repository.byId.set(test.id, test);
      repository.tests.push(test);
    }
    return repository;
  }

  private storedTest(fixture: FixtureTest): StoredTest {
    const statusChangedAt = fixture.status_changed_at ?? new Date(this.now()).toISOString();
    return {
      id: fixture.id ?? this.random.uuid(),
      name: fixture.name,
      variant: fixture.variant ?? '',
      status: fixture.status,
      reason: fixture.reason ?? defaultReason(fixture.status),
      statusChangedAt,
      filePath: fixture.file_path,
      parent: fixture.parent,
      classname: fixture.classname,
      codeowners: fixture.codeowners ?? [],
      pullRequestsImpactedLast7d: fixture.pull_requests_impacted_last_7d ?? 0,
      quarantineOverride: fixture.quarantine_override ?? 'UNSPECIFIED',
      quarantinedAt: fixture.quarantined_at,
      ticketUrl: fixture.ticket_url,
      failures: (fixture.failures ?? []).map((f) => ({ at: Date.parse(f.at), summary: f.summary })),
      failureRateLast7d: fixture.failure_rate_last_7d ?? 0,
      failureRateLast24h: fixture.failure_rate_last_24h ?? 0,
    };
  }

  private unhealthyView(repository: FlakyRepository, test: StoredTest, orgUrlSlug: string): UnhealthyTest {
    const { repo } = repository;
    const view: UnhealthyTest = {
      id: test.id,
      repository: { html_url: `https://${repo.host}/${repo.owner}/${repo.name}` },
      html_url: `${this.webUrl}/${encodeURIComponent(orgUrlSlug)}/flaky-tests/test/${test.id}?repo=${encodeURIComponent(`${repo.owner}/${repo.name}`)}`,
      name: test.name,
      variant: test.variant,
      status: { value: test.status, reason: test.reason, timestamp: test.statusChangedAt },
      codeowners: [...test.codeowners],
      pull_requests_impacted_last_7d: test.pullRequestsImpactedLast7d,
      quarantined: isQuarantined(repository, test),
    };
    if (test.filePath !== undefined) view.file_path = test.filePath;
    if (test.parent !== undefined) view.parent = test.parent;
    if (test.classname !== undefined) view.classname = test.classname;
    if (test.ticketUrl !== undefined) view.ticket = { html_url: test.ticketUrl };
    return view;
  }

  private failingView(
    repository: FlakyRepository,
    test: StoredTest,
    orgUrlSlug: string,
    counts: (failure: Failure) => boolean,
  ): FailingTest {
    return {
      ...this.unhealthyView(repository, test, orgUrlSlug),
      most_common_failures: mostCommonFailures(test.failures.filter(counts)),
      failure_rate_last_7d: test.failureRateLast7d,
      failure_rate_last_24h: test.failureRateLast24h,
    };
  }
}

/**
 * The quarantine rule: the repository quarantines at all, and either the test is set to always be
 * quarantined, or auto-quarantine is on and the test is flaky or broken (unless set to never be).
 */
function isQuarantined(repository: FlakyRepository, test: StoredTest): boolean {
  if (!repository.quarantining || test.quarantineOverride === 'NEVER_QUARANTINE') return false;
  if (test.quarantineOverride === 'ALWAYS_QUARANTINE') return true;
  // Auto-quarantine takes flaky tests only: a broken test fails every time, and hiding it would hide a
  // real failure.
  return repository.autoQuarantine && test.status === 'flaky';
}

function testsWithStatus(repository: FlakyRepository, status: TestStatus): StoredTest[] {
  let tests = repository.byStatus.get(status);
  if (!tests) {
    tests = repository.tests.filter((test) => test.status === status);
    repository.byStatus.set(status, tests);
  }
  return tests;
}

function quarantinedView(repository: FlakyRepository, test: StoredTest): QuarantinedTest {
  return {
    name: test.name,
    parent: test.parent ?? null,
    file: test.filePath ?? null,
    classname: test.classname ?? null,
    status: test.status.toUpperCase() as QuarantinedTest['status'],
    codeowners: [...test.codeowners],
    quarantine_setting:
      test.quarantineOverride === 'ALWAYS_QUARANTINE' ? 'ALWAYS_QUARANTINE' : 'AUTO_QUARANTINE',
    quarantined_at: test.quarantinedAt ?? test.statusChangedAt,
    status_last_updated_at: test.statusChangedAt,
    test_case_id: test.id,
    variant: test.variant,
  };
}

function mostCommonFailures(failures: Failure[]): FailingTest['most_common_failures'] {
  const bySummary = new Map<string, { count: number; last: number }>();
  for (const failure of failures) {
    const seen = bySummary.get(failure.summary) ?? { count: 0, last: 0 };
    bySummary.set(failure.summary, { count: seen.count + 1, last: Math.max(seen.last, failure.at) });
  }
  return [...bySummary]
    .sort(([, a], [, b]) => b.count - a.count || b.last - a.last)
    .slice(0, MOST_COMMON_FAILURES)
    .map(([summary, { count, last }]) => ({
      summary,
      occurrence_count: count,
      last_occurrence: new Date(last).toISOString(),
    }));
}

function defaultReason(status: TestStatus): string {
  if (status === 'flaky') return 'Failed and passed on the same commit';
  if (status === 'broken') return 'Failed on every recent run';
  return 'Passed on every recent run';
}

function repoKey(repo: Repo): string {
  return `${repo.host}/${repo.owner}/${repo.name}`.toLowerCase();
}

function listing(repository: FlakyRepository, what: string): string {
  return `${repoKey(repository.repo)}:${what}`;
}

// The filters and orders of GET /v2/test-cases over the store's tests. Tests carry no labels in the
// emulator, so a label filter finds none.
import type { V2OperationId, V2QueryOf } from '../../../src/wire/v2/index.js';
import { validationFailed } from '../errors.js';
import { metricsView, collectionIdOf, type TestCaseEntry } from '../views/test-case.js';

type Query = V2QueryOf<'testCases.list' & V2OperationId>;
const STATUSES = new Set(['healthy', 'flaky', 'broken']);
const DAY_MS = 86_400_000;
const PERIOD_DAYS: Record<string, number> = { '1d': 1, '7d': 7, '14d': 14, '30d': 30 };

function statusesOf(text: string | undefined): Set<string> | undefined {
  if (text === undefined) return undefined;
  const statuses = text.split(',').map((s) => s.trim());
  const wrong = statuses.filter((s) => !STATUSES.has(s));
  if (wrong.length > 0)
    throw validationFailed(
      `status ${wrong.join(', ')} is not a test status; the statuses are healthy, flaky, broken`,
    );
  return new Set(statuses);
}

function matches(entry: TestCaseEntry, query: Query, statuses: Set<string> | undefined): boolean {
  const { test } = entry;
  const q = query.q?.toLowerCase();
  return (
    (query.testCollectionId === undefined || collectionIdOf(entry.records) === query.testCollectionId) &&
    (!statuses || statuses.has(test.status)) &&
    (q === undefined || test.name.toLowerCase().includes(q)) &&
    (query.file === undefined || test.filePath === query.file) &&
    (query.owner === undefined || test.codeowners.includes(query.owner)) &&
    (query.variant === undefined || test.variant === query.variant) &&
    query.label === undefined &&
    (query.quarantineState === undefined ||
      (query.quarantineState === 'quarantined') === entry.quarantined) &&
    (query.markedFlaky === undefined || (test.status === 'flaky') === query.markedFlaky)
  );
}

/** Flaky since the start of the period (newlyFlaky), counted back from the newest status change. */
function newlyFlaky(entry: TestCaseEntry, since: number): boolean {
  return entry.test.status === 'flaky' && Date.parse(entry.test.statusChangedAt) >= since;
}

function sortKey(entry: TestCaseEntry, sort: NonNullable<Query['sort']>): string | number {
  if (sort === 'name') return entry.test.name;
  const metrics = metricsView(entry.test);
  if (sort === 'failureRate') return metrics.failureRate;
  if (sort === 'prsImpacted') return metrics.prsImpacted;
  if (sort === 'durationP95') return 0;
  const at = sort === 'lastRunAt' ? metrics.lastRunAt : metrics.lastFailureAt;
  return at === null ? 0 : Date.parse(at);
}

export function testCaseListOf(entries: TestCaseEntry[], query: Query): TestCaseEntry[] {
  const statuses = statusesOf(query.status);
  let found = entries.filter((entry) => matches(entry, query, statuses));
  if (query.newlyFlaky !== undefined) {
    const newest = Math.max(0, ...entries.map((e) => Date.parse(e.test.statusChangedAt)));
    const since = newest - (PERIOD_DAYS[query.period ?? '7d'] ?? 7) * DAY_MS;
    found = found.filter((entry) => newlyFlaky(entry, since) === query.newlyFlaky);
  }
  const sort = query.sort ?? 'name';
  const sign = (query.direction ?? (sort === 'name' ? 'asc' : 'desc')) === 'asc' ? 1 : -1;
  return found
    .map((entry) => ({ entry, key: sortKey(entry, sort) }))
    .sort(
      (a, b) =>
        sign * (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) || a.entry.test.id.localeCompare(b.entry.test.id),
    )
    .map(({ entry }) => entry);
}

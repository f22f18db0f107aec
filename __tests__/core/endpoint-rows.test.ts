// One row per endpoint: each area's file under src/wire/ gives its endpoints' rows (route and schemas),
// `npm run metadata` writes their routes out as plain data (src/wire/routes.ts, what a run reads), each
// area's file under src/core/api/v2/ gives the translations of its endpoints, and what is missing is a
// type error naming the endpoint.
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { format } from 'prettier';
import { unservedEndpoints } from '../../emulator/http.js';
import { renderRoutes } from '../../scripts/routes.js';
import { FLAKY_TEST_TRANSLATIONS } from '../../src/core/api/v2/flaky-tests.js';
import { PULL_REQUEST_TRANSLATIONS } from '../../src/core/api/v2/pull-requests.js';
import { QUEUE_TRANSLATIONS } from '../../src/core/api/v2/queues.js';
import type { AllTranslations } from '../../src/core/api/v2/translation.js';
import { FLAKY_TESTS_ENDPOINTS } from '../../src/wire/flaky-tests.js';
import { ENDPOINTS, ROUTES } from '../../src/wire/index.js';
import { MERGE_QUEUE_ENDPOINTS } from '../../src/wire/merge-queue.js';
import { SERVICE_ENDPOINTS } from '../../src/wire/service.js';

const ROUTES_FILE = 'src/wire/routes.ts';

const translatedRows = Object.entries(ENDPOINTS)
  .filter(([, row]) => row.v2 === 'translated')
  .map(([name]) => name)
  .sort();

describe("the areas' rows", () => {
  it('name each endpoint once, and each method and path once', () => {
    const areas = [MERGE_QUEUE_ENDPOINTS, FLAKY_TESTS_ENDPOINTS, SERVICE_ENDPOINTS];
    const named = areas.flatMap((rows) => Object.keys(rows));
    // Gathered with a spread, a name two areas give would keep only the last area's row.
    expect(named.filter((name, at) => named.indexOf(name) !== at)).toEqual([]);
    expect(named).toHaveLength(Object.keys(ENDPOINTS).length);
    const routes = Object.values(ENDPOINTS).map(({ method, path }) => `${method} ${path}`);
    expect(routes.filter((route, at) => routes.indexOf(route) !== at)).toEqual([]);
  });
});

describe('the route table (src/wire/routes.ts)', () => {
  it('is what `npm run metadata` writes from the rows today', async () => {
    const prettier = JSON.parse(readFileSync('.prettierrc.json', 'utf8')) as Record<string, unknown>;
    const rendered = await format(renderRoutes(), { ...prettier, parser: 'typescript' });
    const written = readFileSync(ROUTES_FILE, 'utf8');
    expect(rendered === written || `${ROUTES_FILE} is out of date: run npm run metadata`).toBe(true);
  });

  it("says for each endpoint what its row says, without the row's schemas", () => {
    expect(Object.keys(ROUTES)).toEqual(Object.keys(ENDPOINTS));
    for (const [name, { request: _request, ...route }] of Object.entries(ENDPOINTS)) {
      const { response: _response, ...plain } = route as typeof route & { response?: unknown };
      expect(ROUTES[name as keyof typeof ROUTES]).toEqual(plain);
    }
  });

  it('is a type error when it lacks a row or disagrees with one', () => {
    const { deleteQueue: _dropped, ...lacking } = ROUTES;
    // @ts-expect-error deleteQueue has a row and the table lacks it
    const stale: typeof ROUTES = lacking;
    // @ts-expect-error the row says /deleteQueue
    const moved: typeof ROUTES = { ...ROUTES, deleteQueue: { ...ROUTES.deleteQueue, path: '/elsewhere' } };
    expect(Object.keys(stale)).not.toContain('deleteQueue');
    expect(moved.deleteQueue.path).toBe('/elsewhere');
  });
});

describe("the emulator's routes", () => {
  it('are a type error, naming the endpoint, when one is missing', () => {
    const served = (Object.keys(ENDPOINTS) as (keyof typeof ENDPOINTS)[]).filter((e) => e !== 'getQueue');
    // @ts-expect-error getQueue has a row and no route serves it
    const unserved: never[] = unservedEndpoints(served as Exclude<(typeof served)[number], 'getQueue'>[]);
    expect(unserved).toEqual(['getQueue']);
  });
});

describe("the areas' v2 translations", () => {
  it('answer every endpoint whose row says translated, and no other', () => {
    const every: AllTranslations = {
      ...PULL_REQUEST_TRANSLATIONS,
      ...QUEUE_TRANSLATIONS,
      ...FLAKY_TEST_TRANSLATIONS,
    };
    expect(Object.keys(every).sort()).toEqual(translatedRows);
    expect(Object.values(every).every((translate) => typeof translate === 'function')).toBe(true);
  });

  it('are a type error, naming the endpoint, when one is missing', () => {
    const { getMergeQueueMetrics: _metrics, ...otherQueueRows } = QUEUE_TRANSLATIONS;
    // @ts-expect-error getMergeQueueMetrics is translated and no area answers it
    const lacking: AllTranslations = {
      ...PULL_REQUEST_TRANSLATIONS,
      ...otherQueueRows,
      ...FLAKY_TEST_TRANSLATIONS,
    };
    expect(Object.keys(lacking)).not.toContain('getMergeQueueMetrics');
  });
});

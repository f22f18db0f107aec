// The five flaky-tests endpoints over the store, and the control route that seeds it. Authentication,
// the body-size cap and the plain-text 400 for bodies the wire schemas reject are the server's.
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ENDPOINTS, type RequestOf } from '../../src/wire/index.js';
import { AnswerCache } from '../answer-cache.js';
import { CONTROL_PREFIX, RepoInput, repoFrom } from '../control.js';
import { API_PREFIX, EMPTY, sendJson, writerOf, type AnswerOf } from '../http.js';
import { reachTime } from '../reach-time.js';
import { QueueModelError } from '../../src/queue-model/index.js';
import { parseFlakyFixture, QUARANTINE_OVERRIDES, TEST_STATUSES, type FlakyFixture } from './fixture.js';
import type { FlakyTestStore } from './store.js';

export { FlakyTestStore } from './store.js';
export { loadFlakyFixture } from './fixture.js';

const TestCaseControl = Type.Object(
  {
    repo: RepoInput,
    id: Type.String({ minLength: 1 }),
    status: Type.Optional(Type.Union(TEST_STATUSES.map((s) => Type.Literal(s)))),
    quarantineSetting: Type.Optional(Type.Union(QUARANTINE_OVERRIDES.map((s) => Type.Literal(s)))),
    actor: Type.Optional(
      Type.Object({ email: Type.String(), full_name: Type.String() }, { additionalProperties: false }),
    ),
    reason: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
type TestCaseControl = Static<typeof TestCaseControl>;

const CiRunsQuery = Type.Object({
  repo: Type.Optional(Type.String({ pattern: '^.+/[^/]+$' })),
  repoHost: Type.Optional(Type.String({ minLength: 1 })),
});

type FlakyEndpoint =
  | 'createCiRun'
  | 'listUnhealthyTests'
  | 'listQuarantinedTests'
  | 'listFailingTests'
  | 'getTestDetails'
  | 'linkTicketToTestCase';

/** Serves the flaky-tests endpoints and their control routes; returns the endpoints it serves. */
export function registerFlakyTestRoutes(app: FastifyInstance, store: FlakyTestStore) {
  registerControlRoutes(app, store);
  return registerApiRoutes(app, store);
}

function registerApiRoutes(app: FastifyInstance, store: FlakyTestStore) {
  /**
   * Serves an endpoint. With `cached`, the same request is answered the same bytes until the store
   * changes: the lists depend on the request and the store's data only, never on the clock.
   */
  function answer<E extends FlakyEndpoint>(
    endpoint: E,
    handle: (body: RequestOf<E>) => AnswerOf<E>,
    { cached = false } = {},
  ): E {
    const { path, request: schema } = ENDPOINTS[endpoint];
    const write = writerOf(endpoint);
    const cache = cached ? new AnswerCache() : undefined;
    app.post(`${API_PREFIX}${path}`, { schema: { body: schema } }, (request, reply) => {
      const body = request.body as RequestOf<E>;
      const make = () => write(handle(body), request);
      const payload = cache ? cache.answer(store.revision, JSON.stringify(body), make) : make();
      // Like a service that far away: the answer leaves latencyMs after the request came in, its own
      // work (serializing included) done meanwhile, so that a chain of pages takes at best pages x latency.
      if (store.latencyMs > 0) {
        return reachTime(request.arrivedAt + store.latencyMs).then(() => sendJson(reply, payload));
      }
      sendJson(reply, payload);
    });
    return endpoint;
  }

  return [
    answer('listUnhealthyTests', (body) => store.listUnhealthyTests(body), { cached: true }),
    answer('listQuarantinedTests', (body) => store.listQuarantinedTests(body), { cached: true }),
    answer('listFailingTests', (body) => store.listFailingTests(body), { cached: true }),
    answer('getTestDetails', (body) => store.getTestDetails(body)),
    answer('linkTicketToTestCase', (body) => {
      store.linkTicketToTestCase(body);
      return EMPTY;
    }),
    answer('createCiRun', (body) => store.recordCiRun(body)),
  ];
}

function registerControlRoutes(app: FastifyInstance, store: FlakyTestStore): void {
  // The CI runs create-ci-run recorded, for one repository (`?repo=owner/name&repoHost=`) or all.
  app.get(
    `${CONTROL_PREFIX}/flaky-tests/ci-runs`,
    { schema: { querystring: CiRunsQuery } },
    async (request) => {
      const { repo, repoHost } = request.query as Static<typeof CiRunsQuery>;
      return { runs: store.ciRuns(repo ? { ...repoFrom(repo), host: repoHost ?? 'github.com' } : undefined) };
    },
  );

  // Seeds the store: the body is a fixture (see docs/flaky-tests.md); repositories it names are replaced.
  app.post(`${CONTROL_PREFIX}/flaky-tests`, async (request) => {
    let fixture: FlakyFixture;
    try {
      fixture = parseFlakyFixture(request.body, 'flaky-tests fixture');
    } catch (error) {
      throw new QueueModelError(400, (error as Error).message);
    }
    return { repositories: store.seed(fixture), latency_ms: store.latencyMs };
  });

  // Changes one test's status and/or quarantine setting, as the service's detection or a user would.
  app.post(
    `${CONTROL_PREFIX}/flaky-tests/test-case`,
    { schema: { body: TestCaseControl } },
    async (request) => {
      const { repo, id, ...change } = request.body as TestCaseControl;
      return { test: store.changeTestCase(repoFrom(repo), id, change) };
    },
  );
}

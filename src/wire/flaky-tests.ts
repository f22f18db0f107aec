// The flaky-tests endpoints (`/flaky-tests/*`) and the CI-run recorder (`/flaky-ci/create-ci-run`):
// their rows (at the end), requests as we send them, answers exactly as the service writes them.
import { Type, type Static } from '@sinclair/typebox';
import {
  anyCaseEnum,
  DateTime,
  exactEnum,
  NullableString,
  Page,
  PageQuery,
  Repo,
  UINT32_MAX,
  Uri,
  Uuid,
} from './common.js';
import {
  CI_PROVIDERS,
  CI_RUN_CONCLUSION_CAUSES,
  CI_RUN_CONCLUSIONS,
  QUARANTINE_SETTINGS,
  QUARANTINED_TEST_STATUSES,
  TEST_HEALTH,
  UNHEALTHY_STATUSES,
} from './enums.js';
import type { EndpointRows } from './endpoint-row.js';

const FlakyRepoRequest = { repo: Repo, org_url_slug: Type.String({ minLength: 1 }) };

// ---------------------------------------------------------------------------------------------------
// Requests

export const ListUnhealthyTestsRequest = Type.Object({
  ...FlakyRepoRequest,
  page_query: PageQuery,
  status: anyCaseEnum(UNHEALTHY_STATUSES),
});
export const ListQuarantinedTestsRequest = Type.Object({ ...FlakyRepoRequest, page_query: PageQuery });
export const ListFailingTestsRequest = Type.Object({
  ...FlakyRepoRequest,
  start_time: DateTime,
  end_time: DateTime,
  page_query: PageQuery,
});
export const GetTestDetailsRequest = Type.Object({ ...FlakyRepoRequest, test_id: Uuid });
export const LinkTicketRequest = Type.Object({
  repo: Repo,
  test_case_id: Uuid,
  external_ticket_id: Type.String({ minLength: 1 }),
});
export const CreateCiRunRequest = Type.Object({
  ...FlakyRepoRequest,
  ci_job_name: Type.String({ minLength: 1 }),
  provider: Type.Optional(anyCaseEnum(CI_PROVIDERS)),
  run_start: DateTime,
  run_end: DateTime,
  branch: Type.String({ minLength: 1 }),
  sha: Type.String({ minLength: 1 }),
  attempt: Type.Integer({ minimum: 0, maximum: UINT32_MAX }),
  run_conclusion: Type.Optional(anyCaseEnum(CI_RUN_CONCLUSIONS)),
  run_conclusion_cause: Type.Optional(anyCaseEnum(CI_RUN_CONCLUSION_CAUSES)),
  providers_job_id: Type.Optional(Type.String()),
  providers_run_id: Type.Optional(Type.String()),
});
export type CreateCiRunRequest = Static<typeof CreateCiRunRequest>;

// ---------------------------------------------------------------------------------------------------
// Answers

// v1 always sends reason and timestamp; v2's test cases have no reason, and no time for a status they
// never changed, so what a report reads over v2 may lack them.
export const TestStatus = Type.Object({
  value: exactEnum(TEST_HEALTH),
  reason: Type.Optional(Type.String()),
  timestamp: Type.Optional(DateTime),
});

export const UnhealthyTest = Type.Object({
  id: Uuid,
  // v1 always sends both; v2's test cases have neither, so a report read over v2 has no links.
  repository: Type.Optional(Type.Object({ html_url: Uri })),
  html_url: Type.Optional(Uri),
  name: Type.String(),
  variant: Type.String(),
  status: TestStatus,
  file_path: Type.Optional(Type.String()),
  parent: Type.Optional(Type.String()),
  classname: Type.Optional(Type.String()),
  codeowners: Type.Array(Type.String()),
  pull_requests_impacted_last_7d: Type.Integer({ minimum: 0 }),
  quarantined: Type.Boolean(),
  ticket: Type.Optional(Type.Object({ html_url: Uri })),
});
export type UnhealthyTest = Static<typeof UnhealthyTest>;

export const MostCommonFailure = Type.Object({
  summary: Type.String(),
  occurrence_count: Type.Integer({ minimum: 0 }),
  last_occurrence: Type.Optional(DateTime),
});

// v1 always sends all three; v2's test cases have no failure messages, and their list one period's rate.
export const FailingTest = Type.Composite([
  UnhealthyTest,
  Type.Object({
    most_common_failures: Type.Optional(Type.Array(MostCommonFailure)),
    failure_rate_last_7d: Type.Optional(Type.Number()),
    failure_rate_last_24h: Type.Optional(Type.Number()),
  }),
]);
export type FailingTest = Static<typeof FailingTest>;

export const QuarantinedTest = Type.Object({
  name: Type.String(),
  parent: NullableString,
  file: NullableString,
  classname: NullableString,
  status: exactEnum(QUARANTINED_TEST_STATUSES),
  codeowners: Type.Array(Type.String()),
  quarantine_setting: exactEnum(QUARANTINE_SETTINGS),
  quarantined_at: DateTime,
  status_last_updated_at: DateTime,
  test_case_id: Type.String(),
  variant: Type.String(),
});
export type QuarantinedTest = Static<typeof QuarantinedTest>;

export const ListUnhealthyTestsResponse = Type.Object({ tests: Type.Array(UnhealthyTest), page: Page });
export type ListUnhealthyTestsResponse = Static<typeof ListUnhealthyTestsResponse>;
export const ListFailingTestsResponse = Type.Object({ tests: Type.Array(FailingTest), page: Page });
export type ListFailingTestsResponse = Static<typeof ListFailingTestsResponse>;
export const ListQuarantinedTestsResponse = Type.Object({
  quarantined_tests: Type.Array(QuarantinedTest),
  page: Page,
});
export type ListQuarantinedTestsResponse = Static<typeof ListQuarantinedTestsResponse>;
export const TestDetailsResponse = Type.Object({ test: FailingTest });
export type TestDetailsResponse = Static<typeof TestDetailsResponse>;
export const CreateCiRunResponse = Type.Object({ run_id: Type.String() });
export type CreateCiRunResponse = Static<typeof CreateCiRunResponse>;

/** Each flaky-tests endpoint's row: its route and its request and answer schemas (endpoint-row.ts). */
export const FLAKY_TESTS_ENDPOINTS = {
  listUnhealthyTests: {
    method: 'POST',
    path: '/flaky-tests/list-unhealthy-tests',
    answer: 'testPage',
    v2: 'translated',
    request: ListUnhealthyTestsRequest,
    response: ListUnhealthyTestsResponse,
  },
  listQuarantinedTests: {
    method: 'POST',
    path: '/flaky-tests/list-quarantined-tests',
    answer: 'testPage',
    v2: 'translated',
    request: ListQuarantinedTestsRequest,
    response: ListQuarantinedTestsResponse,
  },
  listFailingTests: {
    method: 'POST',
    path: '/flaky-tests/list-failing-tests',
    answer: 'testPage',
    v2: 'translated',
    request: ListFailingTestsRequest,
    response: ListFailingTestsResponse,
  },
  getTestDetails: {
    method: 'POST',
    path: '/flaky-tests/get-test-details',
    answer: 'record',
    v2: 'translated',
    request: GetTestDetailsRequest,
    response: TestDetailsResponse,
  },
  linkTicketToTestCase: {
    method: 'POST',
    path: '/flaky-tests/link-ticket-to-test-case',
    answer: 'write',
    v2: 'translated',
    request: LinkTicketRequest,
  },
  createCiRun: {
    method: 'POST',
    path: '/flaky-ci/create-ci-run',
    answer: 'write',
    v2: 'v1-only',
    repeatable: false,
    request: CreateCiRunRequest,
    response: CreateCiRunResponse,
  },
} as const satisfies EndpointRows;

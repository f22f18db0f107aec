// Inputs of the flaky-tests operations.
import { UNHEALTHY_STATUSES, type UnhealthyStatus } from '../../../wire/index.js';
import { InputError } from '../../errors.js';
import { quoted, type Inputs, type InputSpec } from '../../inputs.js';

export const FAIL_ON_VALUES = ['none', 'flaky', 'broken', 'any'] as const;
export type FailOn = (typeof FAIL_ON_VALUES)[number];

export interface FlakyTestsSettings {
  orgUrlSlug?: string;
  statuses: UnhealthyStatus[];
  pageSize: number;
  maxPages: number;
  failOn: FailOn;
  maxUnhealthy: number;
  badgeFile?: string;
  startTime?: string;
  endTime?: string;
  testId?: string;
  testCaseId?: string;
  externalTicketId?: string;
}

export const ORG_URL_SLUG_INPUT: InputSpec = {
  name: 'org-url-slug',
  required: true,
  description: "Your organization's slug as in its app URL.",
};

export const PAGING_INPUTS: readonly InputSpec[] = [
  { name: 'page-size', default: '100', description: 'Rows per page, 1 to 100.' },
  { name: 'max-pages', default: '100', description: 'Stop with an error after this many pages.' },
];

export const UNHEALTHY_INPUTS: readonly InputSpec[] = [
  { name: 'test-status', description: 'FLAKY, BROKEN, or both (default), comma-separated.' },
  {
    name: 'fail-on',
    values: FAIL_ON_VALUES,
    default: 'none',
    description:
      'none, flaky, broken or any - fail the step when that count is over max-unhealthy (after the summary and outputs are written).',
  },
  {
    name: 'max-unhealthy',
    default: '0',
    description: 'The most tests allowed before fail-on fails the step.',
  },
  {
    name: 'badge-file',
    description:
      'Also write a badge of the counts to this path, as JSON in the shields.io endpoint format (for a README badge).',
  },
];

export const FAILING_WINDOW_INPUTS: readonly InputSpec[] = [
  {
    name: 'start-time',
    description: 'Start of the window (inclusive), ISO 8601. Default - 7 days before end-time.',
  },
  {
    name: 'end-time',
    description: 'End of the window (exclusive), ISO 8601; at most 7 days after start-time. Default - now.',
  },
];

export const TEST_ID_INPUT: InputSpec = { name: 'test-id', required: true, description: "The test's id." };
export const TICKET_INPUTS: readonly InputSpec[] = [
  { name: 'test-case-id', required: true, description: 'The test case id.' },
  { name: 'external-ticket-id', required: true, description: 'The ticket, e.g. KAN-123.' },
];

export const MAX_FAILING_TESTS_WINDOW_MS = 7 * 24 * 3600 * 1000;

export function readFlakyTestsSettings(input: Inputs, operation: string): FlakyTestsSettings {
  const statuses = readTestStatuses(input);
  const failOn = input.choice('fail-on', FAIL_ON_VALUES) ?? 'none';
  if (operation === 'list-unhealthy-tests' && (failOn === 'flaky' || failOn === 'broken')) {
    const status = failOn.toUpperCase() as UnhealthyStatus;
    if (!statuses.includes(status)) {
      throw new InputError(
        'fail-on',
        `is ${failOn}, but test-status ${statuses.join(',')} does not fetch ${status} tests, so the step could never fail on them`,
        `Add ${status} to test-status, or set fail-on to any.`,
      );
    }
  }
  const { startTime, endTime } = readFailingTestsWindow(
    input,
    operation === 'list-failing-tests' || operation === 'check-test-results',
  );
  return {
    orgUrlSlug: readOrgUrlSlug(input),
    statuses,
    pageSize: input.integer('page-size', { min: 1, max: 100, fallback: 100 }),
    maxPages: input.integer('max-pages', { min: 1, max: 10_000, fallback: 100 }),
    failOn,
    maxUnhealthy: input.integer('max-unhealthy', { min: 0, max: Number.MAX_SAFE_INTEGER, fallback: 0 }),
    badgeFile: input.text('badge-file') || undefined,
    startTime,
    endTime,
    testId: input.id('test-id', 'testCase'),
    testCaseId: input.id('test-case-id', 'testCase'),
    externalTicketId: input.line('external-ticket-id') || undefined,
  };
}

/**
 * start-time and end-time of list-failing-tests: end-time defaults to now and start-time to 7 days before
 * end-time (the most the service allows); the window is checked here, before any request.
 */
function readFailingTestsWindow(
  input: Inputs,
  withDefaults: boolean,
): { startTime?: string; endTime?: string } {
  let startTime = input.dateTime('start-time');
  let endTime = input.dateTime('end-time');
  if (withDefaults) {
    endTime ??= new Date().toISOString();
    startTime ??= new Date(Date.parse(endTime) - MAX_FAILING_TESTS_WINDOW_MS).toISOString();
  }
  if (startTime && endTime) {
    const span = Date.parse(endTime) - Date.parse(startTime);
    if (span <= 0) {
      throw new InputError(
        'end-time',
        `${endTime} is not after start-time ${startTime}`,
        'Set end-time later than start-time.',
      );
    }
    if (span > MAX_FAILING_TESTS_WINDOW_MS) {
      throw new InputError(
        'start-time',
        `the window from ${startTime} to ${endTime} is longer than 7 days, the most the service allows`,
        'Narrow it to 7 days or less (end-time defaults to now), or run one step per week.',
      );
    }
  }
  return { startTime, endTime };
}

/** The organization's slug as its web address shows it (`app.trunk.io/<slug>`): one word. */
function readOrgUrlSlug(input: Inputs): string | undefined {
  const slug = input.line('org-url-slug');
  if (!slug) return undefined;
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(slug)) {
    throw new InputError(
      'org-url-slug',
      `${quoted(slug)} is not an organization slug (letters, digits, '.', '_' and '-' only)`,
      "Set it to the slug in your organization's web address, e.g. `my-org` from app.trunk.io/my-org.",
    );
  }
  return slug;
}

function readTestStatuses(input: Inputs): UnhealthyStatus[] {
  const given = input.list('test-status').map((s) => s.toUpperCase());
  if (!given.length || given.includes('BOTH') || given.includes('ALL')) return [...UNHEALTHY_STATUSES];
  for (const status of given) {
    if (!(UNHEALTHY_STATUSES as readonly string[]).includes(status)) {
      throw new InputError(
        'test-status',
        `${quoted(status)} is not a test status`,
        'Use FLAKY, BROKEN, or both (the default), e.g. `test-status: FLAKY,BROKEN`.',
      );
    }
  }
  return [...new Set(given)] as UnhealthyStatus[];
}

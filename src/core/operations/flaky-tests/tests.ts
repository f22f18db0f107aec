// Reading the tests the flaky-tests endpoints return (tolerantly: fields may be missing, enums in any
// case, unknown fields kept in the raw object) and showing them in a job summary, escaped and trimmed.
import { enumValue, type UnhealthyTest } from '../../../wire/index.js';
import { escapeMarkdown, link } from '../../report/markdown.js';

/** Rows past this are left to the report file: a summary is read in seconds, not scrolled. */
const MAX_SUMMARY_ROWS = 200;
const MAX_CELL_CHARS = 200;
const MAX_OWNERS_SHOWN = 3;

export interface TestView {
  id: string;
  name: string;
  variant: string;
  /** lowercase: healthy, flaky, broken (or whatever new value the service sends) */
  status: string;
  reason: string;
  /** When the test took its status (ISO 8601), when the service says. */
  statusSince?: string;
  codeowners: string[];
  pullRequestsImpacted: number;
  quarantined: boolean;
  htmlUrl?: string;
  ticketUrl?: string;
}

export function readTest(raw: UnhealthyTest): TestView {
  return {
    id: raw.id,
    name: raw.name,
    variant: raw.variant,
    status: enumValue(raw.status.value),
    reason: raw.status.reason ?? '',
    statusSince: raw.status.timestamp || undefined,
    codeowners: raw.codeowners.filter(Boolean),
    pullRequestsImpacted: raw.pull_requests_impacted_last_7d,
    quarantined: raw.quarantined,
    htmlUrl: raw.html_url || undefined,
    ticketUrl: raw.ticket?.html_url || undefined,
  };
}

/** One test of a flaky-tests listing, as a person scans it. */
export interface ListedTest {
  name: string;
  variant: string;
  status: string;
  /** ISO time the test took its status (or was quarantined). */
  since?: string;
  owners: string[];
  file?: string;
  /** PRs it impacted in the last 7 days, where the listing says. */
  pullRequestsImpacted?: number;
}

/** A test as a listing's details show it. */
export function listedTest(test: TestView): ListedTest {
  return {
    name: test.name,
    variant: test.variant,
    status: test.status,
    since: test.statusSince,
    owners: test.codeowners,
    pullRequestsImpacted: test.pullRequestsImpacted,
  };
}

/** Most pull requests impacted first; then broken before flaky; then by name, for a stable order. */
export function byImpact(a: TestView, b: TestView): number {
  return (
    b.pullRequestsImpacted - a.pullRequestsImpacted ||
    statusRank(a.status) - statusRank(b.status) ||
    compare(a.name, b.name) ||
    compare(a.variant, b.variant)
  );
}

function statusRank(status: string): number {
  return status === 'broken' ? 0 : status === 'flaky' ? 1 : 2;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The rows a summary shows: only the first ones are rendered (escaping 10,000 rows takes a while). */
export function firstRows<T>(items: readonly T[], render: (item: T) => string[]): string[][] {
  return items.slice(0, MAX_SUMMARY_ROWS).map(render);
}

export const TEST_TABLE_HEADERS = [
  'Test',
  'Variant',
  'Status',
  'Reason',
  'Codeowners',
  'PRs impacted (7d)',
  'Quarantined',
  'Ticket',
];

export function testTableRow(test: TestView): string[] {
  return [
    testLink(test),
    cell(test.variant),
    cell(test.status),
    cell(test.reason),
    owners(test.codeowners),
    String(test.pullRequestsImpacted),
    test.quarantined ? 'yes' : 'no',
    ticketLink(test.ticketUrl),
  ];
}

/**
 * The test's name, linked to its page in the service's web app. A headline table passes a shorter
 * `maxChars`: escaped, a name can grow six times, and a cell past the table's limit loses its link.
 */
export function testLink(test: Pick<TestView, 'name' | 'id' | 'htmlUrl'>, maxChars = MAX_CELL_CHARS): string {
  return link(cut(test.name || test.id, maxChars), test.htmlUrl);
}

/** Text from users' code or the service, escaped and cut to a readable length. */
export function cell(value: unknown): string {
  return escapeMarkdown(cut(text(value)));
}

export function owners(codeowners: string[]): string {
  const shown = codeowners
    .slice(0, MAX_OWNERS_SHOWN)
    .map((owner) => cut(owner))
    .join(', ');
  const more = codeowners.length - MAX_OWNERS_SHOWN;
  return escapeMarkdown(more > 0 ? `${shown} +${more} more` : shown);
}

export function ticketLink(url: string | undefined): string {
  return url ? link(ticketLabel(url), url) : '';
}

/** The ticket's key (`KAN-123`) when its URL ends in one, else "ticket". */
function ticketLabel(url: string): string {
  const last =
    url
      .replace(/[?#].*$/, '')
      .replace(/\/+$/, '')
      .split('/')
      .pop() ?? '';
  return /^[A-Za-z][A-Za-z0-9_]*-\d+$/.test(last) ? last : 'ticket';
}

function cut(value: string, maxChars = MAX_CELL_CHARS): string {
  if (value.length <= maxChars) return value;
  // Never split a character made of two UTF-16 units (an emoji, say).
  const end = /[\uD800-\uDBFF]/.test(value.charAt(maxChars - 1)) ? maxChars - 1 : maxChars;
  return `${value.slice(0, end)}…`;
}

/** A rate from 0 to 1 as the service sends it; 0 when absent. */
export function rate(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

export function percent(rate: number): string {
  return `${(rate * 100).toFixed(1)}%`;
}

export function text(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

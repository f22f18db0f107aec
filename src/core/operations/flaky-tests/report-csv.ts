// The nightly report's tests as CSV, for a person to open in a spreadsheet: one row a test, most pull
// requests impacted first, with the fields a team sorts and filters by. Test names come from users' code:
// a cell that a spreadsheet would read as a formula (=, +, -, @ first) is kept as text. Each row is made,
// secrets hidden, as its test's page arrives, while the next page is on its way: after the last page,
// writing the file is one write of the rows in their order.
import { writeRedactedStepFile } from '../step-file.js';
import type { OperationContext } from '../types.js';
import type { TestView } from './tests.js';

const COLUMNS = [
  'name',
  'variant',
  'status',
  'reason',
  'status_since',
  'codeowners',
  'pull_requests_impacted_last_7d',
  'quarantined',
  'html_url',
  'ticket_url',
];

/** Spreadsheets open UTF-8 CSV as UTF-8 only when it starts with a byte order mark. */
const BYTE_ORDER_MARK = '\uFEFF';
const LINE_END = '\r\n';
const HEAD = Buffer.from(`${BYTE_ORDER_MARK}${COLUMNS.join(',')}${LINE_END}`);

export function csvRow(test: TestView): string {
  return [
    csvText(test.name),
    csvText(test.variant),
    csvText(test.status),
    csvText(test.reason),
    csvText(test.statusSince ?? ''),
    csvText(test.codeowners.join(' ')),
    String(test.pullRequestsImpacted),
    test.quarantined ? 'true' : 'false',
    csvText(test.htmlUrl ?? ''),
    csvText(test.ticketUrl ?? ''),
  ].join(',');
}

/** Text quoted as RFC 4180 says, and never taken for a formula. */
function csvText(value: string): string {
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${text.replace(/"/g, '""')}"`;
}

/** One test's row as the file spells it (UTF-8, its line end included), secrets hidden. */
export function csvLine(op: Pick<OperationContext<unknown>, 'redact'>, test: TestView): Buffer {
  return Buffer.from(op.redact(`${csvRow(test)}${LINE_END}`));
}

/** Writes the header and `lines` (from csvLine, in their order) to `fileName` and returns its path. */
export function writeCsvReportFile(
  op: Pick<OperationContext<unknown>, 'tempDir' | 'redact'>,
  fileName: string,
  lines: readonly Buffer[],
): Promise<string> {
  return writeRedactedStepFile(op, fileName, [HEAD, ...lines]);
}

// The nightly report's tests as CSV, for a person to open in a spreadsheet: one row a test, most pull
// requests impacted first, with the fields a team sorts and filters by. Test names come from users' code:
// a cell that a spreadsheet would read as a formula (=, +, -, @ first) is kept as text.
import { writeStepFile } from '../step-file.js';
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

/** Writes every test (secrets hidden) to `fileName` and returns its path. */
export function writeCsvReportFile(
  op: Pick<OperationContext<unknown>, 'tempDir' | 'redact'>,
  fileName: string,
  tests: readonly TestView[],
): Promise<string> {
  const lines = [COLUMNS.join(','), ...tests.map(csvRow)];
  return writeStepFile(op, fileName, `${BYTE_ORDER_MARK}${lines.join('\r\n')}\r\n`);
}

// The end of the nightly report's summary: the first tests with every column, collapsed, and where the
// full list is (the JSON and CSV report files, uploaded as an artifact by the example workflow). The
// collapsed table keeps to the bytes left: first the wordiest columns go, then rows.
import { filledColumns } from '../../report/filled-columns.js';
import { escapeMarkdown, type Markdown } from '../../report/markdown.js';
import { TEST_TABLE_HEADERS, owners, testTableRow, type TestView } from './tests.js';

/** A summary is read, not scrolled: past these, the CSV file is the place to look. */
export const LISTED_ROWS = 100;
/** Room kept for the lines after the collapsed table and the host's own additions. */
const RESERVED_BYTES = 4 * 1024;

/** How much of the list the summary shows, for the step's log. */
export interface ListingStage {
  shown: number;
  total: number;
  /** Whether the reason and variant columns had to go. */
  brief: boolean;
}

interface ListingInput {
  tests: TestView[];
  reportFile: string;
  csvFile: string;
}

/** Adds the collapsed table of the first tests and the way to the full list; answers what it showed. */
export function listingStage(summary: Markdown, input: ListingInput, budget: number): ListingStage {
  const { tests } = input;
  if (!tests.length) return { shown: 0, total: 0, brief: false };
  const first = tests.slice(0, LISTED_ROWS);
  const room = budget - summary.byteLength() - RESERVED_BYTES;
  const full = filledColumns(TEST_TABLE_HEADERS, first.map(testTableRow));
  let table = fittingTable(full.headers, full.rows, room);
  let brief = false;
  if (table.shown < first.length) {
    // Reason and variant are the wordiest columns: without them most tables fit.
    const short = filledColumns(BRIEF_HEADERS, first.map(briefRow));
    table = fittingTable(short.headers, short.rows, room);
    brief = true;
  }
  const title =
    table.shown === tests.length
      ? `All ${tests.length} tests, every column`
      : `The first ${table.shown} of ${tests.length} tests by PRs impacted, every column`;
  const everyColumn = !brief && full.headers.length === TEST_TABLE_HEADERS.length;
  if (table.shown) summary.details(everyColumn ? title : title.replace(', every column', ''), table.markdown);
  summary.paragraph(whereLine(input));
  return { shown: table.shown, total: tests.length, brief };
}

/** Where every test is, and how to get it. */
function whereLine({ tests, reportFile, csvFile }: ListingInput): string {
  return [
    `**Every test** (${tests.length}) is in the step's report files: \`report-csv-file\` opens in a spreadsheet, \`report-file\` is JSON with every field.`,
    'Upload them with `actions/upload-artifact` (as in examples/flaky-report.yml) and download them from the run page.',
    `On this runner: \`${escapeMarkdown(csvFile)}\`, \`${escapeMarkdown(reportFile)}\`.`,
  ].join(' ');
}

const BRIEF_HEADERS = ['Test', 'Status', 'Codeowners', 'PRs impacted (7d)', 'Quarantined', 'Ticket'];

function briefRow(test: TestView): string[] {
  const [link, , status, , , impacted, quarantined, ticket] = testTableRow(test);
  return [link!, status!, owners(test.codeowners.slice(0, 1)), impacted!, quarantined!, ticket!];
}

/** As many rows as fit in `budget` bytes, as a markdown table. */
function fittingTable(
  headers: string[],
  rows: string[][],
  budget: number,
): { markdown: string; shown: number } {
  const lines = [headers, headers.map(() => '---')].map((cells) => `| ${cells.join(' | ')} |`);
  let bytes = lines.reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 200);
  for (const row of rows) {
    const line = `| ${row.join(' | ')} |`;
    bytes += Buffer.byteLength(line) + 1;
    if (bytes > budget) break;
    lines.push(line);
  }
  return { markdown: lines.join('\n'), shown: lines.length - 2 };
}

// `node --import tsx scripts/reliability-report.ts`: runs the reliability and security tests, then writes
// RELIABILITY.md from what they recorded under .tmp/reliability/ (the fault matrix, the bad-input table,
// the security and emulator checks), so that the document shows the runs as they happened.
// `--render-only` skips the run and renders the records already there.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BadInputRow, CheckRow, FaultCellRow } from '../__tests__/helpers/reliability-record.js';
import { RECORD_DIR } from '../__tests__/helpers/reliability-record.js';

const COMMAND = 'npm run reliability';
const TEST_FILES = [
  '__tests__/reliability/fault-matrix.test.ts',
  '__tests__/reliability/bad-input.test.ts',
  '__tests__/reliability/emulator.test.ts',
  '__tests__/reliability/security.test.ts',
  '__tests__/reliability/hostile.test.ts',
];

/** The defects of issue 18 that hostile.test.ts tries again, by item. */
const HOSTILE_ITEMS: Record<string, string> = {
  '1': 'Answers with no size limit',
  '2': 'File inputs that are not regular files',
  '3': 'A 200 that is not the API answer',
  '4': 'Answer text writing workflow commands',
  '5': 'Parts of secrets shown',
  '6': 'A token a header cannot carry',
  '7': 'Report files keeping a token',
  '8': 'Unclear lines (temp directory)',
  '9': 'Unchecked one-line inputs',
  '10': 'Summary text (bidi, zero-width, mentions)',
  '11': 'An unbounded response output',
};

interface Recorded<T> {
  ranAt: string;
  node: string;
  rows: T[];
}

interface MatrixMeta {
  seconds: number;
  poolSize: number;
  timeoutSeconds: number;
  faults: { id: string; label: string; expect: string; attempts: number }[];
  missingOperations: string[];
  /** Operations that call the faulted endpoint more than once in a run that meets no fault. */
  callsPerRun: { [operation: string]: number };
}

function runTests(): number {
  rmSync(RECORD_DIR, { recursive: true, force: true });
  const jest = spawnSync(
    process.execPath,
    ['--experimental-vm-modules', 'node_modules/jest/bin/jest.js', ...TEST_FILES],
    { stdio: 'inherit', env: { ...process.env, NODE_NO_WARNINGS: '1' } },
  );
  return jest.status ?? 1;
}

function read<T>(name: string): Recorded<T> | undefined {
  const path = join(RECORD_DIR, `${name}.json`);
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Recorded<T>) : undefined;
}

/** A table cell: pipes escaped, one line. */
function cell(text: unknown): string {
  return String(text ?? '')
    .replace(/\r?\n/g, ' ')
    .replace(/\|/g, '\\|');
}

/** Inline code that survives backticks inside. */
function code(text: string): string {
  if (!text) return '(empty)';
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${text.startsWith('`') ? ' ' : ''}${cell(text)}${text.endsWith('`') ? ' ' : ''}${fence}`;
}

function table(headers: string[], rows: string[][]): string {
  return [
    `| ${headers.join(' | ')} |`,
    `| ${headers.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
}

function count<T>(rows: T[], test: (row: T) => boolean): number {
  return rows.filter(test).length;
}

function mark(row: { passed: boolean; knownIssue?: string }): string {
  if (row.knownIssue) return row.passed ? '✓' : '⚠';
  return row.passed ? '✓' : '✗';
}

function renderMatrix(record: Recorded<FaultCellRow>, meta: MatrixMeta): string[] {
  const rows = record.rows;
  const operations = [...new Set(rows.map((row) => row.operation))];
  const byCell = new Map(rows.map((row) => [`${row.operation}|${row.fault}`, row]));
  return [
    '## Fault matrix',
    `Every operation against every fault, each cell a real run of the action (in-process, as the runner runs it) against its own repository in the emulator, with \`timeout-seconds: ${meta.timeoutSeconds}\`. ` +
      `The fault meets the operation's endpoint once; the cell passes when the run ends as the column says, with one \`::error::\` line when it fails (and none when it succeeds), ` +
      `the endpoint hit exactly as often as expected, no stack trace, the token nowhere but in \`::add-mask::\`, no duplicated side effect in the emulator ` +
      `(history, queue, stored targets, tickets), and outputs that agree with the outcome.`,
    matrixCounts(rows, operations, meta),
    faultsTable(meta),
    cellLegend(meta),
    table(
      ['Operation', ...meta.faults.map((fault) => `\`${fault.id}\``)],
      operations.map((operation) => [
        `\`${operation}\``,
        ...meta.faults.map((fault) => {
          const row = byCell.get(`${operation}|${fault.id}`);
          if (!row) return '—';
          return `${mark(row)} ${row.outcome === 'succeeded' ? 'ok' : 'fail'} ${row.attempts}`;
        }),
      ]),
    ),
    ...knownAndFailedCells(rows),
    '### Every run that failed, and its line',
    failedRunsTable(rows),
    '### Side effects of the runs that succeeded',
    table(
      ['Operation', ...meta.faults.filter((f) => f.expect === 'succeeded').map((f) => `\`${f.id}\``)],
      operations.map((operation) => [
        `\`${operation}\``,
        ...meta.faults
          .filter((f) => f.expect === 'succeeded')
          .map((fault) => cell(byCell.get(`${operation}|${fault.id}`)?.sideEffects ?? '—')),
      ]),
    ),
  ];
}

function matrixCounts(rows: FaultCellRow[], operations: string[], meta: MatrixMeta): string {
  const known = count(rows, (row) => Boolean(row.knownIssue) && !row.passed);
  const failed = count(rows, (row) => !row.passed && !row.knownIssue);
  return (
    `**${rows.length} cells** (${operations.length} operations × ${meta.faults.length} faults): ` +
    `**${count(rows, (r) => r.passed)} passed**, ${known} known issue(s), ${failed} failed; ` +
    `${count(rows, (r) => r.outcome === 'succeeded')} runs succeeded (after retries where the fault called for them), ${count(rows, (r) => r.outcome === 'failed')} failed with one line. ` +
    `The matrix took ${meta.seconds} s, ${meta.poolSize} runs at a time.` +
    (meta.missingOperations.length ? ` Operations without a row: ${meta.missingOperations.join(', ')}.` : '')
  );
}

function faultsTable(meta: MatrixMeta): string {
  return table(
    ['Fault', 'Injected', 'A run must', 'Requests to the endpoint'],
    meta.faults.map((fault) => [
      `\`${fault.id}\``,
      cell(fault.label),
      fault.expect === 'failed'
        ? 'fail with one line'
        : fault.attempts > 1
          ? 'succeed after retries'
          : 'succeed',
      String(fault.attempts),
    ]),
  );
}

function cellLegend(meta: MatrixMeta): string {
  const extraCalls = Object.entries(meta.callsPerRun ?? {})
    .map(
      ([operation, calls]) =>
        `\`${operation}\` calls its endpoint ${calls} times in a run, so ${calls - 1} more request(s) show in each of its cells.`,
    )
    .join(' ');
  return `Each cell: ✓ or ✗, then how the run ended (\`ok\` succeeded, \`fail\` failed with one line) and the requests the endpoint received. ⚠ marks a known issue (below). ${extraCalls}`.trim();
}

/** The cells that show a known defect, and the cells that failed, each under its heading when any. */
function knownAndFailedCells(rows: FaultCellRow[]): string[] {
  const known = rows.filter((row) => row.knownIssue && !row.passed);
  const failedCells = rows.filter((row) => !row.passed && !row.knownIssue);
  const out: string[] = [];
  if (known.length) {
    out.push(
      '### Known issues',
      'Defects already reported to the owners of the code (`KNOWN_ISSUES` in the test): such a cell passes `npm test` only while it shows exactly that defect, and fails once the defect is fixed until it is removed from the list.',
      table(
        ['Cell', 'What happens', 'How the run ended'],
        known.map((row) => [
          `\`${row.operation}\` × \`${row.fault}\``,
          cell(row.knownIssue),
          row.outcome === 'failed' ? code(row.line) : `succeeded; ${cell(row.sideEffects)}`,
        ]),
      ),
    );
  }
  if (failedCells.length) {
    out.push(
      '### Failed cells',
      table(
        ['Cell', 'Problems'],
        failedCells.map((row) => [`\`${row.operation}\` × \`${row.fault}\``, cell(row.problems.join('; '))]),
      ),
    );
  }
  return out;
}

function failedRunsTable(rows: FaultCellRow[]): string {
  return table(
    ['Operation', 'Fault', 'Requests', 'Seconds (deadline)', 'Side effects', 'The `::error::` line'],
    rows
      .filter((row) => row.outcome === 'failed')
      .sort((a, b) => a.fault.localeCompare(b.fault) || a.operation.localeCompare(b.operation))
      .map((row) => [
        `\`${row.operation}\``,
        `\`${row.fault}\``,
        String(row.attempts),
        `${row.seconds} (${row.deadlineSeconds})`,
        cell(row.sideEffects),
        code(row.line),
      ]),
  );
}

function renderBadInputs(record: Recorded<BadInputRow>): string[] {
  const rows = record.rows;
  const kinds = new Map<string, number>();
  for (const row of rows) {
    const kind = row.kind.replace(/ \(.*\)$/, '');
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  return [
    '## Bad-input table',
    'Each bad input run end to end through the action, as the runner runs it. A row passes when the step fails with exactly one `::error::` line that names the input, says what is wrong and what to do; ' +
      'no stack trace or JavaScript error name; no request reaches the API; and neither token appears anywhere but in its `::add-mask::` command, which comes before anything else.',
    `**${rows.length} bad inputs** over ${new Set(rows.map((r) => r.operation)).size} operations and ${new Set(rows.map((r) => r.input)).size} inputs: ` +
      `**${count(rows, (r) => r.passed)} passed**, ${count(rows, (r) => !r.passed)} failed. ` +
      `By kind: ${[...kinds].map(([kind, n]) => `${kind} ${n}`).join(', ')}.`,
    table(
      ['#', 'Operation', 'Input', 'Mistake', 'Given', 'The `::error::` line', ''],
      rows.map((row, index) => [
        String(index + 1),
        `\`${row.operation}\``,
        `\`${row.input}\``,
        cell(row.kind),
        code(row.given),
        cell(row.line),
        row.passed ? '✓' : '✗',
      ]),
    ),
  ];
}

function renderChecks(title: string, intro: string, record: Recorded<CheckRow> | undefined): string[] {
  if (!record) return [`## ${title}`, '_Not run._'];
  const rows = record.rows;
  return [
    `## ${title}`,
    intro,
    `**${rows.length} checks: ${count(rows, (r) => r.passed)} passed**, ${count(rows, (r) => !r.passed)} failed.`,
    table(
      ['Check', ''],
      rows.map((row) => [
        cell(row.check) + (row.detail ? ` (${cell(row.detail)})` : ''),
        row.passed ? '✓' : '✗',
      ]),
    ),
  ];
}

function renderHostile(record: Recorded<CheckRow> | undefined): string[] {
  const title = 'What was tried and what held';
  if (!record) return [`## ${title}`, '_Not run._'];
  const rows = record.rows;
  return [
    `## ${title}`,
    'Issue 18 probed the action as an attacker and a broken network would; each defect it found is tried again here, end to end through the action against the emulator or a raw HTTP server (`__tests__/reliability/hostile.test.ts`). ' +
      'A check holds when the run ends as a user would want: one clear `::error::` line (no stack trace, no token, not even in part) or the right outcome.',
    `**${rows.length} checks: ${count(rows, (r) => r.passed)} held**, ${count(rows, (r) => !r.passed)} did not.`,
    table(
      ['#', 'Defect', 'What was tried', 'Held'],
      rows.map((row) => [
        row.area,
        cell(HOSTILE_ITEMS[row.area] ?? ''),
        cell(row.check) + (row.detail ? ` (${cell(row.detail)})` : ''),
        row.passed ? '✓' : '✗',
      ]),
    ),
  ];
}

const escaped = (path: string) => path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The temp paths the runs named, as any machine would say them ($TMPDIR, mkdtemp's random suffixes as
 * XXXXXX), and the checkout's as $CHECKOUT: this file keeps no path of the machine it was made on.
 */
function withoutTempPaths(text: string): string {
  return text
    .replace(
      new RegExp(`${escaped(tmpdir())}((?:/[\\w.-]+)+)`, 'g'),
      (_path, rest: string) => `$TMPDIR${rest.replace(/-[A-Za-z0-9]{5,6}(?=\/|\.\.\.|$)/g, '-XXXXXX')}`,
    )
    .replace(new RegExp(`${escaped(process.cwd())}(?=/)`, 'g'), '$CHECKOUT');
}

function render(): string {
  const matrix = read<FaultCellRow>('fault-matrix');
  const meta = read<MatrixMeta>('fault-matrix-meta')?.rows[0];
  const badInputs = read<BadInputRow>('bad-input');
  const ranAt = [matrix, badInputs].find(Boolean);
  const parts = [
    '# Reliability',
    `Regenerate with \`${COMMAND}\`: it runs the reliability and security tests (they are part of \`npm test\` too) and rewrites this file from what they recorded. ` +
      'Nothing here is written by hand.',
    ranAt ? `Last run: ${ranAt.ranAt} on Node ${ranAt.node}.` : '',
    ...(matrix && meta ? renderMatrix(matrix, meta) : ['## Fault matrix', '_Not run._']),
    ...(badInputs ? renderBadInputs(badInputs) : ['## Bad-input table', '_Not run._']),
    ...renderHostile(read<CheckRow>('hostile')),
    ...renderChecks(
      'Security',
      'The token, redirects, and text from the service, end to end through the action (`__tests__/reliability/security.test.ts`).',
      read<CheckRow>('security'),
    ),
    ...renderChecks(
      'Emulator robustness',
      'Concurrency, bad bodies, slow clients and a bounded fuzz loop against the emulator (`__tests__/reliability/emulator.test.ts`).',
      read<CheckRow>('emulator'),
    ),
  ];
  return withoutTempPaths(`${parts.filter(Boolean).join('\n\n')}\n`);
}

const renderOnly = process.argv.includes('--render-only');
const status = renderOnly ? 0 : runTests();
writeFileSync('RELIABILITY.md', render());
console.log(`RELIABILITY.md written${status ? ' (some tests failed: see above)' : ''}.`);
process.exitCode = status;

// A PR's way through the queue over v2, in a terminal: where it is now and the story in one line, then
// each step (state, when, how long, why, who, which run); and the verification runs, the latest first.
import {
  filledColumns,
  type QueueEntryHistoryDetails,
  type VerificationRunsDetails,
} from '../../core/index.js';
import type { Column, Page } from './page.js';
import { prStateTone, type Tone } from './style.js';

/** A run id is a UUID: its first block tells runs apart in a table; --json has it whole. */
const SHORT_ID = 8;

const RUN_TONES: Record<string, Tone> = {
  succeeded: 'good',
  failed: 'bad',
  cancelled: 'muted',
  inProgress: 'waiting',
};

export function presentQueueEntryHistory(page: Page, details: QueueEntryHistoryDetails): void {
  const target = `PR #${details.prNumber} → ${details.branch} of ${details.repo}`;
  const last = details.steps.at(-1);
  if (!last) {
    page.outcome(`Never in the merge queue: ${target}`, 'muted');
    return;
  }
  page.outcome(`${details.heading}: ${target}`, prStateTone(last.stateOutput));
  page.note(details.story);
  filledTable(
    page,
    'Steps',
    [
      { title: 'State' },
      { title: 'When', align: 'right' },
      { title: 'For', align: 'right' },
      { title: 'Why', max: 56 },
      { title: 'By', max: 24 },
      { title: 'Run' },
    ],
    details.steps.map((step) => [
      step.state,
      step.when,
      step.lasted,
      step.why,
      step.by,
      step.runId.slice(0, SHORT_ID),
    ]),
    { column: 'State', tones: details.steps.map((step) => prStateTone(step.stateOutput)) },
  );
}

export function presentVerificationRuns(page: Page, details: VerificationRunsDetails): void {
  const latest = details.runs[0];
  page.outcome(details.heading, latest ? (RUN_TONES[latest.status] ?? 'plain') : 'muted');
  if (!latest) return;
  filledTable(
    page,
    'Runs',
    [
      { title: 'Run' },
      { title: 'Outcome' },
      { title: 'Started', align: 'right' },
      { title: 'Time' },
      { title: 'Tested PRs', max: 32 },
      { title: 'Failed checks', max: 48 },
    ],
    details.runs.map((run) => [
      `${run.id.slice(0, SHORT_ID)}${run.bisection ? ' (bisection)' : ''}`,
      run.outcome,
      run.started,
      run.time,
      run.testedPrs,
      run.failedChecks,
    ]),
    { column: 'Outcome', tones: details.runs.map((run) => RUN_TONES[run.status] ?? 'plain') },
  );
  if (details.hasMore) page.note('Only the newest runs are listed: more exist.');
}

/** A table without the columns no row fills, one column painted in each row's tone. */
function filledTable(
  page: Page,
  title: string,
  columns: Column[],
  rows: string[][],
  toned: { column: string; tones: Tone[] },
): void {
  const { headers, rows: kept } = filledColumns(
    columns.map((column) => column.title),
    rows,
  );
  const tonedAt = headers.indexOf(toned.column);
  page.table(
    title,
    headers.map((header) => columns.find((column) => column.title === header)!),
    kept.map((row, r) => row.map((text, i) => (i === tonedAt ? { text, tone: toned.tones[r]! } : text))),
  );
}

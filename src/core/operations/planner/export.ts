// export-queue-history (v2 only): a window of at most 45 days of the queue, read-only, appended to the
// history file: a settings snapshot, every concluded queue entry of the PRs that concluded in the window
// (histories 50 PRs a call, paced by the client to the 5 requests/s the service allows) and every
// finished verification run. Records already in the file are not written again.
import type { V2 } from '../../../wire/v2/index.js';
import { realClock } from '../../clock.js';
import { InputError } from '../../errors.js';
import { Markdown, escapeMarkdown } from '../../report/markdown.js';
import { queueIdOf, requireV2, type V2Access } from '../pull-request/v2/access.js';
import type { Operation, OperationContext } from '../types.js';
import {
  appendHistory,
  type EntryRecord,
  type HistoryRecord,
  type RunRecord,
  type SettingsRecord,
  type Transition,
} from './history-file.js';
import type { ExportSettings } from './inputs.js';
import { SETTING_NAMES, type PlanSettings } from './settings.js';

const DAY_MS = 86_400_000;
export const MAX_WINDOW_DAYS = 45;
const IDS_PER_CALL = 50;
const MAX_PRS = 200_000;
const MAX_RUNS = 500_000;
const TERMINAL = new Set(['merged', 'failed', 'cancelled']);

export const exportQueueHistory: Operation<ExportSettings> = async (op) => {
  const window = exportWindow(op.settings, (op.clock ?? realClock).now());
  const read = await readQueueHistory(op, window);
  const added = await appendHistory(op.settings.historyFile, read.records);
  op.log.info(
    `export: ${added} new records appended to ${op.settings.historyFile} (${read.entries} entries, ${read.runs} runs read)`,
  );
  return {
    outputs: { history: op.settings.historyFile, added, prs: read.pullRequests, runs: read.runs },
    summary: new Markdown()
      .heading(`📦 Queue history exported: ${added} new record${added === 1 ? '' : 's'}`)
      .facts([
        ['window', `${window.since} to ${window.until}`],
        ['PRs concluded', read.pullRequests],
        ['queue entries', read.entries],
        ['verification runs', read.runs],
        ['records added', added],
        ['file', { markdown: escapeMarkdown(op.settings.historyFile) }],
      ]),
  };
};

/** The window's records, read-only: a settings snapshot, the concluded entries, the finished runs. */
export async function readQueueHistory(
  op: OperationContext<unknown>,
  window: { since: string; until: string },
) {
  const access = requireV2(op);
  const queueId = await queueIdOf(op, access);
  const queue = (await access.v2.call('mergeQueues.get', { path: { id: queueId } })).data;
  const name = `${op.context.repo.owner}/${op.context.repo.name}@${queue.targetBranch}`;
  const pullRequests = await access.v2.all(
    'mergeQueues.listPullRequests',
    { path: { id: queueId }, query: { concludedAfter: window.since, concludedBefore: window.until } },
    MAX_PRS,
  );
  const entries = await entryRecords(op, access, pullRequests);
  const runs = await runRecords(access, queueId, window);
  const records: HistoryRecord[] = [settingsRecord(queue, name, window.until), ...entries, ...runs];
  return { records, pullRequests: pullRequests.length, entries: entries.length, runs: runs.length };
}

export function exportWindow(settings: ExportSettings, nowMs: number): { since: string; until: string } {
  const untilMs = settings.until ? Date.parse(settings.until) : nowMs;
  const sinceMs = settings.since ? Date.parse(settings.since) : untilMs - MAX_WINDOW_DAYS * DAY_MS;
  if (sinceMs >= untilMs)
    throw new InputError('since', 'is not before until', 'Set since to an earlier date-time than until.');
  if (untilMs - sinceMs > MAX_WINDOW_DAYS * DAY_MS) {
    throw new InputError(
      'since',
      `is ${Math.ceil((untilMs - sinceMs) / DAY_MS)} days before until, and the service keeps ${MAX_WINDOW_DAYS} days`,
      `Set since and until at most ${MAX_WINDOW_DAYS} days apart; run the export nightly to keep more.`,
    );
  }
  return { since: new Date(sinceMs).toISOString(), until: new Date(untilMs).toISOString() };
}

function settingsRecord(queue: V2<'MergeQueue'>, name: string, at: string): SettingsRecord {
  const config = queue.config as unknown as Record<string, unknown>;
  const settings = Object.fromEntries(
    SETTING_NAMES.map((key) => [key, config[key]]),
  ) as unknown as PlanSettings;
  return { type: 'settings', key: `settings:${at}`, at, queue: name, settings };
}

/** Each PR's concluded entries: its transitions cut after every merged, failed or cancelled. */
async function entryRecords(
  op: OperationContext<unknown>,
  access: V2Access,
  pullRequests: V2<'PullRequest'>[],
): Promise<EntryRecord[]> {
  const numberOf = new Map(pullRequests.map((pr) => [pr.id.toLowerCase(), pr.number]));
  const ids = [...numberOf.keys()];
  const records: EntryRecord[] = [];
  for (let start = 0; start < ids.length; start += IDS_PER_CALL) {
    const chunk = ids.slice(start, start + IDS_PER_CALL);
    const histories = await access.v2.all(
      'pullRequests.queueEntryHistoryBatch',
      { query: { pullRequestIds: chunk.join(','), direction: 'oldest' } },
      IDS_PER_CALL * 200,
    );
    for (const history of histories) {
      const number = numberOf.get(history.pullRequestId.toLowerCase());
      if (number !== undefined)
        records.push(...entriesOf(history.pullRequestId, number, history.transitions));
    }
    op.log.info(
      `export: histories of ${Math.min(start + IDS_PER_CALL, ids.length)} of ${ids.length} PRs read`,
    );
  }
  return records;
}

export function entriesOf(
  pullRequestId: string,
  number: number,
  transitions: V2<'QueueEntryStateTransition'>[],
) {
  const entries: EntryRecord[] = [];
  let current: Transition[] = [];
  for (const t of transitions) {
    current.push([t.state, t.changedAt, t.reason ?? null, t.verificationRunId ?? null]);
    if (!TERMINAL.has(t.state)) continue;
    entries.push({
      type: 'entry',
      key: `entry:${pullRequestId.toLowerCase()}:${current[0]![1]}`,
      number,
      transitions: current,
    });
    current = [];
  }
  return entries;
}

async function runRecords(access: V2Access, queueId: string, window: { since: string; until: string }) {
  const runs = await access.v2.all(
    'mergeQueues.listVerificationRuns',
    { path: { id: queueId }, query: { createdAfter: window.since } },
    MAX_RUNS,
  );
  const until = Date.parse(window.until);
  return runs
    .filter((run) => run.status !== 'inProgress' && Date.parse(run.createdAt) < until)
    .map(runRecord);
}

function runRecord(run: V2<'VerificationRun'>): RunRecord {
  return {
    type: 'run',
    key: `run:${run.id}`,
    bisection: run.isBisection,
    status: run.status as RunRecord['status'],
    createdAt: run.createdAt,
    finishedAt: run.updatedAt,
    tested: run.testedPullRequests.map((pr) => pr.number),
    dependent: run.dependentPullRequests.map((pr) => pr.number),
  };
}

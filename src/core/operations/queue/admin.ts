// Queue administration: create (fully configured in one step), read, update, delete, and the
// pause/resume/drain conveniences. Every write is followed by a getQueue, so that the outputs and the
// summary show the queue as the service now has it, enqueued PRs included.
import { plural } from '../../report/words.js';
import {
  ACTION_WORDING,
  codeNameIn,
  nameOf,
  operationIn,
  words,
  type Words,
  type Wording,
} from '../../words.js';
import type { Answered, ApiResponse } from '../../api/client.js';
import type { QueueAnswer } from '../../api/typed-answers.js';
import { ApiError } from '../../api/errors.js';
import { wordsOf } from '../../failure.js';
import { enumValue, type QueueSettings, type Repo } from '../../../wire/index.js';
import { timeSince } from '../../report/duration.js';
import { filledColumns } from '../../report/filled-columns.js';
import { Markdown, codeSpan, escapeCell, escapeMarkdown, link } from '../../report/markdown.js';
import { filled } from '../../report/filled.js';
import { pullRequestUrl, queueRef, rawResponse, repoLink, repoSlug, stateOutput } from '../common.js';
import type { QueueDetails } from './details.js';
import type { Operation, OperationContext, OperationResult } from '../types.js';
import type { QueueAdminSettings } from './inputs.js';
import { byAndWhy } from '../reason.js';

type QueueView = QueueAnswer;
type QueueUpdate = QueueSettings & Record<string, unknown>;
type SettableState = NonNullable<QueueSettings['state']>;

export const createQueue: Operation<QueueAdminSettings> = async (op) => {
  const ref = queueRef(op.context);
  const { mode, concurrency, ifExists, update } = op.settings;
  let created = true;
  try {
    await op.client.call('createQueue', { ...ref, mode, concurrency });
    op.log.info(`Created the merge queue for ${describeRef(op)}.`);
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 409)) throw error;
    if (error.afterLostAnswer) {
      // The attempt whose answer was lost created it; this step's settings still apply.
      op.log.info(`Created the merge queue for ${describeRef(op)} (the first attempt's answer was lost).`);
    } else if (ifExists === 'fail') {
      throw error.reworded(
        words`A merge queue for ${describeRef(op)} already exists (createQueue answered 409). Set ${nameOf('if-exists')} to update (apply the given settings to it) or skip (leave it as it is).`,
      );
    } else {
      created = false;
      op.log.info(
        words`The merge queue for ${describeRef(op)} already exists; ${ifExists === 'update' ? ['applying the given settings to it'] : words`leaving it as it is (${nameOf('if-exists')}: skip)`}.`,
      );
    }
  }
  // A new queue already has the mode and concurrency it was created with; an existing one gets them too.
  const toSend = created
    ? withoutCreationSettings(update, { mode, concurrency })
    : ifExists === 'update'
      ? update
      : {};
  let updateResponse: Answered<'updateQueue'> | undefined;
  if (Object.keys(toSend).length) {
    try {
      updateResponse = await op.client.call('updateQueue', { ...toSend, ...ref });
    } catch (error) {
      if (!created || !(error instanceof ApiError)) throw error;
      throw error.reworded(
        words`Created the merge queue for ${describeRef(op)}, but applying the other settings failed: ${error.line} Run update-queue with the same inputs to apply them.`,
      );
    }
  }
  const { queue, response } = await readBack(op, updateResponse);
  const sent = created ? { ...definedOnly({ mode, concurrency }), ...toSend } : toSend;
  const outcome: Outcome = created
    ? { icon: '🆕', words: 'Merge queue created' }
    : ifExists === 'update'
      ? { icon: '⚙️', words: 'Merge queue updated' }
      : { icon: '➖', words: 'Merge queue left as it was' };
  const result = describeQueue(op, outcome, queue, response, sent);
  result.outputs['queue-created'] = created;
  return result;
};

export const getQueue: Operation<QueueAdminSettings> = async (op) => {
  const ref = queueRef(op.context);
  let response: Answered<'getQueue'>;
  try {
    response = await op.client.call('getQueue', ref);
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) throw error;
    return {
      outputs: { ...queueOutputs(undefined, undefined), 'queue-exists': false },
      details: { ...queueDetails(op, 'No merge queue', undefined, undefined, []), missing: true },
      summary: heading(op, { icon: '➖', words: 'No merge queue' }).paragraph(createOrCheck(op.wording)),
      failure: noQueue(op, 'getQueue'),
      failureCause: error,
    };
  }
  return describeQueue(op, { words: 'Merge queue' }, response.answer, response, {});
};

export const updateQueue: Operation<QueueAdminSettings> = async (op) => {
  const update = op.settings.update;
  return applyUpdate(op, update, { icon: '⚙️', words: 'Merge queue updated' });
};

export const pauseQueue: Operation<QueueAdminSettings> = (op) =>
  setState(op, 'paused', { icon: '⏸️', words: 'Merge queue paused' });
export const resumeQueue: Operation<QueueAdminSettings> = (op) =>
  setState(op, 'running', { icon: '▶️', words: 'Merge queue resumed' });
export const drainQueue: Operation<QueueAdminSettings> = (op) =>
  setState(op, 'draining', { icon: '🚰', words: 'Merge queue draining' });

export const deleteQueue: Operation<QueueAdminSettings> = async (op) => {
  const ref = queueRef(op.context);
  let response: ApiResponse;
  try {
    response = await op.client.call('deleteQueue', ref);
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 400)) throw error;
    return refusedDelete(op, error);
  }
  op.log.info(`Deleted the merge queue for ${describeRef(op)}${byAndWhy(op.context.actor, undefined)}.`);
  return {
    outputs: { ...queueOutputs(undefined, response), 'queue-exists': false },
    details: queueDetails(op, 'Merge queue deleted', undefined, response, []),
    summary: heading(op, { icon: '🗑️', words: 'Merge queue deleted' }).paragraph(
      'The queue is gone (deleting a queue that did not exist is not an error).',
    ),
  };
};

// ---------------------------------------------------------------------------------------------------

async function setState(
  op: OperationContext<QueueAdminSettings>,
  state: SettableState,
  outcome: Outcome,
): Promise<OperationResult> {
  return applyUpdate(op, { state }, outcome);
}

async function applyUpdate(
  op: OperationContext<QueueAdminSettings>,
  update: QueueUpdate,
  outcome: Outcome,
): Promise<OperationResult> {
  const before = await readBefore(op);
  let updateResponse: Answered<'updateQueue'>;
  try {
    updateResponse = await op.client.call('updateQueue', { ...update, ...queueRef(op.context) });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw error.reworded(noQueue(op, 'updateQueue'));
    throw error;
  }
  // A CI log keeps the line; a terminal's page says it in its first line and its Reason.
  (op.log.outcome ?? op.log.info)(
    `Set ${sentSettings(update)} on the merge queue for ${describeRef(op)}${byAndWhy(op.context.actor, op.settings.reason)}.`,
  );
  const { queue, response } = await readBack(op, updateResponse);
  return describeQueue(op, outcome, queue, response, update, before);
}

/** "state to paused", "concurrency to 3 and batch to true": what a step sent, as one phrase. */
function sentSettings(update: QueueUpdate): string {
  const parts = Object.entries(update).map(
    ([field, value]) => `${inputName(field)} to ${formatSetting(field, value)}`,
  );
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : (parts[0] ?? 'nothing');
}

/** The queue before a change, to show what changed; without it the change is still made. */
async function readBefore(op: OperationContext<QueueAdminSettings>): Promise<QueueView | undefined> {
  try {
    return (await op.client.call('getQueue', queueRef(op.context))).answer;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw error.reworded(noQueue(op, 'getQueue'));
    op.log.warning(words`Could not read the queue before the change: ${wordsOf(error)}`);
    return undefined;
  }
}

/** getQueue after a write. Should it fail, the write still happened: warn, and use what the write returned. */
async function readBack(
  op: OperationContext<QueueAdminSettings>,
  writeResponse: Answered<'updateQueue'> | undefined,
): Promise<{ queue?: QueueView; response?: ApiResponse }> {
  try {
    const response = await op.client.call('getQueue', queueRef(op.context));
    return { queue: response.answer, response };
  } catch (error) {
    op.log.warning(
      words`The change was made, but reading the queue back failed: ${wordsOf(error)} Outputs show what the change returned.`,
    );
    return writeResponse?.answer ? { queue: writeResponse.answer, response: writeResponse } : {};
  }
}

/** deleteQueue answered 400: the queue still holds PRs. Say which, and how to empty it. */
async function refusedDelete(
  op: OperationContext<QueueAdminSettings>,
  refusal: ApiError,
): Promise<OperationResult> {
  let queue: QueueView | undefined;
  let response: ApiResponse | undefined;
  try {
    const answered = await op.client.call('getQueue', queueRef(op.context));
    queue = answered.answer;
    response = answered;
  } catch (error) {
    op.log.warning(words`Could not list the PRs still in the queue: ${wordsOf(error)}`);
  }
  const remaining = queue?.enqueuedPullRequests ?? [];
  const what = !queue
    ? 'A queue must be empty to be deleted'
    : remaining.length
      ? `The queue still holds ${plural(remaining.length, 'PR')}: ${listPrs(remaining)}; a queue must be empty to be deleted`
      : 'A queue must be empty to be deleted; getQueue lists no PRs, but PRs that are not ready yet are not listed';
  const result = describeQueue(op, { icon: '❌', words: 'Merge queue not deleted' }, queue, response, {});
  return {
    ...result,
    failure: `Could not delete the merge queue for ${describeRef(op)} (deleteQueue answered 400). ${what}. Run drain-queue and wait until its PRs have merged (or cancel them), then run delete-queue again.`,
    // A refusal, as every 4xx is: its exit code, and what the service said, apart from this line.
    failureCause: refusal,
  };
}

const LISTED_IN_MESSAGE = 20;

function listPrs(prs: NonNullable<QueueView['enqueuedPullRequests']>): string {
  const shown = prs.slice(0, LISTED_IN_MESSAGE).map((pr) => `#${pr.prNumber} (${stateOutput(pr.state)})`);
  const more = prs.length - shown.length;
  return `${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

// ---------------------------------------------------------------------------------------------------
// Outputs and summary

function queueOutputs(queue: QueueView | undefined, response: ApiResponse | undefined) {
  return {
    response: rawResponse(response),
    'queue-exists': true,
    'queue-state': enumValue(queue?.state),
    'queue-mode': enumValue(queue?.mode),
    concurrency: typeof queue?.concurrency === 'number' ? queue.concurrency : '',
    'enqueued-count': Array.isArray(queue?.enqueuedPullRequests) ? queue.enqueuedPullRequests.length : '',
  } as OperationResult['outputs'];
}

/** What a step did to the queue, said first; the icon of the queue's state when none is given. */
interface Outcome {
  icon?: string;
  words: string;
}

const STATE_ICONS: Record<string, string> = {
  running: '🟢',
  paused: '⏸️',
  draining: '🚰',
  switching_modes: '🔀',
};

/**
 * The outputs and summary of a queue: what the step did and the queue's state in the first line, what
 * changed (before and after), the line in order with positions, then every setting collapsed.
 */
function describeQueue(
  op: OperationContext<QueueAdminSettings>,
  outcome: Outcome,
  queue: QueueView | undefined,
  response: ApiResponse | undefined,
  sent: Record<string, unknown>,
  before?: QueueView,
): OperationResult {
  const outputs = queueOutputs(queue, response);
  if (!queue) {
    const summary = heading(op, outcome).paragraph('The queue could not be read back; see the log.');
    return { outputs, summary, details: queueDetails(op, outcome.words, undefined, response, []) };
  }
  const state = enumValue(queue.state);
  const changes = before ? changedSettings(before, queue) : [];
  const details = queueDetails(op, outcome.words, queue, response, changes);
  const headline = changes.length
    ? changes
        .slice(0, 3)
        .map((c) => `${c.name} ${c.before} → ${c.after}`)
        .join(', ') + (changes.length > 3 ? ` and ${changes.length - 3} more` : '')
    : stateLine(queue);
  const summary = heading(
    op,
    { icon: outcome.icon ?? STATE_ICONS[state] ?? '❔', words: outcome.words },
    headline,
  );
  if (STATE_MEANINGS[state]) summary.paragraph(`**${escapeMarkdown(state)}**: ${STATE_MEANINGS[state]}.`);
  const notes = differences(sent, queue);
  for (const note of notes) op.log.info(note);
  if (notes.length) summary.paragraph(notes.map((note) => `- ${escapeMarkdown(note)}`).join('\n'));
  if (changes.length) {
    summary.table(
      ['Setting', 'Before', 'After'],
      changes.map((c) => [
        escapeMarkdown(c.name),
        escapeMarkdown(c.before),
        `**${escapeMarkdown(c.after)}**`,
      ]),
    );
  } else if (before && Object.keys(sent).length) {
    summary.paragraph('_Nothing changed: the queue already had these settings._');
  }
  lineTable(op, summary, queue, response);
  const rows = settingRows(queue);
  const settings = new Markdown().table(
    ['Setting', 'Value'],
    rows.map(([field, value]) => {
      const name = escapeMarkdown(inputName(field));
      return [field in sent ? `**${name}**` : name, escapeMarkdown(formatValue(value))];
    }),
  );
  if (rows.some(([field]) => field in sent)) settings.paragraph('_Settings in bold were sent by this step._');
  summary.details('Every setting of the queue', settings.toString());
  return { outputs, summary, details };
}

function queueDetails(
  op: OperationContext<QueueAdminSettings>,
  action: string,
  queue: QueueView | undefined,
  response: ApiResponse | undefined,
  changes: SettingChange[],
): QueueDetails {
  const { repo, targetBranch } = queueRef(op.context);
  const nowMs = response?.serverTimeMs ?? op.clock?.now() ?? Date.now();
  const { actor: by } = op.context;
  const reason = op.settings.reason;
  return {
    kind: 'queue',
    action,
    repo: repoSlug(repo),
    branch: targetBranch,
    queue,
    nowMs,
    changes,
    by,
    reason,
  };
}

/** The PRs in line, in the order the service lists them, with how long each has been in its state. */
function lineTable(
  op: OperationContext<QueueAdminSettings>,
  summary: Markdown,
  queue: QueueView,
  response: ApiResponse | undefined,
): void {
  const prs = queue.enqueuedPullRequests ?? [];
  if (!prs.length) {
    summary.paragraph('No pull requests are in line.');
    return;
  }
  const now = response?.serverTimeMs ?? op.clock?.now() ?? Date.now();
  const table = filledColumns(
    ['#', 'PR', 'Title', 'State', 'Priority', 'In this state'],
    prs.map((pr, index) => [
      String(index + 1),
      link(`#${pr.prNumber}`, prLink(op.context.repo, pr.prNumber)),
      escapeCell(filled(pr.prTitle)),
      escapeMarkdown(stateOutput(pr.state)),
      escapeMarkdown(priorityText(pr.priorityName, pr.priorityValue)),
      escapeMarkdown(timeSince(pr.stateChangedAt, now)),
    ]),
  );
  summary
    .heading(`In line (${prs.length})`, 3)
    .table(table.headers, table.rows, 'not shown; see the response output or response-file');
}

/** "medium (100)", or whichever of the two the service sent. */
function priorityText(name: unknown, value: unknown): string {
  const [named, valued] = [filled(name), filled(value)];
  return named && valued ? `${named} (${valued})` : named || valued;
}

function stateLine(queue: QueueView): string {
  const count = queue.enqueuedPullRequests?.length;
  const parts = [enumValue(queue.state), `${enumValue(queue.mode)} mode`, `concurrency ${queue.concurrency}`];
  if (count !== undefined) parts.push(`${count} PR${count === 1 ? '' : 's'} in line`);
  return parts.filter(Boolean).join(', ');
}

interface SettingChange {
  name: string;
  before: string;
  after: string;
}

/** Every setting, the state included, whose value differs between two reads of the queue. */
function changedSettings(before: QueueView, after: QueueView): SettingChange[] {
  const was = before as Record<string, unknown>;
  const now = after as Record<string, unknown>;
  const fields = ['state', 'mode', 'concurrency', ...Object.keys(now).filter((f) => !NOT_SETTINGS.has(f))];
  return fields
    .filter((field) => field in now && !sameValue(was[field], now[field]))
    .map((field) => ({
      name: inputName(field),
      before: formatSetting(field, was[field]),
      after: formatSetting(field, now[field]),
    }));
}

function formatSetting(field: string, value: unknown): string {
  return field === 'state' || field === 'mode' ? enumValue(value) || 'default' : formatValue(value);
}

const STATE_MEANINGS: Record<string, string> = {
  running: 'PRs are admitted, tested and merged',
  paused: 'the order is kept; nothing merges and no new testing starts',
  draining: 'the PRs in the queue are tested and merged; nothing new starts',
  switching_modes: 'a mode change waits for the PRs testing now; meanwhile the queue drains',
};

/** Settings sent whose value the queue does not (yet) report, each as a line saying why. */
function differences(sent: Record<string, unknown>, queue: QueueView): string[] {
  const notes: string[] = [];
  for (const [field, value] of Object.entries(sent)) {
    if (!(field in queue)) continue;
    const now = (queue as Record<string, unknown>)[field];
    if (sameValue(value, now)) continue;
    const name = inputName(field);
    if (field === 'mode' && enumValue(queue.state) === 'switching_modes') {
      notes.push(
        `mode ${formatValue(value)} takes effect once the PRs testing now have finished; until then the queue is switching_modes and drains.`,
      );
    } else if (field === 'requiredStatuses' && Array.isArray(value) && value.length === 0) {
      notes.push(
        'required-statuses: an empty list is ignored by the service; use delete-required-statuses: true.',
      );
    } else {
      notes.push(`${name}: sent ${formatValue(value)}, the queue reports ${formatValue(now)}.`);
    }
  }
  return notes;
}

function sameValue(sent: unknown, now: unknown): boolean {
  if (typeof sent === 'string' && typeof now === 'string') return sent.toLowerCase() === now.toLowerCase();
  return JSON.stringify(sent) === JSON.stringify(now);
}

/** Known settings in a fixed order, then any the service sent that this version does not know. */
function settingRows(queue: QueueView): [string, unknown][] {
  const fields = queue as Record<string, unknown>;
  const known = Object.keys(INPUT_NAMES).filter((field) => field in fields);
  const unknown = Object.keys(fields).filter((field) => !(field in INPUT_NAMES) && !NOT_SETTINGS.has(field));
  return [...known, ...unknown].map((field) => [field, fields[field]]);
}

const NOT_SETTINGS = new Set(['branch', 'enqueuedPullRequests', 'state', 'mode', 'concurrency']);

/** Each setting's wire name and the input that sets it. */
const INPUT_NAMES: Record<string, string> = {
  testingTimeoutMinutes: 'testing-timeout-minutes',
  pendingFailureDepth: 'pending-failure-depth',
  canOptimisticallyMerge: 'can-optimistically-merge',
  batch: 'batch',
  batchingMaxWaitTimeMinutes: 'batching-max-wait-time-minutes',
  batchingMinSize: 'batching-min-size',
  bisectionConcurrency: 'bisection-concurrency',
  mergeMethod: 'merge-method',
  directMergeMode: 'direct-merge-mode',
  optimizationMode: 'optimization-mode',
  requiredStatuses: 'required-statuses',
  commentsEnabled: 'comments-enabled',
  commandsEnabled: 'commands-enabled',
  statusCheckEnabled: 'status-check-enabled',
  createPrsForTestingBranches: 'create-prs-for-testing-branches',
};

/** The input that sets a field; a field without an input of its own (from `settings`) keeps its name. */
function inputName(field: string): string {
  return INPUT_NAMES[field] ?? field;
}

function formatValue(value: unknown): string {
  if (value === null || value === undefined) return 'default';
  if (Array.isArray(value)) return value.length ? value.join(', ') : 'none';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** "## ⏸️ Merge queue paused for `main`: state running → paused", then where the queue is. */
function heading(op: OperationContext<QueueAdminSettings>, outcome: Outcome, headline = ''): Markdown {
  const { repo, targetBranch } = queueRef(op.context);
  const what = `${outcome.icon ?? '❔'} ${escapeMarkdown(outcome.words)} for ${codeSpan(targetBranch)}`;
  const summary = new Markdown()
    .headingMarkdown(headline ? `${what}: ${escapeMarkdown(headline)}` : what)
    .paragraph(`Repository ${repoLink(repo)}.`);
  const { actor } = op.context;
  const { reason } = op.settings;
  // Only a step that changes the queue is done by someone.
  if (outcome.icon !== undefined && (actor || reason)) {
    summary.paragraph(
      [actor && `By **${escapeMarkdown(actor)}**.`, reason && `Reason: ${escapeMarkdown(reason)}`]
        .filter(Boolean)
        .join(' '),
    );
  }
  return summary;
}

function prLink(repo: Repo, prNumber: unknown): string | undefined {
  return typeof prNumber === 'number' ? pullRequestUrl(repo, prNumber) : undefined;
}

function noQueue(op: OperationContext<QueueAdminSettings>, endpoint: string): Words {
  return words`No merge queue exists for ${describeRef(op)} (${endpoint} answered 404). Create one with operation create-queue, or check ${nameOf('target-branch')}, ${nameOf('repo')} and ${nameOf('repo-host')}.`;
}

function describeRef(op: OperationContext<QueueAdminSettings>): string {
  const { repo, targetBranch } = queueRef(op.context);
  return `branch ${targetBranch} of ${repo.host}/${repoSlug(repo)}`;
}

/** The update minus what createQueue was already given, when given with the same value. */
function withoutCreationSettings(update: QueueUpdate, creation: Record<string, unknown>): QueueUpdate {
  const rest: QueueUpdate = { ...update };
  for (const [field, value] of Object.entries(creation)) {
    if (value !== undefined && sameValue(rest[field], value)) delete rest[field];
  }
  return rest;
}

function definedOnly(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
}

/** The summary's advice when the branch has no queue, naming the operation and inputs as the host does. */
function createOrCheck(wording: Wording = ACTION_WORDING): string {
  const [branch, repo, host] = ['target-branch', 'repo', 'repo-host'].map((input) =>
    codeNameIn(wording, input),
  );
  return `Create one with ${operationIn(wording, 'create-queue')}, or check ${branch}, ${repo} and ${host}.`;
}

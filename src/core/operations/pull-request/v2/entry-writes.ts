// reprioritize-pull-request and update-queue-entry: change a queued PR in place (v2 only; v1 could only
// resubmit). Neither write may be repeated blindly, so a lost answer is read back first.
import type { ApiResponse } from '../../../api/client.js';
import { writeOnce } from '../../../api/v2/unknown-outcome.js';
import type { V2 } from '../../../../wire/v2/index.js';
import type { PriorityName } from '../../../../wire/index.js';
import { InputError } from '../../../errors.js';
import { Markdown, codeSpan, escapeMarkdown, link } from '../../../report/markdown.js';
import { pullRequestUrl, rawResponse, requirePrNumber } from '../../common.js';
import type { Operation, OperationContext, OperationResult } from '../../types.js';
import type { PullRequestSettings } from '../inputs.js';
import { pullRequestIdOf, requireV2, type V2Access } from './access.js';
import { stateOutputOf, stateWords } from './words.js';

type Change = V2<'UpdateQueueEntryRequest'>;

export function priorityFields(priority: PriorityName | number): Change {
  return typeof priority === 'number' ? { priorityValue: priority } : { priorityName: priority };
}

export const reprioritizePullRequest: Operation<PullRequestSettings> = async (op) => {
  const access = requireV2(op);
  const { priority } = op.settings;
  if (priority === undefined) {
    throw new InputError(
      'priority',
      'is empty',
      'Set priority to urgent, high, medium or low, or a number from 0 (highest) to 255.',
    );
  }
  const body = priorityFields(priority);
  const pr = await changeEntry(op, access, 'pullRequests.reprioritize', body);
  return entryResult(op, pr, `Priority set to ${priorityWords(pr.pr)}`);
};

export const updateQueueEntry: Operation<PullRequestSettings> = async (op) => {
  const access = requireV2(op);
  const { priority, noBatch, direct } = op.settings;
  const body: Change = {
    ...(priority !== undefined ? priorityFields(priority) : {}),
    ...(noBatch !== undefined ? { allowBatching: !noBatch } : {}),
    ...(direct !== undefined ? { direct } : {}),
  };
  if (!Object.keys(body).length) {
    throw new InputError(
      'priority',
      'is empty, and so are no-batch and direct',
      'Set at least one of priority, no-batch (true or false) or direct (true or false).',
    );
  }
  const pr = await changeEntry(op, access, 'pullRequests.updateQueueEntry', body);
  return entryResult(op, pr, 'Queue entry updated');
};

/** Sends the change; when its answer is lost, reads the PR back and sends again only if it is not so. */
async function changeEntry(
  op: OperationContext<PullRequestSettings>,
  access: V2Access,
  operation: 'pullRequests.reprioritize' | 'pullRequests.updateQueueEntry',
  body: Change,
): Promise<{ pr: V2<'PullRequest'>; text: string }> {
  const { v2 } = access;
  const id = await pullRequestIdOf(op, access);
  const send = async (): Promise<{ data: V2<'PullRequest'>; response: ApiResponse }> =>
    operation === 'pullRequests.reprioritize'
      ? v2.call(operation, { path: { id }, body: body as V2<'ReprioritizeRequest'> })
      : v2.call(operation, { path: { id }, body });
  const sent = await writeOnce(send, {
    name: operation,
    log: (line) => op.log.info(line),
    wasDone: async () => hasChange((await v2.call('pullRequests.get', { path: { id } })).data, body),
  });
  if (sent) return { pr: sent.data, text: rawResponse(sent.response) };
  const { data, response } = await v2.call('pullRequests.get', { path: { id } });
  return { pr: data, text: rawResponse(response) };
}

function hasChange(pr: V2<'PullRequest'>, change: Change): boolean {
  const entry = pr.queueEntry;
  if (!entry) return false;
  if (change.priorityValue !== undefined && entry.priorityValue !== change.priorityValue) return false;
  if (change.priorityName !== undefined && entry.priorityName !== change.priorityName) return false;
  if (change.allowBatching !== undefined && entry.allowBatching !== change.allowBatching) return false;
  return change.direct === undefined || entry.direct === change.direct;
}

function priorityWords(pr: V2<'PullRequest'>): string {
  const entry = pr.queueEntry;
  const name = entry?.priorityName ?? '';
  const value = entry?.priorityValue;
  if (name && value !== undefined) return `${name} (${value})`;
  return name || (value !== undefined ? String(value) : 'the default');
}

function entryResult(
  op: OperationContext<PullRequestSettings>,
  { pr, text }: { pr: V2<'PullRequest'>; text: string },
  outcome: string,
): OperationResult {
  const number = requirePrNumber(op.context);
  const entry = pr.queueEntry;
  const heading = `⚙️ ${escapeMarkdown(outcome)}: ${link(`#${number}`, pullRequestUrl(op.context.repo, number))} → ${codeSpan(op.context.targetBranch ?? '')}`;
  const facts: [string, unknown][] = [
    ['State', stateWords(entry?.state) || 'not in a queue'],
    ['Priority', priorityWords(pr)],
    ['Skips the line', entry?.skipsTheLine ? 'yes' : 'no'],
    ['Batching', entry?.allowBatching === false ? 'tested alone' : 'allowed'],
    ['Direct to queue', entry?.direct ? 'yes' : 'no'],
  ];
  return {
    outputs: {
      response: text,
      state: stateOutputOf(entry?.state),
      'priority-name': entry?.priorityName ?? '',
      'priority-value': entry?.priorityValue ?? '',
      'skips-the-line': entry?.skipsTheLine === true,
      'allow-batching': entry?.allowBatching !== false,
      direct: entry?.direct === true,
    },
    summary: new Markdown().headingMarkdown(heading).factsAcross(facts),
  };
}

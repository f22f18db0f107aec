// The webhook payloads the merge queue sends, made from the engine's history as the spec shapes them:
// `pull_request.*` for each PR's transitions, `pull_request_batch.*` for runs testing several PRs.
import { REASON_FIELDS, type MergeQueueAction } from '../../src/wire/index.js';
import type { EngineCore } from './engine/core.js';
import { UNKNOWN, type HistoryEvent, type QueueRecord, type TestRun } from './engine/types.js';

export type WebhookPayload = { type: string } & Record<string, unknown>;

/** The event a PR's new state announces; `tests_passed` and `not_ready` announce none. */
const ACTION_BY_STATE: Partial<Record<string, MergeQueueAction>> = {
  pending: 'queued',
  testing: 'testing',
  pending_failure: 'pending_failure',
  failed: 'failed',
  merged: 'merged',
  cancelled: 'canceled',
};

const BATCH_ACTION_BY_RUN_STATUS: Partial<Record<string, MergeQueueAction>> = {
  in_progress: 'testing',
  failed: 'failed',
  cancelled: 'canceled',
};

const WITH_TEST_FIELDS: ReadonlySet<MergeQueueAction> = new Set([
  'testing',
  'pending_failure',
  'failed',
  'merged',
  'canceled',
]);
const WITH_BISECTION_FLAG: ReadonlySet<MergeQueueAction> = new Set(['testing', 'failed', 'canceled']);

export class MergeQueueWebhooks {
  /** Batch runs whose `pull_request_batch.merged` was sent. */
  private readonly mergedBatches = new Set<string>();

  constructor(private readonly core: EngineCore) {}

  payloadsFor(event: HistoryEvent): WebhookPayload[] {
    const queue = this.core.queues.get(event.queueKey);
    if (!queue) return [];
    const timestamp = new Date(event.at).toISOString();
    if (event.kind === 'run') {
      const run = queue.runs.get(event.runId);
      const action = BATCH_ACTION_BY_RUN_STATUS[event.status];
      if (!run || !action || run.tested.length < 2) return [];
      return [batchPayload(queue, run, action, event.reason, timestamp)];
    }
    const action = event.from === null ? 'submitted' : ACTION_BY_STATE[event.to];
    if (!action) return [];
    const run = event.runId ? queue.runs.get(event.runId) : undefined;
    const info = this.core.pullRequest(queue.repo, event.prNumber);
    const payloads: WebhookPayload[] = [
      {
        ...(run && WITH_TEST_FIELDS.has(action) ? testFields(run) : {}),
        ...reasonField(action, event.reason),
        ...(WITH_BISECTION_FLAG.has(action) ? { is_bisection: run?.kind === 'bisection' } : {}),
        type: `pull_request.${action}`,
        action,
        author: info.author ?? UNKNOWN,
        http_details_url: detailsUrl(queue, event.prNumber),
        pr_number: event.prNumber,
        repository: { ...queue.repo },
        status: action,
        target_branch: queue.branch,
        timestamp,
      },
    ];
    if (action === 'merged' && run && this.lastOfBatchMerged(run)) {
      payloads.push(batchPayload(queue, run, 'merged', event.reason, timestamp));
    }
    return payloads;
  }

  /** True once, when the last PR tested in a batch run that is still going to conclude has concluded. */
  private lastOfBatchMerged(run: TestRun): boolean {
    if (run.tested.length < 2 || this.mergedBatches.has(run.id)) return false;
    if (run.tested.some((s) => s.run === run && s.concludedAt === null)) return false;
    this.mergedBatches.add(run.id);
    return true;
  }
}

function batchPayload(
  queue: QueueRecord,
  run: TestRun,
  action: MergeQueueAction,
  reason: string | null,
  timestamp: string,
): WebhookPayload {
  const prNumbers =
    action === 'merged'
      ? run.tested.filter((s) => s.state === 'merged' && s.run === run).map((s) => s.prNumber)
      : run.tested.map((s) => s.prNumber);
  return {
    test_branch: run.branch,
    test_branch_sha: run.sha,
    ...reasonField(action, reason),
    ...(WITH_BISECTION_FLAG.has(action) ? { is_bisection: run.kind === 'bisection' } : {}),
    type: `pull_request_batch.${action}`,
    action,
    pr_numbers: prNumbers,
    pr_numbers_in_batch: run.tested.map((s) => s.prNumber),
    repository: { ...queue.repo },
    status: action,
    target_branch: queue.branch,
    timestamp,
  };
}

/** The action's reason field, when it has one and the reason is one of its values. */
function reasonField(action: MergeQueueAction, reason: string | null): Record<string, string> {
  const described = REASON_FIELDS[action];
  if (!described || reason === null || !(described.values as readonly string[]).includes(reason)) return {};
  return { [described.field]: reason };
}

function testFields(run: TestRun) {
  return { test_branch: run.branch, test_branch_sha: run.sha, batched: run.tested.length > 1 };
}

function detailsUrl(queue: QueueRecord, prNumber: number): string {
  const { host, owner, name } = queue.repo;
  return `https://merge-queue.emulator.invalid/${host}/${owner}/${name}/${encodeURIComponent(queue.branch)}/pr/${prNumber}`;
}

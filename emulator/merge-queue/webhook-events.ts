// The webhook payloads the merge queue sends, made from the engine's history as the spec shapes them:
// `pull_request.*` for each PR's transitions, `pull_request_batch.*` for runs testing several PRs. A batch
// is submitted, queued and tested as its run starts; its failure is first a pending failure (the run
// failed), and becomes `failed` when the pending failure settles and bisection starts.
import { REASON_FIELDS, type MergeQueueAction } from '../../src/wire/index.js';
import {
  type EngineCore,
  REASONS,
  UNKNOWN,
  type HistoryEvent,
  type QueueRecord,
  type TestRun,
} from '../../src/queue-model/index.js';

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

/** The batch events a run's history event announces: a main run's failure is a pending failure. */
function batchActionsOf(run: TestRun, status: string): MergeQueueAction[] {
  const main = run.kind === 'main';
  if (status === 'in_progress') return main ? ['submitted', 'queued', 'testing'] : ['testing'];
  if (status === 'failed') return [main ? 'pending_failure' : 'failed'];
  if (status === 'cancelled') return ['canceled'];
  return [];
}

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
  /** Batch runs whose pending failure settled into `pull_request_batch.failed`. */
  private readonly failedBatches = new Set<string>();

  constructor(private readonly core: EngineCore) {}

  payloadsFor(event: HistoryEvent): WebhookPayload[] {
    const queue = this.core.queues.get(event.queueKey);
    if (!queue) return [];
    const timestamp = new Date(event.at).toISOString();
    if (event.kind === 'run') {
      const run = queue.runs.get(event.runId);
      if (!run || run.tested.length < 2) return [];
      return batchActionsOf(run, event.status).map((action) =>
        batchPayload(queue, run, action, batchReason(action, event.reason), timestamp),
      );
    }
    const action = event.from === null ? 'submitted' : ACTION_BY_STATE[event.to];
    if (!action) return [];
    const run = event.runId ? queue.runs.get(event.runId) : undefined;
    const info = this.core.pullRequest(queue.repo, event.prNumber);
    const payloads: WebhookPayload[] = [];
    if (run && this.batchFailureSettled(run, event)) {
      payloads.push(batchPayload(queue, run, 'failed', run.reason, timestamp));
    }
    payloads.push({
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
    });
    if (action === 'merged' && run && this.lastOfBatchMerged(run)) {
      payloads.push(batchPayload(queue, run, 'merged', event.reason, timestamp));
    }
    return payloads;
  }

  /** True once, as the first PR of a failed batch leaves its pending failure for bisection. */
  private batchFailureSettled(run: TestRun, event: HistoryEvent & { kind: 'pr_state' }): boolean {
    if (run.kind !== 'main' || run.tested.length < 2 || this.failedBatches.has(run.id)) return false;
    if (event.from !== 'pending_failure' || event.reason !== REASONS.bisectionRequired) return false;
    this.failedBatches.add(run.id);
    return true;
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
    ...testPrNumber(run),
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
  return {
    test_branch: run.branch,
    test_branch_sha: run.sha,
    ...testPrNumber(run),
    batched: run.tested.length > 1,
  };
}

function testPrNumber(run: TestRun) {
  return run.testPrNumber === null ? {} : { test_pr_number: run.testPrNumber };
}

/** A batch is submitted by the API's submissions and queued as it becomes ready to test. */
function batchReason(action: MergeQueueAction, reason: string | null): string | null {
  if (action === 'submitted') return REASONS.submittedByApi;
  if (action === 'queued') return REASONS.nowReady;
  return reason;
}

function detailsUrl(queue: QueueRecord, prNumber: number): string {
  const { host, owner, name } = queue.repo;
  return `https://merge-queue.emulator.invalid/${host}/${owner}/${name}/${encodeURIComponent(queue.branch)}/pr/${prNumber}`;
}

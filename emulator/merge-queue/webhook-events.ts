// The webhook payloads the merge queue sends, made from the engine's history: `pull_request.*` for each
// PR's transitions and `pull_request_batch.*` for runs testing several PRs at once.
import type { EngineCore } from './engine/core.js';
import type { HistoryEvent, QueueRecord, TestRun } from './engine/types.js';

export type WebhookPayload = { type: string; timestamp: string } & Record<string, unknown>;

const PR_EVENT_BY_STATE: Partial<Record<string, { type: string; reasonField?: string }>> = {
  pending: { type: 'queued', reasonField: 'queued_reason' },
  testing: { type: 'testing' },
  pending_failure: { type: 'pending_failure', reasonField: 'failure_reason' },
  failed: { type: 'failed', reasonField: 'failure_reason' },
  merged: { type: 'merged', reasonField: 'merged_reason' },
  cancelled: { type: 'canceled', reasonField: 'cancellation_reason' },
};

const BATCH_EVENT_BY_STATUS = {
  in_progress: 'testing',
  succeeded: 'tests_passed',
  failed: 'failed',
  cancelled: 'canceled',
} as const;

const DEFAULT_REASONS: Record<string, string> = {
  submitted: 'API',
  queued: 'READY',
  merged: 'TESTS_PASSED',
};

export function webhookPayloadsFor(core: EngineCore, event: HistoryEvent): WebhookPayload[] {
  const queue = core.queues.get(event.queueKey);
  if (!queue) return [];
  const timestamp = new Date(event.at).toISOString();
  if (event.kind === 'run') {
    const run = queue.runs.get(event.runId);
    if (!run || run.tested.length < 2) return [];
    return [
      {
        type: `pull_request_batch.${BATCH_EVENT_BY_STATUS[event.status]}`,
        timestamp,
        pr_numbers: run.tested.map((s) => s.prNumber),
        repository: { ...queue.repo },
        target_branch: queue.branch,
        ...(event.reason ? { failure_reason: event.reason } : {}),
        ...testFields(run),
      },
    ];
  }
  const described =
    event.from === null
      ? { type: 'submitted', reasonField: 'submitted_reason' }
      : PR_EVENT_BY_STATE[event.to];
  if (!described) return [];
  const submission = queue.latestByPr.get(event.prNumber);
  const info = core.pullRequest(queue.repo, event.prNumber);
  const run = event.runId ? queue.runs.get(event.runId) : undefined;
  return [
    {
      type: `pull_request.${described.type}`,
      timestamp,
      pr_number: event.prNumber,
      repository: { ...queue.repo },
      target_branch: queue.branch,
      author: info.author,
      http_details_url: detailsUrl(queue, event.prNumber),
      ...(described.reasonField
        ? { [described.reasonField]: event.reason ?? DEFAULT_REASONS[described.type] ?? null }
        : {}),
      ...(submission ? { priority_value: submission.priorityValue } : {}),
      ...(run && event.to === 'testing' ? testFields(run) : {}),
    },
  ];
}

function testFields(run: TestRun) {
  return {
    test_branch: run.branch,
    test_branch_sha: run.sha,
    test_pr_number: null,
    batched: run.tested.length > 1,
    is_bisection: run.kind === 'bisection',
  };
}

function detailsUrl(queue: QueueRecord, prNumber: number): string {
  const { host, owner, name } = queue.repo;
  return `https://merge-queue.emulator.invalid/${host}/${owner}/${name}/${encodeURIComponent(queue.branch)}/pr/${prNumber}`;
}

// The webhook payloads the service sends, per event type (the payload's `type`): merge-queue events per
// pull request and per batch, and flaky-tests events per test case. Built from the spec's own shapes.
import { Type, type Static, type TObject, type TProperties } from '@sinclair/typebox';
import { DateTime, exactEnum, NullableString, Uri } from './common.js';
import {
  CANCELLATION_REASONS,
  FAILURE_REASONS,
  MERGE_QUEUE_ACTIONS,
  MERGED_REASONS,
  QUARANTINE_OVERRIDES,
  QUEUED_REASONS,
  SUBMITTED_REASONS,
  TEST_HEALTH,
  type MergeQueueAction,
} from './enums.js';
import { FailingTest, TestStatus } from './flaky-tests.js';

export const WebhookRepository = Type.Object({
  host: Type.String(),
  owner: Type.String(),
  name: Type.String(),
});

const PrNumber = Type.Integer({ minimum: 0 });

/** The reason field each action carries, with its values. */
export const REASON_FIELDS = {
  submitted: { field: 'submitted_reason', values: SUBMITTED_REASONS },
  queued: { field: 'queued_reason', values: QUEUED_REASONS },
  testing: undefined,
  pending_failure: { field: 'failure_reason', values: FAILURE_REASONS },
  failed: { field: 'failure_reason', values: FAILURE_REASONS },
  merged: { field: 'merged_reason', values: MERGED_REASONS },
  canceled: { field: 'cancellation_reason', values: CANCELLATION_REASONS },
} as const satisfies Record<MergeQueueAction, { field: string; values: readonly string[] } | undefined>;

/** Actions that happen to a test run: their payloads say where it ran. */
const TESTED_ACTIONS: ReadonlySet<MergeQueueAction> = new Set([
  'testing',
  'pending_failure',
  'failed',
  'merged',
  'canceled',
]);
/** Actions whose payloads must say whether the run was a bisection. */
const BISECTION_ACTIONS: ReadonlySet<MergeQueueAction> = new Set(['testing', 'failed', 'canceled']);

function reasonProperty(action: MergeQueueAction): TProperties {
  const reason = REASON_FIELDS[action];
  return reason ? { [reason.field]: Type.Optional(exactEnum(reason.values)) } : {};
}

function pullRequestEvent(action: MergeQueueAction): TObject {
  const tested = TESTED_ACTIONS.has(action);
  const bisection = BISECTION_ACTIONS.has(action);
  return Type.Object({
    ...(tested
      ? {
          test_branch: Type.Optional(Type.String()),
          test_branch_sha: Type.Optional(Type.String()),
          test_pr_number: Type.Optional(PrNumber),
          batched: Type.Optional(Type.Boolean()),
        }
      : {}),
    ...reasonProperty(action),
    ...(bisection ? { is_bisection: Type.Boolean() } : {}),
    type: Type.Literal(`pull_request.${action}`),
    action: Type.Literal(action),
    author: Type.String(),
    http_details_url: Uri,
    pr_number: PrNumber,
    repository: WebhookRepository,
    status: Type.Literal(action),
    target_branch: Type.String(),
    timestamp: DateTime,
  });
}

function batchEvent(action: MergeQueueAction): TObject {
  const bisection = BISECTION_ACTIONS.has(action);
  return Type.Object({
    test_branch: Type.String(),
    test_branch_sha: Type.String(),
    test_pr_number: Type.Optional(PrNumber),
    ...reasonProperty(action),
    ...(bisection ? { is_bisection: Type.Boolean() } : {}),
    type: Type.Literal(`pull_request_batch.${action}`),
    action: Type.Literal(action),
    pr_numbers: Type.Array(PrNumber),
    /** Every PR tested together; a superset of pr_numbers when some of the batch did not get there. */
    pr_numbers_in_batch: Type.Optional(Type.Array(PrNumber)),
    repository: WebhookRepository,
    status: Type.Literal(action),
    target_branch: Type.String(),
    timestamp: DateTime,
  });
}

/** A test case as the flaky-tests webhooks send it: get-test-details' test, plus a deprecated field. */
export const WebhookTestCase = Type.Composite([
  FailingTest,
  Type.Object({ test_suite: Type.Optional(Type.String()) }),
]);

export const TestCaseStatusChanged = Type.Object({
  type: Type.Literal('test_case.status_changed'),
  test_case: WebhookTestCase,
  status_change: Type.Object({
    previous_status: exactEnum(TEST_HEALTH),
    current_status: TestStatus,
  }),
});
export type TestCaseStatusChanged = Static<typeof TestCaseStatusChanged>;

export const TestCaseQuarantiningSettingChanged = Type.Object({
  type: Type.Literal('test_case.quarantining_setting_changed'),
  test_case: WebhookTestCase,
  quarantine_setting_changed: Type.Object({
    actor: Type.Object({ full_name: Type.String(), email: Type.String() }),
    reason: NullableString,
    timestamp: DateTime,
    previous_quarantining_setting: exactEnum(QUARANTINE_OVERRIDES),
    updated_quarantining_setting: exactEnum(QUARANTINE_OVERRIDES),
  }),
});
export type TestCaseQuarantiningSettingChanged = Static<typeof TestCaseQuarantiningSettingChanged>;

/** Every webhook event the service sends, by its type. */
export const WEBHOOK_EVENTS: Readonly<Record<string, TObject>> = {
  ...Object.fromEntries(MERGE_QUEUE_ACTIONS.map((a) => [`pull_request.${a}`, pullRequestEvent(a)])),
  ...Object.fromEntries(MERGE_QUEUE_ACTIONS.map((a) => [`pull_request_batch.${a}`, batchEvent(a)])),
  'test_case.status_changed': TestCaseStatusChanged,
  'test_case.quarantining_setting_changed': TestCaseQuarantiningSettingChanged,
};
export type WebhookEventType = keyof typeof WEBHOOK_EVENTS;

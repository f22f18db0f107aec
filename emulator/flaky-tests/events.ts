// The `test_case.*` webhook events of the flaky-tests store, shaped as the spec's: what changed about one
// test case, with the test as get-test-details shows it after the change. The store hands them to its
// listener; the server publishes them through the webhook dispatcher.
import type {
  FailingTest,
  QuarantineOverride,
  TestCaseQuarantiningSettingChanged,
  TestCaseStatusChanged,
  TestHealth,
} from '../../src/wire/index.js';

/** Who changed a quarantine setting. */
export interface Actor {
  email: string;
  full_name: string;
}

export type TestCaseEvent = TestCaseStatusChanged | TestCaseQuarantiningSettingChanged;

/** The part of a test case whose changes are announced. */
export interface TestCaseState {
  status: TestHealth;
  quarantineOverride: QuarantineOverride;
}

export interface ChangeContext {
  /** Virtual time of the change, ISO 8601. */
  timestamp: string;
  actor: Actor;
  reason: string;
}

/** The events for one test case going from `before` to `after`: its status first, then its setting. */
export function testCaseEvents(
  before: TestCaseState,
  after: TestCaseState,
  testCase: FailingTest,
  context: ChangeContext,
): TestCaseEvent[] {
  const { timestamp } = context;
  const events: TestCaseEvent[] = [];
  if (before.status !== after.status) {
    events.push({
      type: 'test_case.status_changed',
      test_case: testCase,
      status_change: { previous_status: before.status, current_status: testCase.status },
    });
  }
  if (before.quarantineOverride !== after.quarantineOverride) {
    events.push({
      type: 'test_case.quarantining_setting_changed',
      test_case: testCase,
      quarantine_setting_changed: {
        actor: context.actor,
        reason: context.reason,
        timestamp,
        previous_quarantining_setting: before.quarantineOverride,
        updated_quarantining_setting: after.quarantineOverride,
      },
    });
  }
  return events;
}

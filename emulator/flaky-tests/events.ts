// The `test_case.*` webhook events of the flaky-tests store: what changed about one test case, with the
// test as get-test-details shows it after the change. The store hands them to its listener; the server
// publishes them through the webhook dispatcher.
import type { FailingTest } from '../../src/wire/index.js';
import type { QuarantineOverride, TestStatus } from './fixture.js';

/** Who changed a quarantine setting. */
export interface Actor {
  email: string;
  full_name: string;
}

export type TestCaseStatusChanged = {
  type: 'test_case.status_changed';
  timestamp: string;
  test_case: FailingTest;
  status_change: { previous_status: TestStatus; current_status: TestStatus };
};

export type TestCaseQuarantiningSettingChanged = {
  type: 'test_case.quarantining_setting_changed';
  timestamp: string;
  test_case: FailingTest;
  quarantine_setting_changed: {
    actor: Actor;
    reason: string;
    timestamp: string;
    previous_quarantining_setting: QuarantineOverride;
    updated_quarantining_setting: QuarantineOverride;
  };
};

export type TestCaseEvent = TestCaseStatusChanged | TestCaseQuarantiningSettingChanged;

/** The part of a test case whose changes are announced. */
export interface TestCaseState {
  status: TestStatus;
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
      timestamp,
      test_case: testCase,
      status_change: { previous_status: before.status, current_status: after.status },
    });
  }
  if (before.quarantineOverride !== after.quarantineOverride) {
    events.push({
      type: 'test_case.quarantining_setting_changed',
      timestamp,
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

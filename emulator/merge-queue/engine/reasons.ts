// The reasons the emulator gives for a PR's state, as `reason` in history and webhooks.
export const REASONS = {
  testRunFailed: 'TEST_RUN_FAILED',
  testRunTimeout: 'TEST_RUN_TIMEOUT',
  prerequisiteFailed: 'PREREQUISITE_MERGE_ITEM_FAILED',
  prerequisiteCancelled: 'PREREQUISITE_MERGE_ITEM_CANCELLED',
  skipTheLineInterrupted: 'SKIP_THE_LINE_INTERRUPTED',
  restartedByUser: 'RESTARTED_BY_USER',
  cancelledByUser: 'CANCELLED_BY_USER',
  batchBisecting: 'BATCH_FAILED_BISECTING',
  headShaChanged: 'HEAD_SHA_CHANGED',
  optimisticMerge: 'OPTIMISTIC_MERGE',
  notReady: 'NOT_READY',
} as const;

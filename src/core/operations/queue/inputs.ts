// Inputs of the queue operations: the settings to create a queue with or change, and what to do when it
// exists already.
import {
  DIRECT_MERGE_MODES,
  MERGE_METHODS,
  OPTIMIZATION_MODES,
  PR_STATES,
  QUEUE_MODES,
  SETTABLE_QUEUE_STATES,
  type PrState,
  type QueueMode,
  type QueueSettings,
} from '../../../wire/index.js';
import { InputError } from '../../errors.js';
import type { Inputs, InputSpec } from '../../inputs.js';
import { readReason } from '../reason.js';

export const IF_EXISTS_VALUES = ['fail', 'update', 'skip'] as const;
export type IfExists = (typeof IF_EXISTS_VALUES)[number];

export interface QueueAdminSettings {
  mode?: QueueMode;
  concurrency?: number;
  ifExists: IfExists;
  /** Why, as the person gave it (never sent: the service takes no reason). */
  reason?: string;
  /** The settings to send to updateQueue: only those given, plus the `settings` JSON as given. */
  update: QueueSettings & Record<string, unknown>;
}

export interface ListPullRequestsSettings {
  state?: PrState;
  since?: string;
  until?: string;
  take: number;
  maxPages: number;
}

export const QUEUE_SETTING_INPUTS = {
  'testing-timeout-minutes': 'testingTimeoutMinutes',
  'pending-failure-depth': 'pendingFailureDepth',
  'batching-max-wait-time-minutes': 'batchingMaxWaitTimeMinutes',
  'batching-min-size': 'batchingMinSize',
  'bisection-concurrency': 'bisectionConcurrency',
} as const;

export const QUEUE_BOOLEAN_INPUTS = {
  'can-optimistically-merge': 'canOptimisticallyMerge',
  batch: 'batch',
  'delete-required-statuses': 'deleteRequiredStatuses',
  'comments-enabled': 'commentsEnabled',
  'commands-enabled': 'commandsEnabled',
  'status-check-enabled': 'statusCheckEnabled',
  'create-prs-for-testing-branches': 'createPrsForTestingBranches',
} as const;

const SETTING_DESCRIPTIONS: Record<string, string> = {
  'testing-timeout-minutes': 'A test run taking longer fails.',
  'pending-failure-depth': 'How many PRs behind a failed one must finish before it is evicted.',
  'batching-max-wait-time-minutes': 'How long a batch waits to fill up.',
  'batching-min-size': 'The size at which a batch starts without waiting.',
  'bisection-concurrency': 'Parallel test runs when bisecting a failed batch.',
  'can-optimistically-merge': 'A later passing PR also passes the PRs ahead of it.',
  batch: 'Test PRs in batches.',
  'delete-required-statuses': 'True to revert required statuses to the default.',
  'comments-enabled': 'The service comments on PRs.',
  'commands-enabled': 'PR comment commands are accepted.',
  'status-check-enabled': 'The service posts a status check.',
  'create-prs-for-testing-branches': 'Open draft PRs for test branches.',
};

/** The settings both create-queue (with if-exists: update) and update-queue send. */
export const QUEUE_SETTINGS_INPUTS: readonly InputSpec[] = [
  { name: 'mode', values: QUEUE_MODES, description: 'single or parallel.' },
  { name: 'concurrency', description: 'How many PRs (or batches) test at once; a whole number >= 1.' },
  ...Object.keys(QUEUE_SETTING_INPUTS).map((name) => ({
    name,
    description: SETTING_DESCRIPTIONS[name] ?? name,
  })),
  ...Object.keys(QUEUE_BOOLEAN_INPUTS).map((name) => ({
    name,
    boolean: true as const,
    description: SETTING_DESCRIPTIONS[name] ?? name,
  })),
  { name: 'merge-method', values: MERGE_METHODS, description: 'merge_commit, squash or rebase.' },
  { name: 'direct-merge-mode', values: DIRECT_MERGE_MODES, description: 'off or always.' },
  {
    name: 'optimization-mode',
    values: OPTIMIZATION_MODES,
    description: 'off or bisection_skip_redundant_tests.',
  },
  { name: 'required-statuses', description: 'The statuses a test run needs, comma- or newline-separated.' },
  {
    name: 'settings',
    description:
      'A JSON object of any queue settings, including ones this version does not know, sent as given.',
  },
];

export const IF_EXISTS_INPUT: InputSpec = {
  name: 'if-exists',
  values: IF_EXISTS_VALUES,
  default: 'fail',
  description: 'When the queue exists - fail, update (apply the settings given) or skip.',
};

export const QUEUE_STATE_INPUT: InputSpec = {
  name: 'state',
  values: SETTABLE_QUEUE_STATES,
  description: 'running, paused or draining.',
};

export const LIST_PULL_REQUESTS_INPUTS: readonly InputSpec[] = [
  { name: 'state', values: PR_STATES, description: `Only PRs in this state (${PR_STATES.join(', ')}).` },
  { name: 'since', description: 'Only PRs that concluded at or after this date-time (ISO 8601).' },
  { name: 'until', description: 'Only PRs that concluded before this date-time (ISO 8601).' },
  { name: 'take', default: '100', description: 'Rows per page, 1 to 100.' },
  { name: 'max-pages', default: '100', description: 'Stop with an error after this many pages.' },
];

export function readListPullRequestsSettings(input: Inputs): ListPullRequestsSettings {
  return {
    state: input.choice('state', PR_STATES),
    since: input.dateTime('since'),
    until: input.dateTime('until'),
    take: input.integer('take', { min: 1, max: 100, fallback: 100 }),
    maxPages: input.integer('max-pages', { min: 1, max: 10_000, fallback: 100 }),
  };
}

export function readQueueAdminSettings(input: Inputs, operation: string): QueueAdminSettings {
  const update: QueueSettings & Record<string, unknown> = {};
  const mode = input.choice('mode', QUEUE_MODES);
  const concurrency = input.optionalInteger('concurrency', { min: 1, max: 4294967295 });
  const state = input.choice('state', SETTABLE_QUEUE_STATES, {
    extraAdvice: {
      switching_modes:
        'switching_modes is set by the service while a mode change waits; set running, paused or draining.',
    },
  });
  if (state) update.state = state;
  if (mode) update.mode = mode;
  if (concurrency !== undefined) update.concurrency = concurrency;
  for (const [name, field] of Object.entries(QUEUE_SETTING_INPUTS)) {
    const value = input.optionalInteger(name, { min: 1, max: 4294967295 });
    if (value !== undefined) update[field] = value;
  }
  for (const [name, field] of Object.entries(QUEUE_BOOLEAN_INPUTS)) {
    const value = input.boolean(name);
    if (value !== undefined) update[field] = value;
  }
  const mergeMethod = input.choice('merge-method', MERGE_METHODS);
  if (mergeMethod) update.mergeMethod = mergeMethod;
  const directMergeMode = input.choice('direct-merge-mode', DIRECT_MERGE_MODES);
  if (directMergeMode) update.directMergeMode = directMergeMode;
  const optimizationMode = input.choice('optimization-mode', OPTIMIZATION_MODES);
  if (optimizationMode) update.optimizationMode = optimizationMode;
  const requiredStatuses = input.list('required-statuses');
  if (requiredStatuses.length) update.requiredStatuses = requiredStatuses;
  Object.assign(update, input.jsonObject('settings'));
  if (operation === 'update-queue' && Object.keys(update).length === 0) {
    throw new InputError(
      'settings',
      'is empty, and so is every other queue setting, so update-queue has nothing to send',
      'Set at least one setting (state, mode, concurrency, batch, ... see the README), or settings as a JSON object.',
    );
  }
  return {
    mode,
    concurrency,
    ifExists: input.choice('if-exists', IF_EXISTS_VALUES) ?? 'fail',
    reason: readReason(input),
    update,
  };
}

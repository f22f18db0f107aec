// Inputs of the pull-request operations.
import { LOWEST_PRIORITY, PRIORITY_NAMES, type PriorityName } from '../../../wire/index.js';
import { readReason } from '../reason.js';
import { InputError } from '../../errors.js';
import { quoted, type Inputs, type InputSpec } from '../../inputs.js';

export const WAIT_FOR_VALUES = ['merged', 'tests_passed'] as const;
export type WaitFor = (typeof WAIT_FOR_VALUES)[number];
export const NOTIFY_ON_VALUES = ['failure', 'always', 'never'] as const;
export type NotifyOn = (typeof NOTIFY_ON_VALUES)[number];

export interface PullRequestSettings {
  /** The priority to send, as given: a name or a number. */
  priority?: PriorityName | number;
  noBatch?: boolean;
  /** Direct to queue (v2): merge without the queue's testing when the PR is already known good. */
  direct?: boolean;
  testRunId?: string;
  waitFor?: WaitFor;
  waitTimeoutMs: number;
  pollIntervalMs: number;
  progressIntervalMs: number;
  notifyOn: NotifyOn;
  notifyWebhookUrl?: string;
  notifyPrComment: boolean;
  /** Why, as the person gave it (never sent: the service takes no reason). */
  reason?: string;
}

export const PRIORITY_INPUTS: readonly InputSpec[] = [
  {
    name: 'priority',
    description:
      "Urgent, high, medium or low, or a number 0 (highest) to 255 (lowest). Only urgent interrupts PRs already testing. Default - the service's (medium).",
  },
  { name: 'no-batch', boolean: true, description: 'True to test this PR alone, never in a batch.' },
];

export const DIRECT_INPUT: InputSpec = {
  name: 'direct',
  boolean: true,
  description:
    "True to send the PR direct to the queue (v2's direct: the queue may merge it without testing it again). Needs api-version v2 and a key with the permission Merge PRs with direct to queue.",
};

export const WAIT_INPUTS: readonly InputSpec[] = [
  {
    name: 'wait-for',
    values: WAIT_FOR_VALUES,
    description:
      'Wait until the PR is merged or tests-passed. A PR that fails or is cancelled fails the step.',
  },
  {
    name: 'wait-timeout-minutes',
    default: '60',
    description: 'With wait-for, give up (and fail) after this many minutes.',
  },
  {
    name: 'poll-interval-seconds',
    default: '15',
    description: 'With wait-for, seconds between looks at the PR.',
  },
  {
    name: 'progress-interval-seconds',
    default: '60',
    description:
      'With wait-for, log a progress line at least this often (state, place in line, queue state, time waited, an estimate of the time left); a line is logged on every change too.',
  },
];

export const NOTIFY_INPUTS: readonly InputSpec[] = [
  {
    name: 'notify-on',
    values: NOTIFY_ON_VALUES,
    description:
      'With wait-for, when to notify at the end of the wait - failure (the PR failed, was cancelled or the wait ran out), always, or never. Default - failure when notify-webhook-url or notify-pr-comment is set, else never. The Slack Block Kit payload is in output notification.',
  },
  {
    name: 'notify-webhook-url',
    secret: true,
    description:
      'A Slack or Teams incoming-webhook URL (pass it from a secret) to POST the notification to, with retries.',
  },
  {
    name: 'notify-pr-comment',
    boolean: true,
    description:
      'True to keep one comment on the PR up to date (created, then updated in place) with the outcome, the reason, the failing checks and the next step. Needs github-token with write access to pull requests; GitHub Actions only.',
  },
];

export const TEST_RUN_ID_INPUT: InputSpec = {
  name: 'test-run-id',
  description:
    'The test run id. Default - the ID of the merge-queue test branch (trunk-merge/pr-N/ID) this run is on.',
};

export function readPullRequestSettings(input: Inputs): PullRequestSettings {
  const waitFor = input.choice('wait-for', WAIT_FOR_VALUES);
  return {
    priority: readPriority(input),
    noBatch: input.boolean('no-batch'),
    direct: input.boolean('direct'),
    testRunId: input.id('test-run-id', 'verificationRun'),
    waitFor,
    waitTimeoutMs: input.number('wait-timeout-minutes', { min: 0.05, max: 24 * 60, fallback: 60 }) * 60_000,
    pollIntervalMs: input.number('poll-interval-seconds', { min: 1, max: 3600, fallback: 15 }) * 1000,
    ...readNotifySettings(input),
    progressIntervalMs: input.number('progress-interval-seconds', { min: 1, max: 3600, fallback: 60 }) * 1000,
    reason: readReason(input),
  };
}

function readNotifySettings(
  input: Inputs,
): Pick<PullRequestSettings, 'notifyOn' | 'notifyWebhookUrl' | 'notifyPrComment'> {
  const notifyWebhookUrl = input.secret('notify-webhook-url');
  if (notifyWebhookUrl) checkWebhookUrl(notifyWebhookUrl);
  const notifyPrComment = input.boolean('notify-pr-comment') ?? false;
  const hasTarget = notifyWebhookUrl !== undefined || notifyPrComment;
  const notifyOn = input.choice('notify-on', NOTIFY_ON_VALUES) ?? (hasTarget ? 'failure' : 'never');
  return { notifyOn, notifyWebhookUrl, notifyPrComment };
}

/** The URL is a secret: the message never repeats it. */
function checkWebhookUrl(given: string): void {
  let url: URL | undefined;
  try {
    url = new URL(given);
  } catch {
    url = undefined;
  }
  const loopback = url !== undefined && /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/.test(url.hostname);
  if (!url || !(url.protocol === 'https:' || (url.protocol === 'http:' && loopback))) {
    throw new InputError(
      'notify-webhook-url',
      'is not an https URL',
      'Pass the incoming-webhook URL of Slack or Teams from a secret (https://hooks.slack.com/services/...).',
    );
  }
}

function readPriority(input: Inputs): PriorityName | number | undefined {
  const given = input.text('priority');
  if (!given) return undefined;
  const name = given.toLowerCase();
  if (Object.hasOwn(PRIORITY_NAMES, name)) return name as PriorityName;
  if (/^[0-9]+$/.test(given) && Number(given) <= LOWEST_PRIORITY) return Number(given);
  throw new InputError(
    'priority',
    `${quoted(given)} is not a priority`,
    `Use urgent, high, medium or low, or a number from 0 (highest) to ${LOWEST_PRIORITY} (lowest).`,
  );
}

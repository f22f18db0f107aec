// Reading answers' values tolerantly, without their schemas: enums in any case, unknown values and fields
// kept, legacy queue field names mapped. Plain functions, so that a client that only reads answers does
// not load the schema builder (the schemas and `tolerant(...)` are in the other modules).
import type { Queue, QueueConfiguration, SubmittedPullRequest } from './merge-queue.js';

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An enum value as we compare it: lowercase, or '' when absent. Unknown values are kept. */
export function enumValue(value: unknown): string {
  return typeof value === 'string' ? value.toLowerCase() : '';
}

const LEGACY_QUEUE_FIELDS: Record<string, keyof QueueConfiguration> = {
  testingTimeoutMins: 'testingTimeoutMinutes',
  isBatching: 'batch',
  batchingMaxWaitTimeMins: 'batchingMaxWaitTimeMinutes',
};

/** A queue as the service returned it, with legacy field names mapped and enums lowercased. */
export function readQueue(raw: unknown): Partial<Queue> & Record<string, unknown> {
  const queue: Record<string, unknown> = isObject(raw) ? { ...raw } : {};
  for (const [legacy, current] of Object.entries(LEGACY_QUEUE_FIELDS)) {
    if (queue[current] === undefined && queue[legacy] !== undefined) queue[current] = queue[legacy];
    delete queue[legacy];
  }
  for (const field of ['state', 'mode', 'mergeMethod', 'directMergeMode', 'optimizationMode']) {
    if (typeof queue[field] === 'string') queue[field] = enumValue(queue[field]);
  }
  if (Array.isArray(queue.enqueuedPullRequests)) {
    queue.enqueuedPullRequests = queue.enqueuedPullRequests.map(readPullRequest);
  }
  return queue;
}

/** A pull request entry as the service returned it, with its state lowercased. */
export function readPullRequest(raw: unknown): Partial<SubmittedPullRequest> & Record<string, unknown> {
  const pr: Record<string, unknown> = isObject(raw) ? { ...raw } : {};
  if (typeof pr.state === 'string') pr.state = enumValue(pr.state);
  return pr;
}

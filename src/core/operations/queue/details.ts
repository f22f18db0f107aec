// What the queue operations found, as data for an entry point to show (operations/details.ts gathers
// every area's kinds).
import type { readPullRequest, readQueue } from '../../../wire/index.js';

export type QueueSnapshot = ReturnType<typeof readQueue>;

/** A queue after an admin operation (or as get-queue read it). */
export interface QueueDetails {
  kind: 'queue';
  /** What the step did, in a few words: "Merge queue paused", "Merge queue". */
  action: string;
  repo: string;
  branch: string;
  /** Undefined when there is no queue or it could not be read back. */
  queue?: QueueSnapshot;
  /** The service's time of the answer, for how long each PR has been in its state. */
  nowMs: number;
  /** Settings whose value the step changed. */
  changes: { name: string; before: string; after: string }[];
  /** The service has no queue for the branch. */
  missing?: boolean;
  /** Who ran the step, as the CI names them; the service records no actor for a write. */
  by?: string;
  /** Why, as given in the reason input (not sent to the service). */
  reason?: string;
}

export interface PullRequestListDetails {
  kind: 'pull-request-list';
  branch: string;
  /** The first PRs listed. */
  pullRequests: ReturnType<typeof readPullRequest>[];
  total: number;
  complete: boolean;
  nowMs: number;
}

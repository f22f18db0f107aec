// What a write on one PR did, as data for an entry point to show (operations/details.ts gathers every
// area's kinds).

/** A write on one PR that leaves nothing else to show (cancel, restart): what was done, by whom, why. */
export interface PullRequestActionDetails {
  kind: 'pull-request-action';
  /** "Cancelled", "Restarted the tests of". */
  done: string;
  repo: string;
  branch: string;
  prNumber: number;
  /** What happens next, in one sentence. */
  next: string;
  by?: string;
  reason?: string;
}

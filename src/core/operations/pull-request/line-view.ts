// What a PR's place in its queue's line looks like to the progress lines and summaries, whichever API
// answered: v1's getQueue (line.ts) or v2's dispatch order (v2/dispatch.ts).
export interface LinePr {
  prNumber: number;
  state: string;
  priorityValue?: number;
  /** The priority's name as the service gives it (`medium`), where it does (v1's getQueue). */
  priorityName?: string;
  urgent: boolean;
  prSha?: string;
}

export interface LineView {
  queueState: string;
  concurrency?: number;
  /** 1-based; undefined when the PR is not in the line (not ready yet, or concluded). */
  position?: number;
  length: number;
  /** The PRs ahead of this one, in line order. */
  ahead: LinePr[];
  /** Over v2: what the dispatch order says of the PR (then the position is exact, not approximate). */
  dispatch?: DispatchView;
}

/** What the dispatch order says of one PR. */
export interface DispatchView {
  /** The PRs the queue takes right before this one (its lane's last, in a parallel queue). */
  directlyAhead: number[];
  /** The failed PRs whose blame the queue is still working out, which this one waits on. */
  heldBy: number[];
  /** The batch it is predicted to be tested in, counted from 1. */
  predictedBatch?: number;
  /** The run testing it now, and the PRs tested with it. */
  batch?: { runId: string; with: number[]; isBisection: boolean };
}

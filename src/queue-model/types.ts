// The queue model's data: queues, pull requests as the code host knows them, queue submissions and
// test runs. Times are virtual-clock milliseconds.
import type {
  DIRECT_MERGE_MODES,
  MERGE_METHODS,
  OPTIMIZATION_MODES,
  PrState,
  QueueMode,
  QueueState,
  Repo,
} from '../wire/index.js';

/** What a PR's change touches: a list of targets, or everything. */
export type Targets = readonly string[] | 'ALL';

export type Mergeability = 'unspecified' | 'in_progress' | 'mergeable' | 'not_mergeable';

/**
 * A pull request as the code host knows it (shared by every queue of its repository). What nobody told
 * the emulator (the control surface, a GitHub event, an impacted-targets upload) stays undefined and is
 * shown as `unknown`, never made up.
 */
export interface PullRequestInfo {
  number: number;
  title: string | undefined;
  author: string | undefined;
  headSha: string | undefined;
  /** Whether the code host told the head sha; if not, an upload for a new sha stands for its push. */
  headShaFromHost: boolean;
  /** The PR's head branch, when told (v2 resolves PRs by it). */
  headBranch: string | undefined;
  /** Undefined: the branch of whichever queue it is submitted to. */
  baseBranch: string | undefined;
  mergeability: Mergeability;
  /** The target branch's commit the PR's head is based on, when told (direct merge needs it). */
  baseSha: string | undefined;
  /** A draft: the code host refuses to test it (START_TEST_RUN_DRAFT_PRS_NOT_ALLOWED). */
  draft: boolean;
  /** It conflicts with what it is tested on top of, until its next push (START_TEST_RUN_MERGE_CONFLICT). */
  mergeConflict: boolean;
  /** Why the code host will refuse to merge it, once (GITHUB_API_MERGE_PR_FAILED, PR_UPDATED_AT_MERGE_TIME). */
  mergeRefusal: string | null;
  /** Why the code host will not merge it yet, as told (v2's mergeability reasons); empty when not told. */
  blockedBy: BlockReason[];
  /** Impacted targets uploaded per head sha. */
  targetsBySha: Map<string, Targets>;
}

/** A reason the code host gives for not merging a PR: v2's mergeability reason code and the check named. */
export interface BlockReason {
  code: (typeof BLOCK_REASON_CODES)[number];
  check?: string;
}

export const BLOCK_REASON_CODES = [
  'conflict',
  'behind',
  'draft',
  'closed',
  'pending',
  'awaitingCheck',
  'failingCheck',
  'reviewRequired',
  'changesRequested',
  'stackNeedsRebase',
  'other',
] as const;

/** How the API shows a fact about a PR that nobody gave the emulator. */
export const UNKNOWN = 'unknown';

export interface QueueSettingsState {
  concurrency: number;
  testingTimeoutMinutes: number;
  pendingFailureDepth: number;
  canOptimisticallyMerge: boolean;
  batch: boolean;
  batchingMaxWaitTimeMinutes: number;
  batchingMinSize: number;
  bisectionConcurrency: number;
  createPrsForTestingBranches: boolean;
  commentsEnabled: boolean;
  commandsEnabled: boolean;
  statusCheckEnabled: boolean;
  requiredStatuses: string[] | null;
  directMergeMode: (typeof DIRECT_MERGE_MODES)[number];
  optimizationMode: (typeof OPTIMIZATION_MODES)[number];
  mergeMethod: (typeof MERGE_METHODS)[number];
}

export interface QueueRecord {
  key: string;
  repo: Repo;
  branch: string;
  state: QueueState;
  mode: QueueMode;
  settings: QueueSettingsState;
  /** False while the bisection concurrency follows the testing concurrency (a new queue's default). */
  bisectionConcurrencySet: boolean;
  /** The target branch's tip: undefined until told, then a new commit for every merge. */
  tipSha: string | undefined;
  /** While `switching_modes`: the mode to switch to and the state to return to. */
  switchingTo?: { mode: QueueMode; state: Exclude<QueueState, 'switching_modes'> };
  /** Every submission ever made to this queue, oldest first. */
  submissions: Submission[];
  /** The latest submission per PR number. */
  latestByPr: Map<number, Submission>;
  /** Submissions not yet merged, failed or cancelled. */
  live: Set<Submission>;
  /** Runs in progress, and finished runs that still vouch for a live PR (tests_passed, pending_failure). */
  liveRuns: Set<TestRun>;
  runs: Map<string, TestRun>;
  bisections: Set<Bisection>;
  nextSeq: number;
  /** A pending batching-wait timer, so that a step is not scheduled twice for the same instant. */
  batchTimerAt?: number;
  /** Graph mode: the most PRs the line holds before ready PRs wait for admission (soft); none if unset. */
  admissionCap?: number;
  /** Graph mode: target patterns (exact, or a prefix ending in `*`) whose PRs are tested alone. */
  isolateTargets: string[];
}

export interface Submission {
  id: string;
  queue: QueueRecord;
  prNumber: number;
  /** The PR's facts: one record per PR, shared by all its submissions, never replaced. */
  info: PullRequestInfo;
  state: PrState;
  stateChangedAt: number;
  /** Why the PR is in its state, when the state has a reason (failure, restart, cancellation). */
  reason: string | null;
  priorityValue: number;
  priorityName: string;
  /** The default priority's name when the submission named none. */
  usedDefaultPriorityName: string | undefined;
  skipTheLine: boolean;
  /** Submitted `direct`: it enters the line past unmet branch protection and failing required checks. */
  direct: boolean;
  /**
   * The priority the PR holds its place in line by: its priority when it last entered the line. A
   * priority changed over v2 while the PR is in line applies from its next placement, restarting nothing.
   */
  placedPriority: number;
  noBatch: boolean;
  /** In the line the scheduler considers; a ready PR past a graph queue's admission cap waits outside. */
  admitted: boolean;
  /** First in, first out among equal priorities. */
  seq: number;
  /** The place in line once testing started; kept across restarts. Null: ordered by priority and seq. */
  position: number | null;
  submittedAt: number;
  /** When the PR's entry was first submitted (a resubmission keeps the entry). */
  firstSubmittedAt: number;
  /** When it last entered `pending` (batching waits count from here). */
  pendingSince: number | null;
  firstTestStartedAt: number | null;
  concludedAt: number | null;
  /** The state it concluded from (a merge from `tests_passed` is one its own passing run vouched for). */
  concludedFrom: PrState | null;
  /** The run that tests (or tested) this PR. */
  run: TestRun | null;
  verifiedByTestRun: string | null;
  /** The head sha the current run tests. */
  testedSha: string | null;
  /** While `pending_failure`: how many runs on top of it have finished. */
  finishedOnTop: number;
  /** The failure reason to conclude with once the pending failure is settled. */
  failureReason: string | null;
  /** Set while the PR's failed batch is being bisected. */
  bisection: Bisection | null;
  restarts: number;
}

export type RunKind = 'main' | 'bisection';
export type RunStatus = 'in_progress' | 'failed' | 'cancelled' | 'succeeded';

export interface TestRun {
  id: string;
  queue: QueueRecord;
  kind: RunKind;
  /** The PRs under test (several when batched); a PR restarted or cancelled meanwhile leaves it. */
  members: Submission[];
  /** The PRs the run was started for, as shown in testing details. */
  tested: readonly Submission[];
  /** The PRs ahead whose changes the run was built on top of (predictive testing). */
  includes: Set<Submission>;
  /** PR numbers of `includes`, in queue order, as they were at the start. */
  dependentPrs: number[];
  impactedTargets: Targets;
  /** The required statuses as the run started: the queue's, or the code host's default. */
  requiredStatuses: readonly string[];
  /** Whether they were the queue's own (else the branch protection's). */
  statusesFromQueue: boolean;
  branch: string;
  sha: string;
  status: RunStatus;
  reason: string | null;
  createdAt: number;
  finishedAt: number | null;
  /** Cancels the run's completion and timeout timers. */
  stopTimers: () => void;
  bisection: Bisection | null;
  /** The draft PR opened for the test branch (createPrsForTestingBranches), or null. */
  testPrNumber: number | null;
}

/** PRs of a bisection to test together on top of `includes`. */
export interface BisectionGroup {
  members: Submission[];
  includes: Submission[];
  /** Its run would repeat the combination that failed (the second half, on top of the first). */
  redundant: boolean;
}

/** A failed batch being split to find the PRs that broke it. */
export interface Bisection {
  id: string;
  queue: QueueRecord;
  /** Every PR of the failed batch still being bisected. */
  members: Set<Submission>;
  /** The base the failed batch was tested on. */
  includes: Set<Submission>;
  /** Groups still to test, in queue order. */
  waiting: BisectionGroup[];
  running: Set<TestRun>;
  /** PRs a passing group cleared (they are back in line, out of the bisection). */
  cleared: Set<Submission>;
}

export type HistoryEvent =
  | {
      kind: 'pr_state';
      at: number;
      queueKey: string;
      prNumber: number;
      submissionId: string;
      from: PrState | null;
      to: PrState;
      reason: string | null;
      runId: string | null;
      /** For PREREQUISITE_* reasons: the PR ahead that failed or was cancelled. */
      prerequisitePrNumber?: number;
    }
  | {
      kind: 'run';
      at: number;
      queueKey: string;
      runId: string;
      runKind: RunKind;
      status: RunStatus;
      prNumbers: number[];
      reason: string | null;
      startedAt: number;
    };

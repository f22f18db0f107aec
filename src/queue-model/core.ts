// The engine's state and its primitive operations: the stores, readiness, targets, and the one place
// where a submission changes state (so that history and webhooks see every transition).
import type { PrState, Repo } from '../wire/index.js';
import { SimulatedCi } from './ci.js';
import type { CiModel } from './ci-model.js';
import type { VirtualClock } from './clock.js';
import { REASONS } from './reasons.js';
import type { SeededRandom } from './random.js';
import type {
  BlockReason,
  HistoryEvent,
  PullRequestInfo,
  QueueRecord,
  Submission,
  Targets,
  TestRun,
} from './types.js';

export const ACTIVE_STATES: ReadonlySet<PrState> = new Set([
  'pending',
  'testing',
  'tests_passed',
  'pending_failure',
]);
/** Test branches' draft PRs are numbered from here, clear of the PRs a rehearsal submits. */
const TEST_PR_NUMBERS_FROM = 900_000;
const TERMINAL_STATES: ReadonlySet<PrState> = new Set(['merged', 'failed', 'cancelled']);

export interface Readiness {
  hasImpactedTargets: boolean;
  requiresImpactedTargets: boolean;
  doesBaseBranchMatch: boolean;
  gitHubMergeability: PullRequestInfo['mergeability'];
}

export type EngineListener = (event: HistoryEvent) => void;

export function repoKeyOf(repo: Repo): string {
  return `${repo.host}/${repo.owner}/${repo.name}`;
}

export function queueKeyOf(repo: Repo, branch: string): string {
  return `${repoKeyOf(repo)}@${branch}`;
}

export class EngineCore {
  readonly queues = new Map<string, QueueRecord>();
  /** Queues deleted, kept so that their PRs' histories stay readable. */
  readonly deletedQueues: QueueRecord[] = [];
  readonly pullRequests = new Map<string, PullRequestInfo>();
  readonly history: HistoryEvent[] = [];
  readonly ci = new SimulatedCi();
  /** What decides how runs end: the simulated CI unless a replay plugs in its own model. */
  readonly ciModel: CiModel;
  private readonly listeners: EngineListener[] = [];
  /** The last draft PR number given to a test branch, per repository. */
  private readonly testPrNumbers = new Map<string, number>();

  constructor(
    readonly clock: VirtualClock,
    readonly random: SeededRandom,
    options: { ciModel?: CiModel; keepHistory?: boolean } = {},
  ) {
    this.ciModel = options.ciModel ?? this.ci;
    this.keepHistory = options.keepHistory ?? true;
  }

  /** False in a replay that streams its events out instead of keeping them. */
  private readonly keepHistory: boolean;

  onEvent(listener: EngineListener): () => void {
    this.listeners.push(listener);
    return () => this.listeners.splice(this.listeners.indexOf(listener) >>> 0, 1);
  }

  record(event: HistoryEvent): void {
    if (this.keepHistory) this.history.push(event);
    for (const listener of this.listeners) listener(event);
  }

  pullRequest(repo: Repo, prNumber: number): PullRequestInfo {
    const key = `${repoKeyOf(repo)}#${prNumber}`;
    let info = this.pullRequests.get(key);
    if (!info) {
      info = {
        number: prNumber,
        title: undefined,
        author: undefined,
        headSha: undefined,
        headShaFromHost: false,
        headBranch: undefined,
        baseBranch: undefined,
        mergeability: 'mergeable',
        baseSha: undefined,
        draft: false,
        mergeConflict: false,
        mergeRefusal: null,
        blockedBy: [],
        targetsBySha: new Map(),
      };
      this.pullRequests.set(key, info);
    }
    return info;
  }

  /** The number of the draft PR opened for a new test branch (the service opens one when asked to). */
  nextTestPrNumber(repo: Repo): number {
    const key = repoKeyOf(repo);
    const next = (this.testPrNumbers.get(key) ?? TEST_PR_NUMBERS_FROM - 1) + 1;
    this.testPrNumbers.set(key, next);
    return next;
  }

  infoOf(submission: Submission): PullRequestInfo {
    return submission.info;
  }

  /** The PR's impacted targets for its current head sha; everything in single mode or when unknown. */
  targetsOf(submission: Submission): Targets {
    if (submission.queue.mode === 'single') return 'ALL';
    const info = this.infoOf(submission);
    return (info.headSha !== undefined && info.targetsBySha.get(info.headSha)) || 'ALL';
  }

  readiness(submission: Submission): Readiness {
    const info = this.infoOf(submission);
    return {
      hasImpactedTargets: info.headSha !== undefined && info.targetsBySha.has(info.headSha),
      requiresImpactedTargets: submission.queue.mode === 'parallel',
      doesBaseBranchMatch: (info.baseBranch ?? submission.queue.branch) === submission.queue.branch,
      gitHubMergeability: info.mergeability,
    };
  }

  isReady(submission: Submission): boolean {
    const readiness = this.readiness(submission);
    return (
      readiness.doesBaseBranchMatch &&
      (readiness.gitHubMergeability === 'mergeable' ||
        (submission.direct && passableByDirect(submission.info))) &&
      (!readiness.requiresImpactedTargets || readiness.hasImpactedTargets)
    );
  }

  /**
   * Moves a submission to a state, keeping the queue's indexes and the history in step; `prerequisite`
   * names the PR ahead whose failure or cancellation sent it back (PREREQUISITE_* reasons).
   */
  transition(
    submission: Submission,
    to: PrState,
    reason: string | null = null,
    prerequisite?: Submission,
  ): void {
    const from = submission.state;
    const now = this.clock.now();
    submission.state = to;
    submission.reason = reason;
    submission.stateChangedAt = now;
    if (to === 'pending') {
      submission.pendingSince = now;
      submission.placedPriority = submission.priorityValue;
      if (from !== 'not_ready') submission.restarts++;
    }
    if (to !== 'pending_failure') submission.finishedOnTop = 0;
    if (TERMINAL_STATES.has(to)) {
      submission.concludedAt = now;
      submission.concludedFrom = from;
      submission.queue.live.delete(submission);
    }
    if (to === 'not_ready') {
      submission.position = null;
      submission.admitted = false;
    }
    this.record({
      kind: 'pr_state',
      at: now,
      queueKey: submission.queue.key,
      prNumber: submission.prNumber,
      submissionId: submission.id,
      from,
      to,
      reason,
      runId: submission.run?.id ?? null,
      ...(prerequisite ? { prerequisitePrNumber: prerequisite.prNumber } : {}),
    });
  }

  /** Records a new submission's first state. */
  recordSubmitted(submission: Submission): void {
    this.record({
      kind: 'pr_state',
      at: this.clock.now(),
      queueKey: submission.queue.key,
      prNumber: submission.prNumber,
      submissionId: submission.id,
      from: null,
      to: submission.state,
      reason: REASONS.submittedByApi,
      runId: null,
    });
  }

  recordRun(run: TestRun): void {
    this.record({
      kind: 'run',
      at: this.clock.now(),
      queueKey: run.queue.key,
      runId: run.id,
      runKind: run.kind,
      status: run.status,
      prNumbers: run.members.map((member) => member.prNumber),
      reason: run.reason,
      startedAt: run.createdAt,
    });
  }
}

/** What the code host's branch protection asks for; a `direct` entry goes past these, still tested. */
const BRANCH_PROTECTION = new Set<BlockReason['code']>([
  'behind',
  'awaitingCheck',
  'failingCheck',
  'reviewRequired',
  'changesRequested',
]);

/**
 * Whether a direct entry may enter the line although the PR is not mergeable: when what blocks it is
 * branch protection or failing required checks (or nothing was said why), never a conflict or a draft.
 */
function passableByDirect(info: PullRequestInfo): boolean {
  return (
    info.mergeability === 'not_mergeable' &&
    !info.draft &&
    !info.mergeConflict &&
    info.blockedBy.every((reason) => BRANCH_PROTECTION.has(reason.code))
  );
}

/** A finished run stays live only while it vouches for a PR that passed or failed in it and is still in line. */
export function releaseIfDone(run: TestRun): void {
  if (run.status === 'in_progress') return;
  const vouching = run.members.some(
    (member) => member.run === run && (member.state === 'tests_passed' || member.state === 'pending_failure'),
  );
  if (!vouching) run.queue.liveRuns.delete(run);
}

// The merge-queue engine: the operations of the public API and of the control surface, over the
// stores in EngineCore and the rules in Scheduler. Deterministic: it reads only the virtual clock and
// the seeded random source. Failures a caller should see are thrown as QueueModelError (status + text).
import {
  PRIORITY_NAMES,
  type CancellationReason,
  type EnqueuedPullRequest,
  type ListPullRequestsResponse,
  type PrState,
  type Queue,
  type QueueConfiguration,
  type QueueMode,
  type QueueSettings,
  type QueueState,
  type Repo,
  type SubmittedPullRequest,
  type TestingDetails,
} from '../wire/index.js';
import { awaitingAdmission } from './admission.js';
import type { CiModel } from './ci-model.js';
import { VirtualClock } from './clock.js';
import { QueueModelError } from './errors.js';
import { SeededRandom } from './random.js';
import { ACTIVE_STATES, EngineCore, queueKeyOf, repoKeyOf } from './core.js';
import { applySettings, configurationOf, defaultSettings } from './queue-config.js';
import { REASONS } from './reasons.js';
import { Scheduler } from './scheduler.js';
import type {
  BlockReason,
  Mergeability,
  PullRequestInfo,
  QueueRecord,
  Submission,
  Targets,
} from './types.js';
import { enqueuedView, submittedView, testingDetailsView } from './views.js';

const NOT_FOUND = 'Not Found';
const DEFAULT_PRIORITY: keyof typeof PRIORITY_NAMES = 'medium';
const DEFAULT_PAGE_SIZE = 50;

export interface EngineOptions {
  clock?: VirtualClock;
  seed?: number;
  /** How runs end; the simulated CI (driven by the control surface) when not given. */
  ci?: CiModel;
  /** False: events go to listeners only, not into `history` (a long replay keeps nothing). */
  keepHistory?: boolean;
  /** A new queue's admission cap in graph mode (see admission.ts); none when not given. */
  admissionCap?: number;
}

export interface SubmitOptions {
  priority?: number | string;
  noBatch?: boolean;
  /** Past unmet branch protection and failing required checks (v2's `direct`); still tested. */
  direct?: boolean;
}

export interface ListOptions {
  state?: PrState;
  since?: string;
  until?: string;
  cursor?: string;
  take?: number;
}

/** What the control surface may say about a pull request on the code host. */
export interface PullRequestFacts {
  title?: string;
  author?: string;
  headSha?: string;
  /** The PR's head branch. */
  branch?: string;
  baseBranch?: string;
  mergeability?: Mergeability;
  /** The target branch's commit the PR is based on (a direct merge needs it to be the tip). */
  baseSha?: string;
  draft?: boolean;
  mergeConflict?: boolean;
  /** Why the code host will refuse the PR's next merge, or null for no refusal. */
  mergeRefusal?: MergeRefusal | null;
  /** Why the code host will not merge it yet; a non-empty list makes it not mergeable, an empty one mergeable. */
  blockedBy?: BlockReason[];
}

/** How the code host may refuse a merge the queue asks for. */
export const MERGE_REFUSALS = {
  merge_failed: REASONS.mergeFailed,
  updated_at_merge: REASONS.updatedAtMergeTime,
} as const;
export type MergeRefusal = keyof typeof MERGE_REFUSALS;

export class MergeQueueEngine {
  readonly clock: VirtualClock;
  readonly random: SeededRandom;
  readonly core: EngineCore;
  readonly scheduler: Scheduler;
  private readonly admissionCap: number | undefined;

  constructor(options: EngineOptions = {}) {
    this.admissionCap = options.admissionCap;
    this.clock = options.clock ?? new VirtualClock();
    this.random = new SeededRandom(options.seed ?? 1);
    this.core = new EngineCore(this.clock, this.random, {
      ciModel: options.ci,
      keepHistory: options.keepHistory,
    });
    this.scheduler = new Scheduler(this.core);
  }

  get ci() {
    return this.core.ci;
  }

  get history() {
    return this.core.history;
  }

  // ---------------------------------------------------------------------------------------------------
  // Queues

  createQueue(repo: Repo, branch: string, mode: QueueMode = 'single', concurrency?: number): QueueRecord {
    const key = queueKeyOf(repo, branch);
    if (this.core.queues.has(key)) {
      throw new QueueModelError(
        409,
        `A merge queue already exists for branch "${branch}" in this repository`,
      );
    }
    const queue: QueueRecord = {
      key,
      repo: { host: repo.host, owner: repo.owner, name: repo.name },
      branch,
      state: 'running',
      mode,
      settings: defaultSettings(),
      bisectionConcurrencySet: false,
      tipSha: undefined,
      submissions: [],
      latestByPr: new Map(),
      live: new Set(),
      liveRuns: new Set(),
      runs: new Map(),
      bisections: new Set(),
      nextSeq: 1,
      isolateTargets: [],
      ...(this.admissionCap !== undefined ? { admissionCap: this.admissionCap } : {}),
    };
    if (concurrency !== undefined) queue.settings.concurrency = concurrency;
    this.core.queues.set(key, queue);
    return queue;
  }

  findQueue(repo: Repo, branch: string): QueueRecord | undefined {
    return this.core.queues.get(queueKeyOf(repo, branch));
  }

  requireQueue(repo: Repo, branch: string): QueueRecord {
    const queue = this.findQueue(repo, branch);
    if (!queue) {
      throw new QueueModelError(404, `No merge queue for branch '${branch}' of ${repo.owner}/${repo.name}`);
    }
    return queue;
  }

  getQueue(repo: Repo, branch: string): Queue {
    const queue = this.requireQueue(repo, branch);
    return {
      ...configurationOf(queue),
      enqueuedPullRequests: [...this.scheduler.order(queue), ...awaitingAdmission(queue)].map((s) =>
        enqueuedView(this.core, s),
      ),
    };
  }

  updateQueue(repo: Repo, branch: string, update: QueueSettings): QueueConfiguration {
    const queue = this.requireQueue(repo, branch);
    applySettings(queue, update);
    this.changeStateAndMode(queue, update.state, update.mode);
    this.scheduler.step(queue);
    return configurationOf(queue);
  }

  /** A mode change waits in `switching_modes` while tests run; a state asked for meanwhile applies after. */
  private changeStateAndMode(queue: QueueRecord, state?: QueueState, mode?: QueueMode): void {
    const settled = queue.switchingTo;
    const targetState = (state ?? settled?.state ?? queue.state) as Exclude<QueueState, 'switching_modes'>;
    const targetMode = mode ?? settled?.mode ?? queue.mode;
    if (targetMode === queue.mode) {
      delete queue.switchingTo;
      queue.state = targetState;
      return;
    }
    const testing =
      this.scheduler.runsInProgress(queue, 'main') + this.scheduler.runsInProgress(queue, 'bisection') > 0;
    if (testing) {
      queue.switchingTo = { mode: targetMode, state: targetState };
      queue.state = 'switching_modes';
    } else {
      delete queue.switchingTo;
      queue.mode = targetMode;
      queue.state = targetState;
    }
  }

  deleteQueue(repo: Repo, branch: string): void {
    const queue = this.findQueue(repo, branch);
    if (!queue) return;
    if (queue.live.size > 0) {
      const numbers = [...queue.live].map((s) => `#${s.prNumber}`).join(', ');
      throw new QueueModelError(
        400,
        `The merge queue for branch '${branch}' still holds ${queue.live.size} pull request(s) (${numbers}); drain it until it is empty before deleting it`,
      );
    }
    this.core.queues.delete(queue.key);
    this.core.deletedQueues.push(queue);
  }

  listPullRequests(repo: Repo, branch: string, options: ListOptions = {}): ListPullRequestsResponse {
    const queue = this.requireQueue(repo, branch);
    const since = options.since ? Date.parse(options.since) : undefined;
    const until = options.until ? Date.parse(options.until) : undefined;
    const rows = queue.submissions.filter((s) => {
      if (queue.latestByPr.get(s.prNumber) !== s) return false;
      if (options.state && s.state !== options.state) return false;
      if (since === undefined && until === undefined) return true;
      if (s.concludedAt === null) return false;
      return (
        (since === undefined || s.concludedAt >= since) && (until === undefined || s.concludedAt < until)
      );
    });
    // The cursor names the last row of the previous page; the next page starts after that submission
    // in submission order, so it holds even when that row has since changed state or left the filter.
    let start = 0;
    if (options.cursor) {
      const after = queue.submissions.findLast((s) => s.id === options.cursor);
      if (!after)
        throw new QueueModelError(400, `cursor '${options.cursor}' is not a cursor this listing returned`);
      const index = rows.findIndex((s) => s.seq > after.seq);
      start = index < 0 ? rows.length : index;
    }
    const page = rows.slice(start, start + (options.take ?? DEFAULT_PAGE_SIZE));
    const more = start + page.length < rows.length;
    return {
      pullRequests: page.map((s) => enqueuedView(this.core, s)),
      ...(more && page.length > 0 ? { nextCursor: page[page.length - 1]!.id } : {}),
    };
  }

  // ---------------------------------------------------------------------------------------------------
  // Pull requests

  submitPullRequest(repo: Repo, branch: string, prNumber: number, options: SubmitOptions = {}): void {
    const queue = this.requireQueue(repo, branch);
    const previous = queue.latestByPr.get(prNumber);
    if (previous?.state === 'merged') {
      throw new QueueModelError(400, `Pull request #${prNumber} is already merged into '${branch}'`);
    }
    if (previous && queue.live.has(previous)) {
      // v1's resubmission places the PR again with its new priority at once (an urgent one interrupts).
      this.changeEntry(previous, options);
      previous.placedPriority = previous.priorityValue;
      this.scheduler.step(queue);
      return;
    }
    const info = this.core.pullRequest(repo, prNumber);
    const now = this.clock.now();
    // A PR has one entry per queue: submitted again after it was cancelled or failed, it keeps the id
    // and first submission time of its entry (a new record, so the old runs keep what they tested).
    const submission: Submission = {
      id: previous?.id ?? this.random.uuid(),
      queue,
      prNumber,
      info,
      state: 'not_ready',
      stateChangedAt: now,
      reason: null,
      priorityValue: PRIORITY_NAMES[DEFAULT_PRIORITY],
      priorityName: DEFAULT_PRIORITY,
      usedDefaultPriorityName: DEFAULT_PRIORITY,
      skipTheLine: false,
      direct: options.direct ?? false,
      placedPriority: PRIORITY_NAMES[DEFAULT_PRIORITY],
      noBatch: options.noBatch ?? false,
      admitted: false,
      seq: queue.nextSeq++,
      position: null,
      submittedAt: now,
      firstSubmittedAt: previous?.firstSubmittedAt ?? now,
      pendingSince: null,
      firstTestStartedAt: null,
      concludedAt: null,
      concludedFrom: null,
      run: null,
      verifiedByTestRun: null,
      testedSha: null,
      finishedOnTop: 0,
      failureReason: null,
      bisection: null,
      restarts: 0,
    };
    if (options.priority !== undefined) this.applyPriority(submission, options.priority);
    submission.placedPriority = submission.priorityValue;
    queue.submissions.push(submission);
    queue.latestByPr.set(prNumber, submission);
    queue.live.add(submission);
    this.core.recordSubmitted(submission);
    this.scheduler.step(queue);
  }

  /**
   * Changes a live entry's priority or batching, as v2's reprioritize and queue-entry PATCH do: nothing
   * restarts, and a new priority orders the PR from the next time it enters the line.
   */
  updateEntry(repo: Repo, branch: string, prNumber: number, options: SubmitOptions): void {
    const submission = this.requireLive(repo, branch, prNumber);
    this.changeEntry(submission, options);
    this.scheduler.step(submission.queue);
  }

  private changeEntry(submission: Submission, options: SubmitOptions): void {
    if (options.priority !== undefined) this.applyPriority(submission, options.priority);
    if (options.noBatch !== undefined) submission.noBatch = options.noBatch;
    if (options.direct !== undefined) submission.direct = options.direct;
  }

  private applyPriority(submission: Submission, priority: number | string): void {
    const named =
      typeof priority === 'string' ? (priority.toLowerCase() as keyof typeof PRIORITY_NAMES) : undefined;
    const value = named !== undefined ? PRIORITY_NAMES[named] : (priority as number);
    const name = Object.entries(PRIORITY_NAMES).find(([, v]) => v === value)?.[0];
    submission.priorityValue = value;
    submission.priorityName = name ?? 'custom';
    submission.usedDefaultPriorityName = undefined;
    submission.skipTheLine = value === PRIORITY_NAMES.urgent;
  }

  cancelPullRequest(repo: Repo, branch: string, prNumber: number): void {
    this.cancel(this.requireLive(repo, branch, prNumber), REASONS.cancelledByUser);
  }

  /** Takes a live PR out of the queue for `reason`; runs built on top of it start again without it. */
  private cancel(submission: Submission, reason: CancellationReason): void {
    this.scheduler.detachFromRun(submission);
    this.scheduler.conclude(submission, 'cancelled', reason);
    this.scheduler.invalidateRunsIncluding(submission, REASONS.prerequisiteCancelled);
    this.scheduler.step(submission.queue);
  }

  restartTestsOnPullRequest(repo: Repo, branch: string, prNumber: number): void {
    const submission = this.requireLive(repo, branch, prNumber);
    if (submission.state !== 'not_ready' && !(submission.state === 'pending' && !submission.bisection)) {
      this.scheduler.leaveBisection(submission);
      this.scheduler.sendBack(submission, REASONS.restartedByApi);
    }
    this.scheduler.step(submission.queue);
  }

  getSubmittedPullRequest(repo: Repo, branch: string, prNumber: number): SubmittedPullRequest {
    const submission = this.findQueue(repo, branch)?.latestByPr.get(prNumber);
    if (!submission) throw new QueueModelError(404, NOT_FOUND);
    return submittedView(this.core, submission);
  }

  private requireLive(repo: Repo, branch: string, prNumber: number): Submission {
    const submission = this.findQueue(repo, branch)?.latestByPr.get(prNumber);
    if (!submission || !submission.queue.live.has(submission)) {
      throw new QueueModelError(
        404,
        `Pull request #${prNumber} is not in the merge queue for branch '${branch}'`,
      );
    }
    return submission;
  }

  setImpactedTargets(repo: Repo, prNumber: number, sha: string, targets: Targets): void {
    const info = this.core.pullRequest(repo, prNumber);
    // Untold by the code host, targets for a sha never seen for the PR tell of a push, which its record
    // (prSha) follows and which takes it out of every queue it is in. Otherwise they are a late upload (the
    // code host tells of pushes), which moves nothing.
    const pushed = !info.headShaFromHost && sha !== info.headSha && !info.targetsBySha.has(sha);
    info.targetsBySha.set(sha, targets === 'ALL' ? 'ALL' : [...new Set(targets)]);
    if (pushed) this.updatePullRequest(repo, prNumber, { headSha: sha });
    else this.stepQueuesOf(repo, prNumber);
  }

  getMergeQueueTestingDetails(repo: Repo, branch: string, testRunId: string): TestingDetails {
    const run = this.findQueue(repo, branch)?.runs.get(testRunId);
    if (!run) throw new QueueModelError(404, NOT_FOUND);
    return testingDetailsView(this.core, run);
  }

  // ---------------------------------------------------------------------------------------------------
  // Control surface

  /**
   * Updates what the code host says about a PR. A push (a new head sha where one was known) cancels it in
   * every queue it is in, as the service does (PR_PUSHED_TO); a PR that stops being ready leaves the line.
   */
  setPullRequest(repo: Repo, prNumber: number, facts: PullRequestFacts): PullRequestInfo {
    const info = this.updatePullRequest(repo, prNumber, facts);
    if (facts.headSha !== undefined) info.headShaFromHost = true;
    return info;
  }

  private updatePullRequest(repo: Repo, prNumber: number, facts: PullRequestFacts): PullRequestInfo {
    const info = this.core.pullRequest(repo, prNumber);
    const pushed =
      facts.headSha !== undefined && info.headSha !== undefined && facts.headSha !== info.headSha;
    const turnedDraft = facts.draft === true && !info.draft;
    applyFacts(info, facts, pushed);
    for (const submission of this.liveSubmissionsOf(repo, prNumber)) {
      if (pushed || turnedDraft) {
        this.cancel(submission, pushed ? REASONS.pushedTo : REASONS.convertedToDraft);
        continue;
      }
      if (!ACTIVE_STATES.has(submission.state) || this.core.isReady(submission)) continue;
      this.scheduler.leaveBisection(submission);
      this.scheduler.detachFromRun(submission);
      this.scheduler.invalidateRunsIncluding(submission, REASONS.prerequisiteCancelled);
      this.core.transition(submission, 'not_ready', REASONS.notReady);
    }
    this.stepQueuesOf(repo, prNumber);
    return info;
  }

  /**
   * A merge into the target branch from outside the queue: the tip moves, and every PR testing, passed or
   * pending failure is tested again on the new tip (MANUAL_PUSH_TO_TARGET_BRANCH). Answers the new tip.
   */
  mergeFromOutside(repo: Repo, branch: string, sha?: string): string {
    const queue = this.requireQueue(repo, branch);
    queue.tipSha = sha ?? this.random.hex(40);
    this.scheduler.deferring(() => this.scheduler.restartAll(queue, REASONS.targetBranchPushed));
    return queue.tipSha;
  }

  /** The PR was closed or turned into a draft on the code host: it leaves every queue it is in. */
  withdrawPullRequest(repo: Repo, prNumber: number, reason: CancellationReason): void {
    for (const submission of this.liveSubmissionsOf(repo, prNumber)) this.cancel(submission, reason);
  }

  /** Ends a run in progress now, as passed or failed (the page's buttons). */
  finishRun(runId: string, status: 'succeeded' | 'failed'): void {
    for (const queue of this.core.queues.values()) {
      const run = queue.runs.get(runId);
      if (!run) continue;
      if (run.status !== 'in_progress')
        throw new QueueModelError(409, `Run ${runId} has already ended (${run.status})`);
      this.scheduler.finishRun(run, status, status === 'failed' ? REASONS.testRunFailed : null);
      return;
    }
    throw new QueueModelError(404, `No run ${runId}`);
  }

  /** Moves the virtual clock; test runs and batching waits due on the way happen in order. */
  advance(ms: number): void {
    this.clock.advance(ms);
  }

  /** Advances until no timer is due within `limitMs` (hung runs end at their timeout). */
  runUntilIdle(limitMs: number): void {
    const end = this.clock.now() + limitMs;
    for (
      let next = this.clock.nextTimerAt();
      next !== undefined && next <= end;
      next = this.clock.nextTimerAt()
    ) {
      this.clock.advance(next - this.clock.now());
    }
  }

  queues(): QueueRecord[] {
    return [...this.core.queues.values()];
  }

  /** The queues that were deleted (their records, for the histories of their PRs). */
  deletedQueues(): readonly QueueRecord[] {
    return this.core.deletedQueues;
  }

  enqueuedView(submission: Submission): EnqueuedPullRequest {
    return enqueuedView(this.core, submission);
  }

  private liveSubmissionsOf(repo: Repo, prNumber: number): Submission[] {
    const repoKey = repoKeyOf(repo);
    const found: Submission[] = [];
    for (const queue of this.core.queues.values()) {
      if (repoKeyOf(queue.repo) !== repoKey) continue;
      const submission = queue.latestByPr.get(prNumber);
      if (submission && queue.live.has(submission)) found.push(submission);
    }
    return found;
  }

  private stepQueuesOf(repo: Repo, prNumber: number): void {
    for (const submission of this.liveSubmissionsOf(repo, prNumber)) this.scheduler.step(submission.queue);
  }
}

/** Takes what the code host says into the PR's record; a push resolves a merge conflict unless told. */
function applyFacts(info: PullRequestInfo, facts: PullRequestFacts, pushed: boolean): void {
  if (facts.title !== undefined) info.title = facts.title;
  if (facts.author !== undefined) info.author = facts.author;
  if (facts.baseBranch !== undefined) info.baseBranch = facts.baseBranch;
  if (facts.branch !== undefined) info.headBranch = facts.branch;
  if (facts.mergeability !== undefined) info.mergeability = facts.mergeability;
  if (facts.headSha !== undefined) info.headSha = facts.headSha;
  if (facts.baseSha !== undefined) info.baseSha = facts.baseSha;
  if (facts.draft !== undefined) info.draft = facts.draft;
  if (pushed) info.mergeConflict = false;
  if (facts.mergeConflict !== undefined) info.mergeConflict = facts.mergeConflict;
  if (facts.blockedBy !== undefined) {
    info.blockedBy = facts.blockedBy.map((reason) => ({ ...reason }));
    if (facts.mergeability === undefined) {
      info.mergeability = info.blockedBy.length > 0 ? 'not_mergeable' : 'mergeable';
    }
  }
  if (facts.mergeRefusal !== undefined)
    info.mergeRefusal = facts.mergeRefusal === null ? null : MERGE_REFUSALS[facts.mergeRefusal];
}

// The queue's rules. `step(queue)` applies them until nothing changes: admit ready PRs, let urgent PRs
// skip the line, merge PRs whose tests passed once nothing ahead in their lane is left, settle pending
// failures, and start test runs (batched, bisecting, on top of the PRs ahead) in the free slots.
// Test runs end through virtual-clock timers, which call back into `step`.
import { ACTIVE_STATES, repoKeyOf, type EngineCore } from './core.js';
import { compareInLine, dependenciesAhead, dependentsBehind, TargetUnion, unionOfTargets } from './lanes.js';
import { REASONS } from './reasons.js';
import type { Bisection, QueueRecord, RunKind, RunStatus, Submission, TestRun } from './types.js';

const MINUTE_MS = 60_000;
/** A step repeats its pass while something changes; this bounds a runaway loop. */
const MAX_PASSES = 10_000;

export class Scheduler {
  /** While set, steps are collected here and run once at the end (see `deferring`). */
  private deferred: Set<QueueRecord> | null = null;

  constructor(private readonly core: EngineCore) {}

  /** Runs `change` with scheduling held back, then steps each queue it touched once. */
  deferring<T>(change: () => T): T {
    if (this.deferred) return change();
    const touched = (this.deferred = new Set());
    try {
      return change();
    } finally {
      this.deferred = null;
      for (const queue of touched) this.step(queue);
    }
  }

  step(queue: QueueRecord): void {
    if (this.deferred) {
      this.deferred.add(queue);
      return;
    }
    for (let pass = 0; pass < MAX_PASSES; pass++) {
      if (!this.pass(queue)) return;
    }
    throw new Error(`the scheduler of ${queue.key} did not settle`);
  }

  /** The queue's live PRs in line order (not-ready PRs are not in line). */
  order(queue: QueueRecord): Submission[] {
    const inLine: Submission[] = [];
    for (const submission of queue.live) if (ACTIVE_STATES.has(submission.state)) inLine.push(submission);
    return inLine.sort(compareInLine);
  }

  runsInProgress(queue: QueueRecord, kind: RunKind): number {
    let count = 0;
    for (const run of queue.liveRuns) if (run.status === 'in_progress' && run.kind === kind) count++;
    return count;
  }

  /** One pass over the rules; true when it changed the line in a way that needs another pass. */
  private pass(queue: QueueRecord): boolean {
    this.finishModeSwitch(queue);
    this.updateReadiness(queue);
    let order = this.order(queue);
    if (this.placeUrgent(queue, order)) order = this.order(queue);
    if (queue.state !== 'paused') {
      const merged = this.merge(queue, order);
      if (merged === 'optimistically') return true;
      if (merged === 'some') order = order.filter((s) => ACTIVE_STATES.has(s.state));
      if (queue.state !== 'switching_modes') this.startRuns(queue, order);
    }
    return this.settlePendingFailures(queue);
  }

  private finishModeSwitch(queue: QueueRecord): boolean {
    if (queue.state !== 'switching_modes' || !queue.switchingTo) return false;
    if (this.runsInProgress(queue, 'main') + this.runsInProgress(queue, 'bisection') > 0) return false;
    queue.mode = queue.switchingTo.mode;
    queue.state = queue.switchingTo.state;
    delete queue.switchingTo;
    return true;
  }

  /** Admits ready PRs (not while draining) and sends PRs waiting in line back when they stop being ready. */
  private updateReadiness(queue: QueueRecord): boolean {
    let changed = false;
    const admitting = queue.state === 'running' || queue.state === 'paused';
    for (const submission of [...queue.live]) {
      if (submission.state === 'not_ready' && admitting && this.core.isReady(submission)) {
        this.core.transition(submission, 'pending', REASONS.nowReady);
        changed = true;
      } else if (
        submission.state === 'pending' &&
        !submission.bisection &&
        submission.position === null &&
        !this.core.isReady(submission)
      ) {
        this.core.transition(submission, 'not_ready', REASONS.notReady);
        changed = true;
      }
    }
    return changed;
  }

  /**
   * An urgent PR goes ahead of every non-urgent PR that is testing or waiting its turn; the runs behind it
   * in its lane no longer test what will merge first, so those PRs go back to pending.
   */
  private placeUrgent(queue: QueueRecord, order: Submission[]): boolean {
    const urgent = order.filter((s) => s.skipTheLine && s.position === null && s.state === 'pending');
    if (urgent.length === 0) return false;
    let placedAny = false;
    for (const submission of urgent) {
      const line = this.order(queue).filter((s) => s !== submission);
      const index = line.findIndex(
        (s) => s.position !== null && !s.skipTheLine && (s.state === 'testing' || s.state === 'pending'),
      );
      if (index < 0) continue;
      const before = index > 0 ? line[index - 1]!.position! : line[index]!.position! - 2;
      submission.position = (before + line[index]!.position!) / 2;
      placedAny = true;
      const placed = [...line.slice(0, index), submission, ...line.slice(index)];
      const behind = dependentsBehind(placed, index, this.core.targetsOf(submission), (s) =>
        this.core.targetsOf(s),
      );
      for (const interrupted of behind) {
        if (interrupted.state === 'testing' || interrupted.state === 'tests_passed') {
          this.sendBack(interrupted, REASONS.skipTheLineInterrupted);
        }
      }
    }
    if (placedAny) renumberPositions(this.order(queue));
    return placedAny;
  }

  // ---------------------------------------------------------------------------------------------------
  // Merging

  /** Merges what can merge. After an optimistic merge the line must be looked at again. */
  private merge(queue: QueueRecord, order: Submission[]): 'none' | 'some' | 'optimistically' {
    const blockers = new TargetUnion();
    let merged = false;
    for (let i = 0; i < order.length; i++) {
      const submission = order[i]!;
      const targets = this.core.targetsOf(submission);
      if (submission.state === 'tests_passed') {
        if (!blockers.overlaps(targets)) {
          this.conclude(submission, 'merged', REASONS.merged);
          merged = true;
          continue;
        }
        if (queue.settings.canOptimisticallyMerge && this.mergeOptimistically(order, i))
          return 'optimistically';
      }
      blockers.add(targets);
    }
    return merged ? 'some' : 'none';
  }

  /** A passing run that was built on top of every PR still ahead of it in its lane vouches for them too. */
  private mergeOptimistically(order: Submission[], index: number): boolean {
    const submission = order[index]!;
    const run = submission.run;
    if (!run) return false;
    const ahead = dependenciesAhead(order, index, this.core.targetsOf(submission), (s) =>
      this.core.targetsOf(s),
    );
    if (ahead.some((s) => !run.includes.has(s) || s.bisection !== null)) return false;
    for (const vouched of ahead) {
      this.detachFromRun(vouched);
      this.conclude(vouched, 'merged', REASONS.merged);
    }
    this.conclude(submission, 'merged', REASONS.merged);
    return true;
  }

  // ---------------------------------------------------------------------------------------------------
  // Failures

  private settlePendingFailures(queue: QueueRecord): boolean {
    let changed = false;
    for (const submission of [...queue.live]) {
      if (submission.state !== 'pending_failure') continue;
      const enoughFinished = submission.finishedOnTop >= queue.settings.pendingFailureDepth;
      if (enoughFinished || !this.anyRunInProgressOnTopOf(submission)) {
        this.conclude(submission, 'failed', submission.failureReason ?? REASONS.testRunFailed);
        this.invalidateRunsIncluding(submission, REASONS.prerequisiteFailed);
        changed = true;
      }
    }
    return changed;
  }

  private anyRunInProgressOnTopOf(submission: Submission): boolean {
    for (const run of submission.queue.liveRuns) {
      if (run.status === 'in_progress' && run.kind === 'main' && run.includes.has(submission)) return true;
    }
    return false;
  }

  /** Every run built on top of `culprit` no longer tests what will merge: its PRs go back to pending. */
  invalidateRunsIncluding(culprit: Submission, reason: string): void {
    const queue = culprit.queue;
    const bisections = new Set([...queue.bisections].filter((b) => b.includes.has(culprit)));
    for (const run of [...queue.liveRuns]) {
      if (!run.includes.has(culprit)) continue;
      if (run.bisection) bisections.add(run.bisection);
      if (run.status === 'in_progress') this.endRun(run, 'cancelled', reason);
      for (const member of run.members) {
        if (member.run === run && ACTIVE_STATES.has(member.state) && member.state !== 'pending') {
          this.sendBack(member, reason);
        }
      }
      queue.liveRuns.delete(run);
    }
    for (const bisection of bisections) this.abandonBisection(bisection, reason);
  }

  // ---------------------------------------------------------------------------------------------------
  // Starting runs

  private startRuns(queue: QueueRecord, order: Submission[]): boolean {
    let changed = false;
    let free = queue.settings.concurrency - this.runsInProgress(queue, 'main');
    for (let i = 0; i < order.length && free > 0; i++) {
      const first = order[i]!;
      if (first.state !== 'pending' || first.bisection) continue;
      const group = this.groupFrom(queue, order, i);
      if (!group) break;
      const includes = dependenciesAhead(
        order,
        i,
        unionOfTargets(group.map((s) => this.core.targetsOf(s))),
        (s) => this.core.targetsOf(s),
      );
      this.startRun(queue, 'main', group, includes, null);
      i += group.length - 1;
      free--;
      changed = true;
    }
    return this.startBisectionRuns(queue) || changed;
  }

  /** The PRs to test together from `order[index]`, or undefined while a batch waits to fill up. */
  private groupFrom(queue: QueueRecord, order: Submission[], index: number): Submission[] | undefined {
    const first = order[index]!;
    const { batch, batchingMinSize, batchingMaxWaitTimeMinutes } = queue.settings;
    if (!batch || first.noBatch) return [first];
    const group = [first];
    for (let j = index + 1; j < order.length && group.length < batchingMinSize; j++) {
      const next = order[j]!;
      if (next.state !== 'pending' || next.bisection || next.noBatch) break;
      group.push(next);
    }
    if (group.length >= batchingMinSize) return group;
    const waitUntil = (first.pendingSince ?? this.core.clock.now()) + batchingMaxWaitTimeMinutes * MINUTE_MS;
    if (this.core.clock.now() >= waitUntil) return group;
    this.wakeAt(queue, waitUntil);
    return undefined;
  }

  private wakeAt(queue: QueueRecord, at: number): void {
    if (
      queue.batchTimerAt !== undefined &&
      queue.batchTimerAt <= at &&
      queue.batchTimerAt > this.core.clock.now()
    ) {
      return;
    }
    queue.batchTimerAt = at;
    this.core.clock.at(at, () => {
      if (queue.batchTimerAt === at) delete queue.batchTimerAt;
      this.step(queue);
    });
  }

  private startBisectionRuns(queue: QueueRecord): boolean {
    let changed = false;
    let free = queue.settings.bisectionConcurrency - this.runsInProgress(queue, 'bisection');
    for (const bisection of queue.bisections) {
      while (free > 0 && bisection.waiting.length > 0) {
        const group = bisection.waiting.shift()!;
        const run = this.startRun(queue, 'bisection', group, [...bisection.includes], bisection);
        bisection.running.add(run);
        free--;
        changed = true;
      }
    }
    return changed;
  }

  private startRun(
    queue: QueueRecord,
    kind: RunKind,
    members: Submission[],
    includes: Submission[],
    bisection: Bisection | null,
  ): TestRun {
    const core = this.core;
    const now = core.clock.now();
    const id = core.random.uuid();
    const run: TestRun = {
      id,
      queue,
      kind,
      members: [...members],
      tested: [...members],
      includes: new Set(includes),
      dependentPrs: includes.map((s) => s.prNumber),
      impactedTargets: unionOfTargets(members.map((s) => core.targetsOf(s))),
      branch: `trunk-merge/pr-${members[0]!.prNumber}/${id}`,
      sha: core.random.hex(40),
      status: 'in_progress',
      reason: null,
      createdAt: now,
      finishedAt: null,
      stopTimers: () => undefined,
      bisection,
    };
    queue.runs.set(id, run);
    queue.liveRuns.add(run);
    for (const member of members) {
      member.run = run;
      member.verifiedByTestRun = id;
      member.testedSha = core.infoOf(member).headSha ?? null;
      member.firstTestStartedAt ??= now;
      if (member.position === null) member.position = nextPosition(queue);
      core.transition(member, 'testing');
    }
    core.recordRun(run);

    const verdict = core.ci.verdict(
      repoKeyOf(queue.repo),
      members.map((s) => s.prNumber),
      includes.map((s) => s.prNumber),
    );
    const timeoutMs = queue.settings.testingTimeoutMinutes * MINUTE_MS;
    const timers = [
      core.clock.at(now + timeoutMs, () => this.finishRun(run, 'failed', REASONS.testRunTimeout)),
    ];
    if (verdict.result !== 'hang' && verdict.durationMs < timeoutMs) {
      const result = verdict.result;
      const reason = result === 'failed' ? REASONS.testRunFailed : null;
      timers.push(core.clock.at(now + verdict.durationMs, () => this.finishRun(run, result, reason)));
    }
    run.stopTimers = () => timers.forEach((timer) => timer.cancel());
    return run;
  }

  // ---------------------------------------------------------------------------------------------------
  // Runs ending

  finishRun(run: TestRun, status: 'succeeded' | 'failed', reason: string | null): void {
    if (run.status !== 'in_progress') return;
    this.endRun(run, status, reason);
    const members = run.members.filter((member) => member.run === run && member.state === 'testing');
    if (run.kind === 'main') this.countFinishedOnTop(run);
    if (run.kind === 'bisection') this.bisectionRunEnded(run, members, status, reason);
    else if (status === 'succeeded')
      for (const member of members) this.core.transition(member, 'tests_passed');
    else if (members.length > 1) this.bisect(run, members);
    else for (const member of members) this.failPending(member, reason);
    releaseIfDone(run);
    this.step(run.queue);
  }

  private endRun(run: TestRun, status: RunStatus, reason: string | null): void {
    if (status === 'cancelled') run.bisection?.running.delete(run);
    run.stopTimers();
    run.status = status;
    run.reason = reason;
    run.finishedAt = this.core.clock.now();
    this.core.recordRun(run);
  }

  private countFinishedOnTop(run: TestRun): void {
    for (const below of run.includes) if (below.state === 'pending_failure') below.finishedOnTop++;
  }

  private failPending(member: Submission, reason: string | null): void {
    member.failureReason = reason ?? REASONS.testRunFailed;
    this.core.transition(member, 'pending_failure', member.failureReason);
  }

  // ---------------------------------------------------------------------------------------------------
  // Bisection of failed batches

  private bisect(run: TestRun, members: Submission[]): void {
    const bisection: Bisection = {
      id: this.core.random.uuid(),
      queue: run.queue,
      members: new Set(members),
      includes: new Set(run.includes),
      waiting: halves(members),
      running: new Set(),
      cleared: new Set(),
    };
    run.queue.bisections.add(bisection);
    for (const member of members) {
      member.bisection = bisection;
      this.core.transition(member, 'pending', REASONS.bisectionRequired);
    }
  }

  private bisectionRunEnded(
    run: TestRun,
    members: Submission[],
    status: 'succeeded' | 'failed',
    reason: string | null,
  ) {
    const bisection = run.bisection!;
    bisection.running.delete(run);
    if (status === 'succeeded' && run.queue.settings.optimizationMode === 'bisection_skip_redundant_tests') {
      // The group passed on the batch's base: take that as its test instead of testing it again.
      for (const member of members) {
        member.bisection = null;
        bisection.members.delete(member);
        this.core.transition(member, 'tests_passed');
      }
    } else if (status === 'succeeded') {
      for (const member of members) {
        bisection.cleared.add(member);
        this.core.transition(member, 'pending', REASONS.bisectionPassed);
      }
    } else if (members.length === 1) {
      members[0]!.bisection = null;
      this.failPending(members[0]!, reason);
    } else {
      bisection.waiting.unshift(...halves(members));
      for (const member of members) this.core.transition(member, 'pending', REASONS.bisectionRequired);
    }
    if (bisection.waiting.length === 0 && bisection.running.size === 0) this.endBisection(bisection);
  }

  /** The PRs a bisection cleared wait in line again, to be tested (and batched) anew. */
  private endBisection(bisection: Bisection): void {
    for (const member of bisection.members) if (member.bisection === bisection) member.bisection = null;
    bisection.queue.bisections.delete(bisection);
  }

  private abandonBisection(bisection: Bisection, reason: string): void {
    for (const run of [...bisection.running]) {
      if (run.status === 'in_progress') this.endRun(run, 'cancelled', reason);
      run.queue.liveRuns.delete(run);
      for (const member of run.members) {
        if (member.run === run && member.state === 'testing') this.core.transition(member, 'pending', reason);
      }
    }
    bisection.running.clear();
    bisection.waiting = [];
    this.endBisection(bisection);
  }

  /** Takes a PR out of a bisection it is part of (it was cancelled or restarted). */
  leaveBisection(submission: Submission): void {
    const bisection = submission.bisection;
    if (!bisection) return;
    submission.bisection = null;
    bisection.members.delete(submission);
    bisection.cleared.delete(submission);
    bisection.waiting = bisection.waiting
      .map((group) => group.filter((s) => s !== submission))
      .filter((g) => g.length);
    if (bisection.waiting.length === 0 && bisection.running.size === 0) this.endBisection(bisection);
  }

  // ---------------------------------------------------------------------------------------------------
  // Moving PRs

  /** Back to pending, keeping the PR's place in line; its run (if still testing for it) goes on without it. */
  sendBack(submission: Submission, reason: string): void {
    this.detachFromRun(submission);
    this.core.transition(submission, 'pending', reason);
  }

  /**
   * Takes a PR out of its run. A run still testing other PRs keeps going, now counted as built on top
   * of this PR's change (so that the PR's later failure still sends them back); a run left with none
   * is cancelled.
   */
  detachFromRun(submission: Submission): void {
    const run = submission.run;
    if (!run) return;
    run.members = run.members.filter((member) => member !== submission);
    submission.run = null;
    if (run.status === 'in_progress') {
      run.includes.add(submission);
      if (run.members.length > 0) return;
      this.endRun(run, 'cancelled', null);
      const bisection = run.bisection;
      if (bisection && bisection.waiting.length === 0 && bisection.running.size === 0)
        this.endBisection(bisection);
    }
    releaseIfDone(run);
  }

  /** Concludes a PR as merged, failed or cancelled. */
  conclude(submission: Submission, state: 'merged' | 'failed' | 'cancelled', reason: string | null): void {
    this.leaveBisection(submission);
    this.core.transition(submission, state, reason);
    if (submission.run) releaseIfDone(submission.run);
  }
}

/** A finished run stays live only while it vouches for a PR that passed or failed in it and is still in line. */
function releaseIfDone(run: TestRun): void {
  if (run.status === 'in_progress') return;
  const vouching = run.members.some(
    (member) => member.run === run && (member.state === 'tests_passed' || member.state === 'pending_failure'),
  );
  if (!vouching) run.queue.liveRuns.delete(run);
}

function halves(members: Submission[]): Submission[][] {
  const middle = Math.ceil(members.length / 2);
  return [members.slice(0, middle), members.slice(middle)].filter((half) => half.length > 0);
}

function nextPosition(queue: QueueRecord): number {
  let last = 0;
  for (const submission of queue.live) {
    if (submission.position !== null && submission.position > last) last = submission.position;
  }
  return last + 1;
}

/** Gives the placed PRs whole-number positions again, so that insertions never run out of precision. */
function renumberPositions(order: Submission[]): void {
  let position = 0;
  for (const submission of order) if (submission.position !== null) submission.position = ++position;
}

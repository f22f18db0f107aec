// The queue's rules. `step(queue)` applies them until nothing changes: admit ready PRs, let urgent PRs
// skip the line, merge a lone PR based on the tip directly, merge PRs whose tests passed once nothing
// ahead in their lane is left, start test runs (batched, bisecting predictively, on top of the PRs ahead)
// in the free slots, and settle pending failures once the PRs ahead have concluded (a PR fails, a batch
// is bisected). Test runs end through virtual-clock timers, which call back into `step`.
import { admissionRoom, awaitingAdmission, testsAlone } from './admission.js';
import { Bisections } from './bisection.js';
import type { TimerHandle } from './clock.js';
import { ACTIVE_STATES, releaseIfDone, repoKeyOf, type EngineCore } from './core.js';
import { compareInLine, dependenciesAhead, dependentsBehind, TargetUnion, unionOfTargets } from './lanes.js';
import { REASONS } from './reasons.js';
import type { Bisection, QueueRecord, RunKind, RunStatus, Submission, TestRun } from './types.js';
import { DEFAULT_REQUIRED_STATUSES } from './views.js';
import { QueueModelError } from './errors.js';

const MINUTE_MS = 60_000;
/** A step repeats its pass while something changes; this bounds a runaway loop. */
const MAX_PASSES = 10_000;

/** What a run tests (`members`), what it is built on top of (`includes`) and which bisection it serves. */
interface RunPlan {
  kind: RunKind;
  members: Submission[];
  includes: Submission[];
  bisection: Bisection | null;
}

/** Whether the PR entered the line urgent (priority 0), which lets it interrupt the runs behind it. */
function isUrgent(submission: Submission): boolean {
  return submission.placedPriority === 0;
}

export class Scheduler {
  /** While set, steps are collected here and run once at the end (see `deferring`). */
  private deferred: Set<QueueRecord> | null = null;

  private readonly bisections: Bisections;

  constructor(private readonly core: EngineCore) {
    this.bisections = new Bisections(core, {
      startRun: (queue, members, includes, bisection) =>
        this.startRun(queue, { kind: 'bisection', members, includes, bisection }),
      newRun: (queue, members, includes, bisection) =>
        this.newRun(queue, { kind: 'bisection', members, includes, bisection }),
      endRun: (run, status, reason) => this.endRun(run, status, reason),
      failPending: (member, reason) => this.failPending(member, reason),
      runsInProgress: (queue) => this.runsInProgress(queue, 'bisection'),
    });
  }

  /** Takes a PR out of a bisection it is part of (it was cancelled or restarted). */
  leaveBisection(submission: Submission): void {
    this.bisections.leave(submission);
  }

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
    // A bound on the model's own loop, never a caller's doing: the emulator answers it as a 500.
    throw new QueueModelError(500, `internal: the scheduler of ${queue.key} did not settle`);
  }

  /** The queue's live PRs in line order (not-ready PRs, and those awaiting admission, are not in line). */
  order(queue: QueueRecord): Submission[] {
    const inLine: Submission[] = [];
    for (const submission of queue.live) {
      if (submission.admitted && ACTIVE_STATES.has(submission.state)) inLine.push(submission);
    }
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
    this.admit(queue);
    let order = this.order(queue);
    if (this.placeUrgent(queue, order)) order = this.order(queue);
    let started = false;
    if (queue.state !== 'paused') {
      if (this.mergeDirectly(queue, order)) return true;
      const merged = this.merge(queue, order);
      if (merged === 'optimistically') return true;
      // Merged PRs made room in the line: admit who waits for it before starting runs.
      if (merged === 'some' && awaitingAdmission(queue).length > 0) return true;
      if (merged === 'some') order = order.filter((s) => ACTIVE_STATES.has(s.state));
      started = this.startRuns(queue, order);
    }
    return this.settlePendingFailures(queue) || started;
  }

  private finishModeSwitch(queue: QueueRecord): boolean {
    if (queue.state !== 'switching_modes' || !queue.switchingTo) return false;
    if (this.runsInProgress(queue, 'main') + this.runsInProgress(queue, 'bisection') > 0) return false;
    queue.mode = queue.switchingTo.mode;
    queue.state = queue.switchingTo.state;
    delete queue.switchingTo;
    return true;
  }

  /**
   * Admits ready PRs (only while running: not paused, draining or switching modes) and sends PRs waiting
   * in line back when they stop being ready.
   */
  private updateReadiness(queue: QueueRecord): boolean {
    let changed = false;
    const admitting = queue.state === 'running';
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

  /** Admits ready PRs into the line while it has room (an urgent PR past a full one: the cap is soft). */
  private admit(queue: QueueRecord): void {
    const waiting = awaitingAdmission(queue);
    if (waiting.length === 0) return;
    let room = admissionRoom(queue, this.order(queue).length);
    for (const submission of waiting) {
      if (room <= 0 && !isUrgent(submission)) continue;
      submission.admitted = true;
      room--;
    }
  }

  /**
   * An urgent PR goes ahead of every non-urgent PR that is testing or waiting its turn; the runs behind it
   * in its lane no longer test what will merge first, so those PRs go back to pending.
   */
  private placeUrgent(queue: QueueRecord, order: Submission[]): boolean {
    const urgent = order.filter((s) => isUrgent(s) && s.position === null && s.state === 'pending');
    if (urgent.length === 0) return false;
    let placedAny = false;
    for (const submission of urgent) {
      const line = this.order(queue).filter((s) => s !== submission);
      const index = line.findIndex(
        (s) => s.position !== null && !isUrgent(s) && (s.state === 'testing' || s.state === 'pending'),
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
        if (interrupted.state !== 'testing' && interrupted.state !== 'tests_passed') continue;
        // A bisection built on what the urgent PR now goes ahead of no longer holds: its PRs go back.
        if (interrupted.bisection)
          this.bisections.abandon(interrupted.bisection, REASONS.skipTheLineInterrupted);
        else this.sendBack(interrupted, REASONS.skipTheLineInterrupted);
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
        if (!blockers.holdsBack(targets)) {
          this.mergeInto(submission, REASONS.merged);
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
      // A run still testing a vouched PR is no longer needed; a finished one keeps its record.
      if (vouched.state === 'testing') this.detachFromRun(vouched);
      if (!this.mergeInto(vouched, REASONS.merged)) return true;
    }
    this.mergeInto(submission, REASONS.merged);
    return true;
  }

  /**
   * Merges a PR into the target branch, whose tip moves; or, when the code host refuses the merge, fails
   * it and restarts the runs built on top of it. True when it merged.
   */
  private mergeInto(submission: Submission, reason: string): boolean {
    const info = submission.info;
    const refusal = info.mergeRefusal;
    if (refusal) {
      info.mergeRefusal = null;
      const direct = reason === REASONS.directMerged && refusal === REASONS.mergeFailed;
      submission.failureReason = direct ? REASONS.directMergeFailed : refusal;
      this.fail(submission);
      return false;
    }
    this.conclude(submission, 'merged', reason);
    submission.queue.tipSha = this.core.random.hex(40);
    return true;
  }

  /**
   * Direct merge: a PR alone in the queue, never tested here and based on the target branch's tip, merges
   * at once (retesting it would test what its own checks already tested).
   */
  private mergeDirectly(queue: QueueRecord, order: Submission[]): boolean {
    if (queue.settings.directMergeMode !== 'always' || order.length !== 1) return false;
    const only = order[0]!;
    if (only.state !== 'pending' || only.position !== null || only.bisection) return false;
    // The service always knows the tip; untold, the emulator takes the base the code host said the PR has.
    const baseSha = this.core.infoOf(only).baseSha;
    if (baseSha === undefined || baseSha !== (queue.tipSha ?? baseSha)) return false;
    this.mergeInto(only, REASONS.directMerged);
    return true;
  }

  // ---------------------------------------------------------------------------------------------------
  // Failures

  /**
   * A PR (or a batch) in pending failure waits until every PR ahead of it in its lane has concluded (one
   * of them failing sends it back to be tested again, see invalidateRunsIncluding), then for
   * `pendingFailureDepth` runs built on top of it to finish (or none to be running). Then a single PR
   * fails, and a batch is bisected.
   */
  private settlePendingFailures(queue: QueueRecord): boolean {
    const order = this.order(queue);
    const seenRuns = new Set<TestRun>();
    let changed = false;
    for (const submission of order) {
      if (submission.state !== 'pending_failure' || !submission.queue.live.has(submission)) continue;
      const run = submission.run;
      if (run && seenRuns.has(run)) continue;
      if (run) seenRuns.add(run);
      const failed = run
        ? run.members.filter((m) => m.run === run && m.state === 'pending_failure')
        : [submission];
      if (!this.pendingFailureSettled(queue, order, failed)) continue;
      if (failed.length > 1) this.bisections.start(run!, failed);
      else this.fail(submission);
      changed = true;
    }
    return changed;
  }

  private pendingFailureSettled(queue: QueueRecord, order: Submission[], failed: Submission[]): boolean {
    const together = new Set(failed);
    const first = order.findIndex((s) => together.has(s));
    const targetsOf = (s: Submission) => this.core.targetsOf(s);
    const ahead = dependenciesAhead(order, first, unionOfTargets(failed.map(targetsOf)), targetsOf);
    if (ahead.some((s) => !together.has(s))) return false;
    const finished = Math.min(...failed.map((s) => s.finishedOnTop));
    return (
      finished >= queue.settings.pendingFailureDepth || !failed.some((s) => this.anyRunInProgressOnTopOf(s))
    );
  }

  private fail(submission: Submission): void {
    this.conclude(submission, 'failed', submission.failureReason ?? REASONS.testRunFailed);
    this.invalidateRunsIncluding(submission, REASONS.prerequisiteFailed);
  }

  private anyRunInProgressOnTopOf(submission: Submission): boolean {
    for (const run of submission.queue.liveRuns) {
      if (run.status === 'in_progress' && run.kind === 'main' && run.includes.has(submission)) return true;
    }
    return false;
  }

  /** Every PR testing, passed or pending failure goes back to pending; every run and bisection stops. */
  restartAll(queue: QueueRecord, reason: string): void {
    for (const bisection of [...queue.bisections]) this.bisections.abandon(bisection, reason);
    for (const run of [...queue.liveRuns]) {
      if (run.status === 'in_progress') this.endRun(run, 'cancelled', reason);
    }
    for (const submission of this.order(queue)) {
      if (submission.state === 'pending' && !submission.bisection) continue;
      this.bisections.leave(submission);
      this.sendBack(submission, reason);
    }
    queue.liveRuns.clear();
    this.step(queue);
  }

  /** Every run built on top of `culprit` no longer tests what will merge: its PRs go back to pending. */
  invalidateRunsIncluding(culprit: Submission, reason: string): void {
    const queue = culprit.queue;
    const bisections = new Set([...queue.bisections].filter((b) => b.includes.has(culprit)));
    for (const run of [...queue.liveRuns]) {
      if (!run.includes.has(culprit)) continue;
      if (run.status === 'in_progress') this.endRun(run, 'cancelled', reason);
      for (const member of run.members) {
        if (member.run === run && ACTIVE_STATES.has(member.state) && member.state !== 'pending') {
          this.bisections.leave(member);
          this.sendBack(member, reason, culprit);
        }
      }
      queue.liveRuns.delete(run);
    }
    for (const bisection of bisections) this.bisections.abandon(bisection, reason, culprit);
    for (const bisection of [...queue.bisections])
      this.bisections.dropGroupsBuiltOn(bisection, culprit, reason);
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
      this.startRun(queue, { kind: 'main', members: group, includes, bisection: null });
      i += group.length - 1;
      free--;
      changed = true;
    }
    return this.bisections.startRuns(queue) || changed;
  }

  /** The PRs to test together from `order[index]`, or undefined while a batch waits to fill up. */
  private groupFrom(queue: QueueRecord, order: Submission[], index: number): Submission[] | undefined {
    const first = order[index]!;
    const { batch, batchingMinSize, batchingMaxWaitTimeMinutes } = queue.settings;
    const alone = (s: Submission) => testsAlone(queue, s, this.core.targetsOf(s));
    if (!batch || alone(first)) return [first];
    const group = [first];
    for (let j = index + 1; j < order.length && group.length < batchingMinSize; j++) {
      const next = order[j]!;
      if (next.state !== 'pending' || next.bisection || alone(next)) break;
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

  private newRun(queue: QueueRecord, { kind, members, includes, bisection }: RunPlan): TestRun {
    const core = this.core;
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
      requiredStatuses: [...(queue.settings.requiredStatuses ?? DEFAULT_REQUIRED_STATUSES)],
      statusesFromQueue: queue.settings.requiredStatuses !== null,
      branch: `trunk-merge/pr-${members[0]!.prNumber}/${id}`,
      sha: core.random.hex(40),
      status: 'in_progress',
      reason: null,
      createdAt: core.clock.now(),
      finishedAt: null,
      stopTimers: () => undefined,
      bisection,
      testPrNumber: queue.settings.createPrsForTestingBranches ? core.nextTestPrNumber(queue.repo) : null,
    };
    queue.runs.set(id, run);
    queue.liveRuns.add(run);
    return run;
  }

  private startRun(queue: QueueRecord, plan: RunPlan): TestRun {
    const { members, includes } = plan;
    const core = this.core;
    const now = core.clock.now();
    const run = this.newRun(queue, plan);
    core.recordRun(run);
    for (const member of members) {
      member.run = run;
      member.verifiedByTestRun = run.id;
      member.testedSha = core.infoOf(member).headSha ?? null;
      member.firstTestStartedAt ??= now;
      if (member.position === null) member.position = nextPosition(queue);
      core.transition(member, 'testing');
    }

    // A testing timeout of 0 is none (v2's config says so).
    const timeoutMs = queue.settings.testingTimeoutMinutes * MINUTE_MS || Infinity;
    const timers: TimerHandle[] = [];
    if (timeoutMs !== Infinity) {
      timers.push(
        core.clock.at(now + timeoutMs, () => this.finishRun(run, 'failed', REASONS.testRunTimeout)),
      );
    }
    const refused = startRefusal(members);
    if (refused) timers.push(core.clock.at(now, () => this.finishRun(run, 'failed', refused)));
    else {
      const verdict = core.ciModel.verdict(
        repoKeyOf(queue.repo),
        members.map((s) => s.prNumber),
        includes.map((s) => s.prNumber),
        run.id,
      );
      if (verdict.result !== 'hang' && verdict.durationMs < timeoutMs) {
        const result = verdict.result;
        const reason = result === 'failed' ? REASONS.testRunFailed : null;
        timers.push(core.clock.at(now + verdict.durationMs, () => this.finishRun(run, result, reason)));
      }
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
    if (run.kind === 'bisection') this.bisections.runEnded(run, members, status, reason);
    else if (status === 'succeeded')
      for (const member of members) this.core.transition(member, 'tests_passed');
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
    this.core.ciModel.ended?.(run.id);
  }

  private countFinishedOnTop(run: TestRun): void {
    for (const below of run.includes) if (below.state === 'pending_failure') below.finishedOnTop++;
  }

  private failPending(member: Submission, reason: string | null): void {
    member.failureReason = reason ?? REASONS.testRunFailed;
    this.core.transition(member, 'pending_failure', member.failureReason);
  }

  // ---------------------------------------------------------------------------------------------------
  // Moving PRs

  /** Back to pending, keeping the PR's place in line; its run (if still testing for it) goes on without it. */
  sendBack(submission: Submission, reason: string, prerequisite?: Submission): void {
    this.detachFromRun(submission);
    this.core.transition(submission, 'pending', reason, prerequisite);
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
      if (run.bisection) this.bisections.endIfDone(run.bisection);
    }
    releaseIfDone(run);
  }

  /** Concludes a PR as merged, failed or cancelled. */
  conclude(submission: Submission, state: 'merged' | 'failed' | 'cancelled', reason: string | null): void {
    this.bisections.leave(submission);
    this.core.transition(submission, state, reason);
    if (submission.run) releaseIfDone(submission.run);
  }
}

/** Why a run cannot start for one of these PRs, as the code host would refuse it; null when it can. */
function startRefusal(members: readonly Submission[]): string | null {
  if (members.some((s) => s.info.draft)) return REASONS.draftNotAllowed;
  if (members.some((s) => s.info.mergeConflict)) return REASONS.mergeConflict;
  return null;
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

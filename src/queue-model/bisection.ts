// Bisection of failed batches: a batch whose pending failure settled is split in two, the first half
// tested on the batch's base and the second on top of the first (predictive); a failing group is split
// again until single PRs remain, the culprits. Groups that would repeat a failed combination may reuse
// that failure (bisection_skip_redundant_tests); passes are never reused.
import { releaseIfDone, type EngineCore } from './core.js';
import { bisectionConcurrencyOf } from './queue-config.js';
import { REASONS } from './reasons.js';
import type { Bisection, BisectionGroup, QueueRecord, RunStatus, Submission, TestRun } from './types.js';

/** What bisection needs of the scheduler's runs. */
export interface BisectionRuns {
  startRun(queue: QueueRecord, members: Submission[], includes: Submission[], bisection: Bisection): TestRun;
  /** A run record that no CI runs. */
  newRun(queue: QueueRecord, members: Submission[], includes: Submission[], bisection: Bisection): TestRun;
  endRun(run: TestRun, status: RunStatus, reason: string | null): void;
  failPending(member: Submission, reason: string | null): void;
  runsInProgress(queue: QueueRecord): number;
}

export class Bisections {
  constructor(
    private readonly core: EngineCore,
    private readonly runs: BisectionRuns,
  ) {}

  /** A batch whose pending failure settled is split to find the PRs that broke it. */
  start(run: TestRun, members: Submission[]): void {
    const bisection: Bisection = {
      id: this.core.random.uuid(),
      queue: run.queue,
      members: new Set(members),
      includes: new Set(run.includes),
      waiting: split(members, [...run.includes]),
      running: new Set(),
      cleared: new Set(),
    };
    run.queue.bisections.add(bisection);
    for (const member of members) {
      member.bisection = bisection;
      this.core.transition(member, 'pending', REASONS.bisectionRequired);
    }
    releaseIfDone(run);
  }

  /** A group passed (cleared, back in line), failed alone (the culprit) or failed together (split again). */
  runEnded(run: TestRun, members: Submission[], status: 'succeeded' | 'failed', reason: string | null) {
    const bisection = run.bisection!;
    bisection.running.delete(run);
    if (status === 'succeeded') {
      // Cleared: back in line at once, to be tested (and batched) anew; a pass is never reused.
      for (const member of members) {
        bisection.cleared.add(member);
        bisection.members.delete(member);
        member.bisection = null;
        this.core.transition(member, 'pending', REASONS.bisectionPassed);
      }
    } else if (members.length === 1) {
      members[0]!.bisection = null;
      bisection.members.delete(members[0]!);
      this.runs.failPending(members[0]!, reason);
    } else {
      bisection.waiting.unshift(...split(members, [...run.includes]));
      for (const member of members) this.core.transition(member, 'pending', REASONS.bisectionRequired);
    }
    this.endIfDone(bisection);
  }

  /** A bisection with no group left to test ends; PRs still in it wait in line, to be tested anew. */
  endIfDone(bisection: Bisection): void {
    if (bisection.waiting.length === 0 && bisection.running.size === 0) this.end(bisection);
  }

  private end(bisection: Bisection): void {
    for (const member of bisection.members) if (member.bisection === bisection) member.bisection = null;
    bisection.queue.bisections.delete(bisection);
  }

  /** Stops a bisection whose base no longer holds (`reason`): its PRs go back to the line. */
  abandon(bisection: Bisection, reason: string, prerequisite?: Submission): void {
    for (const run of [...bisection.running]) {
      if (run.status === 'in_progress') this.runs.endRun(run, 'cancelled', reason);
      run.queue.liveRuns.delete(run);
      for (const member of run.members) {
        if (member.run === run && member.state === 'testing') {
          this.core.transition(member, 'pending', reason, prerequisite);
        }
      }
    }
    bisection.running.clear();
    bisection.waiting = [];
    this.end(bisection);
  }

  /** Takes a PR out of a bisection it is part of (it was cancelled or restarted). */
  leave(submission: Submission): void {
    const bisection = submission.bisection;
    if (!bisection) return;
    submission.bisection = null;
    bisection.members.delete(submission);
    bisection.cleared.delete(submission);
    bisection.waiting = bisection.waiting
      .map((group) => ({ ...group, members: group.members.filter((s) => s !== submission) }))
      .filter((group) => group.members.length > 0);
    this.endIfDone(bisection);
  }

  /** Groups of a bisection waiting to test on top of `culprit` go back to the line, out of the bisection. */
  dropGroupsBuiltOn(bisection: Bisection, culprit: Submission, reason: string): void {
    const dropped = bisection.waiting.filter((group) => group.includes.includes(culprit));
    if (dropped.length === 0) return;
    bisection.waiting = bisection.waiting.filter((group) => !dropped.includes(group));
    for (const member of dropped.flatMap((group) => group.members)) {
      this.leave(member);
      this.core.transition(member, 'pending', reason, culprit);
    }
  }

  /**
   * Starts the waiting groups of each bisection, each on top of the groups before it (predictive). With
   * `bisection_skip_redundant_tests`, a group whose run would repeat a combination that already failed
   * is not run: once the groups it is built on have passed, that failure is reused for it.
   */
  startRuns(queue: QueueRecord): boolean {
    let changed = false;
    // A bisection concurrency of 0 shares the testing concurrency (v2's config says so).
    let free =
      (bisectionConcurrencyOf(queue) || queue.settings.concurrency) - this.runs.runsInProgress(queue);
    const skipRedundant = queue.settings.optimizationMode === 'bisection_skip_redundant_tests';
    for (const bisection of [...queue.bisections]) {
      for (const group of [...bisection.waiting]) {
        if (!queue.bisections.has(bisection) || !bisection.waiting.includes(group)) continue;
        if (group.redundant && skipRedundant) {
          const builtOnPasses = group.includes.every(
            (s) => bisection.includes.has(s) || bisection.cleared.has(s),
          );
          if (!builtOnPasses) continue;
          bisection.waiting.splice(bisection.waiting.indexOf(group), 1);
          this.failByOptimization(queue, bisection, group);
          changed = true;
        } else if (free > 0) {
          bisection.waiting.splice(bisection.waiting.indexOf(group), 1);
          bisection.running.add(this.runs.startRun(queue, group.members, group.includes, bisection));
          free--;
          changed = true;
        }
      }
    }
    return changed;
  }

  /** Concludes a redundant group as failed without testing it, as the run it repeats failed. */
  private failByOptimization(queue: QueueRecord, bisection: Bisection, group: BisectionGroup): void {
    const run = this.runs.newRun(queue, group.members, group.includes, bisection);
    for (const member of group.members) {
      member.run = run;
      member.verifiedByTestRun = run.id;
    }
    run.status = 'failed';
    run.reason = REASONS.failedByOptimization;
    run.finishedAt = run.createdAt;
    this.core.recordRun(run);
    this.runEnded(run, group.members, 'failed', REASONS.failedByOptimization);
    releaseIfDone(run);
  }
}

/**
 * A failed group's two halves: the first on the group's base, the second on top of the first (predictive),
 * which repeats the combination that failed.
 */
function split(members: Submission[], base: Submission[]): BisectionGroup[] {
  const middle = Math.ceil(members.length / 2);
  const first = members.slice(0, middle);
  return [
    { members: first, includes: base, redundant: false },
    { members: members.slice(middle), includes: [...base, ...first], redundant: true },
  ];
}

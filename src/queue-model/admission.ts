// Two rules of a graph-mode (parallel) queue about which PRs the scheduler considers and how it groups
// them. Admission: the line holds at most `admissionCap` PRs; ready PRs past it wait, pending, to be
// admitted by priority then arrival as PRs leave the line. The cap is soft: an urgent PR is admitted past
// it. Isolation: a PR with a target an isolate batching rule names is tested alone, like `noBatch`.
import type { QueueRecord, Submission, Targets } from './types.js';

/** Whether an isolate rule's pattern (a target, or a prefix ending in one `*`) names `target`. */
function targetPatternMatches(pattern: string, target: string): boolean {
  return pattern.endsWith('*') ? target.startsWith(pattern.slice(0, -1)) : target === pattern;
}

/**
 * Whether a PR with `targets` is tested alone by the queue's isolate rules: graph mode only (the rules
 * need impacted targets); `ALL` impacts every target, so any rule names it.
 */
export function isolatedByRules(queue: QueueRecord, targets: Targets): boolean {
  const patterns = queue.isolateTargets;
  if (queue.mode !== 'parallel' || patterns.length === 0) return false;
  if (targets === 'ALL') return true;
  return targets.some((target) => patterns.some((pattern) => targetPatternMatches(pattern, target)));
}

/** Whether a PR is tested alone while the queue batches: it asked not to be batched, or a rule isolates it. */
export function testsAlone(queue: QueueRecord, submission: Submission, targets: Targets): boolean {
  return submission.noBatch || isolatedByRules(queue, targets);
}

/** How many PRs the line may hold before ready PRs wait for admission (none in single mode). */
export function admissionRoom(queue: QueueRecord, inLine: number): number {
  if (queue.mode !== 'parallel' || queue.admissionCap === undefined) return Infinity;
  return queue.admissionCap - inLine;
}

/** Ready PRs not yet admitted into the line, in the order they will be: by priority, then arrival. */
export function awaitingAdmission(queue: QueueRecord): Submission[] {
  const waiting: Submission[] = [];
  for (const submission of queue.live) {
    if (submission.state === 'pending' && !submission.admitted) waiting.push(submission);
  }
  return waiting.sort((a, b) => a.placedPriority - b.placedPriority || a.seq - b.seq);
}

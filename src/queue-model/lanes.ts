// Queue order and lanes. In parallel mode two PRs share a lane when their impacted targets overlap
// (`ALL` overlaps every non-empty list; `[]` overlaps nothing, except that every PR behind an `ALL` PR
// waits for it, an empty list included); in single mode everything overlaps.
// Scans keep a running union of targets, so each costs O(PRs scanned x targets per PR): never quadratic.
import type { Submission, Targets } from './types.js';

/** A growing union of targets. */
export class TargetUnion {
  private all = false;
  private readonly names = new Set<string>();

  static of(targets: Targets): TargetUnion {
    const union = new TargetUnion();
    union.add(targets);
    return union;
  }

  /** Whether `targets` share a target with the union (`ALL` shares with any non-empty list). */
  overlaps(targets: Targets): boolean {
    if (targets === 'ALL') return this.all || this.names.size > 0;
    if (targets.length === 0) return false;
    if (this.all) return true;
    for (const name of targets) if (this.names.has(name)) return true;
    return false;
  }

  /** Whether a PR with `targets` behind the union's PRs must wait for them: overlap, or an `ALL` ahead. */
  holdsBack(targets: Targets): boolean {
    return this.all || this.overlaps(targets);
  }

  add(targets: Targets): void {
    if (targets === 'ALL') this.all = true;
    else if (!this.all) for (const name of targets) this.names.add(name);
  }
}

/**
 * The order of the line: PRs already placed (testing started) first, then by the priority each entered
 * the line with, first in first out.
 */
export function compareInLine(a: Submission, b: Submission): number {
  if (a.position !== null && b.position !== null) return a.position - b.position;
  if (a.position !== null) return -1;
  if (b.position !== null) return 1;
  return a.placedPriority - b.placedPriority || a.seq - b.seq;
}

/**
 * The PRs ahead of `order[index]` that its test run must include: those it overlaps, and, transitively,
 * those they overlap (scanning backwards, an earlier PR joins when it overlaps anything already joined).
 */
export function dependenciesAhead(
  order: readonly Submission[],
  index: number,
  targets: Targets,
  targetsOf: (submission: Submission) => Targets,
): Submission[] {
  return overlapping(order, index, -1, targets, targetsOf).reverse();
}

/** The PRs behind `order[index]` whose test runs would include it (the mirror of dependenciesAhead). */
export function dependentsBehind(
  order: readonly Submission[],
  index: number,
  targets: Targets,
  targetsOf: (submission: Submission) => Targets,
): Submission[] {
  return overlapping(order, index, 1, targets, targetsOf);
}

/** Walks away from `order[index]` in one direction, collecting what overlaps the growing union. */
function overlapping(
  order: readonly Submission[],
  index: number,
  step: 1 | -1,
  targets: Targets,
  targetsOf: (submission: Submission) => Targets,
): Submission[] {
  const union = TargetUnion.of(targets);
  const found: Submission[] = [];
  for (let i = index + step; i >= 0 && i < order.length; i += step) {
    const candidate = order[i]!;
    const candidateTargets = targetsOf(candidate);
    const joins =
      step === 1
        ? union.holdsBack(candidateTargets)
        : candidateTargets === 'ALL' || union.overlaps(candidateTargets);
    if (!joins) continue;
    found.push(candidate);
    union.add(candidateTargets);
  }
  return found;
}

export function unionOfTargets(all: Iterable<Targets>): Targets {
  const names: string[] = [];
  const seen = new Set<string>();
  for (const targets of all) {
    if (targets === 'ALL') return 'ALL';
    for (const name of targets) {
      if (seen.has(name)) continue;
      seen.add(name);
      names.push(name);
    }
  }
  return names;
}

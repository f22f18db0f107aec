// Why a PR is NOT_READY: each readiness signal that holds it back, and what to do about it.
import type { PullRequestEntry } from './lookup.js';
import { shortSha } from './lookup.js';

export interface Blocker {
  /** What holds the PR back, in a few words. */
  signal: string;
  /** What to do about it. */
  fix: string;
}

export function notReadyBlockers(entry: PullRequestEntry | undefined, targetBranch?: string): Blocker[] {
  const readiness = entry?.readiness;
  if (!readiness) return [];
  const blockers: Blocker[] = [];
  if (readiness.requiresImpactedTargets && !readiness.hasImpactedTargets) {
    blockers.push({
      signal: `impacted targets are missing for head sha ${shortSha(entry?.prSha) || '(unknown)'}`,
      fix: 'run the job that uploads them (operation set-impacted-targets) for this head sha',
    });
  }
  if (readiness.doesBaseBranchMatch === false) {
    const base = typeof entry?.prBaseBranch === 'string' ? entry.prBaseBranch : 'another branch';
    blockers.push({
      signal: `its base branch ${base} is not the queue's branch${targetBranch ? ` ${targetBranch}` : ''}`,
      fix: 'retarget the PR to the queue’s branch, or submit it to the queue of its base branch',
    });
  }
  const mergeability = String(readiness.gitHubMergeability ?? '').toLowerCase();
  if (mergeability === 'not_mergeable') {
    blockers.push({
      signal: 'GitHub says it is not mergeable',
      fix: 'resolve its merge conflicts or the branch protection rule that blocks it',
    });
  } else if (mergeability === 'in_progress' || mergeability === 'unspecified') {
    blockers.push({
      signal: 'GitHub has not worked out yet whether it is mergeable',
      fix: 'wait a moment; this clears by itself unless GitHub is slow',
    });
  }
  return blockers;
}

export function describeBlockers(blockers: Blocker[]): string {
  return blockers.map((b) => `${b.signal}: ${b.fix}`).join('; ');
}

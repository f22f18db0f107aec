// What changed between two looks at a waiting PR: whether it stepped back in line, and why. The service
// does not say why a PR went back to PENDING; what the two looks show usually does (an urgent PR now
// ahead, a PR ahead that left the line failed, a new head sha).
import type { LineView } from './line-view.js';
import type { PullRequestEntry } from './lookup.js';
import { shortSha } from './lookup.js';

export interface Observation {
  atMs: number;
  state: string;
  entry?: PullRequestEntry;
  line?: LineView;
}

const IN_TESTING = new Set(['testing', 'tests_passed', 'pending_failure']);

export function steppedBack(previous: Observation, current: Observation): boolean {
  if (IN_TESTING.has(previous.state) && current.state === 'pending') return true;
  if (shaChanged(previous, current) && current.state !== 'merged') return true;
  const before = previous.line?.position;
  const now = current.line?.position;
  return before !== undefined && now !== undefined && now > before;
}

function shaChanged(previous: Observation, current: Observation): boolean {
  const before = previous.entry?.prSha;
  const now = current.entry?.prSha;
  return typeof before === 'string' && typeof now === 'string' && before !== now;
}

/** PRs that were ahead at the previous look and are no longer in the line. */
export function leftTheLine(previous: Observation, current: Observation): number[] {
  const inLine = new Set(current.line ? current.line.ahead.map((pr) => pr.prNumber) : []);
  if (current.line?.position === undefined) return [];
  return (previous.line?.ahead ?? []).map((pr) => pr.prNumber).filter((n) => !inLine.has(n));
}

/**
 * Why the PR stepped back. `fates` holds the state of each PR that left the line (looked up by the
 * caller), so that a PR that merged is not blamed.
 */
export function stepBackReasons(
  previous: Observation,
  current: Observation,
  fates: ReadonlyMap<number, string>,
): string[] {
  const reasons: string[] = [];
  const said = serviceReason(current.entry);
  if (said) reasons.push(`the service says ${said}`);
  if (shaChanged(previous, current)) {
    reasons.push(
      `its head sha changed (${shortSha(previous.entry?.prSha)} → ${shortSha(current.entry?.prSha)}), so it is tested again`,
    );
  }
  const aheadBefore = new Set((previous.line?.ahead ?? []).map((pr) => pr.prNumber));
  for (const pr of current.line?.ahead ?? []) {
    if (pr.urgent && !aheadBefore.has(pr.prNumber)) reasons.push(`urgent PR #${pr.prNumber} jumped ahead`);
  }
  for (const [prNumber, fate] of fates) {
    if (fate === 'failed' || fate === 'pending_failure') {
      reasons.push(`PR #${prNumber} ahead of it failed, so the run built on it restarted`);
    } else if (fate === 'cancelled') {
      reasons.push(`PR #${prNumber} ahead of it was cancelled, so the run built on it restarted`);
    }
  }
  if (!reasons.length) {
    reasons.push('the service did not say why (a restart by someone, or a failed batch being bisected)');
  }
  return reasons;
}

/** The service names a reason in different fields across versions; whichever is present. */
export function serviceReason(entry: PullRequestEntry | undefined): string {
  for (const field of ['stateReason', 'failureReason', 'cancellationReason', 'reason']) {
    const value = entry?.[field];
    if (typeof value === 'string' && value) return value.slice(0, 200);
  }
  return '';
}

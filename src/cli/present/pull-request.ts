// A PR in a terminal: the outcome in one line ("Merged after 12m: PR #23 → main of acme/widgets"), then
// its state, place in line and what it waits for, the path it took through the queue, the PRs ahead of
// it, and the checks that failed.
import {
  formatDuration,
  notReadyBlockers,
  outcomeWords,
  placeInLine,
  plural,
  type PrReport,
  type PullRequestActionDetails,
  type PullRequestDetails,
  queueTime,
  reasonOf,
  shortSha,
} from '../../core/index.js';
import type { Cell, Page } from './page.js';
import { prStateTone, type Tone } from './style.js';

const OUTCOME_TONES: Record<PrReport['outcome'], Tone> = {
  merged: 'good',
  tests_passed: 'good',
  failed: 'bad',
  cancelled: 'strong',
  timed_out: 'waiting',
  in_queue: 'waiting',
  not_submitted: 'bad',
};

const AHEAD_SHOWN = 10;
/** A check's address is shown whole (a terminal makes it a link); the service caps it at 2,000. */
const URL_MAX = 2000;

export function presentPullRequest(page: Page, details: PullRequestDetails): void {
  const { report, branch } = details;
  const entry = report.entry;
  page.outcome(
    `${outcomeWords(report)}: PR #${details.prNumber} → ${branch} of ${details.repo}`,
    OUTCOME_TONES[report.outcome],
  );
  const state = typeof entry?.state === 'string' ? entry.state.toUpperCase() : '';
  // The checks' addresses are in their own table below, whole; here they would be cut.
  const reason = reasonOf(report, branch, false);
  page.facts([
    ['Title', typeof entry?.prTitle === 'string' ? entry.prTitle : undefined],
    ['State', state ? { text: state, tone: prStateTone(state) } : undefined],
    ['Place in line', place(report)],
    ['Waits for', waitsFor(report, branch)],
    ['Why', reason || undefined],
    ['Priority', typeof entry?.priorityName === 'string' ? entry.priorityName.toLowerCase() : undefined],
    ['Head sha', shortSha(entry?.prSha) || undefined],
    ['Path', path(report)],
    ['In the queue', report.transitions.length > 1 ? formatDuration(queueTime(report)) : undefined],
    ['Waited', report.waitFor && `${formatDuration(report.waitedMs)} for ${report.waitFor.toUpperCase()}`],
    ['Clocks', clockNote(report)],
    [
      'Already queued',
      details.alreadyQueued ? 'yes: the service had it in line before this step' : undefined,
    ],
  ]);
  if (report.headShaMismatch) page.note(report.headShaMismatch, 'waiting');
  const ahead = report.line?.ahead ?? [];
  if (ahead.length && report.outcome === 'in_queue') {
    page.table(
      `Ahead of it (${ahead.length})`,
      [{ title: 'PR', align: 'right' }, { title: 'State' }, { title: 'Priority' }],
      ahead.slice(0, AHEAD_SHOWN).map((pr) => [
        `#${pr.prNumber}`,
        { text: pr.state.toUpperCase(), tone: prStateTone(pr.state) },
        // As the PR's own Priority fact says it: "medium", not 100.
        pr.urgent ? 'urgent' : (pr.priorityName ?? pr.priorityValue ?? ''),
      ]),
      ahead.length,
    );
  }
  const checks = report.testRun?.failing ?? [];
  if (checks.length) {
    page.table(
      'Failing checks',
      [{ title: 'Check', max: 40 }, { title: 'Conclusion' }, { title: 'Link', max: URL_MAX }],
      checks.map((check) => [check.name, { text: check.conclusion, tone: 'bad' }, check.url ?? '']),
    );
  }
}

function place(report: PrReport): string | undefined {
  const where = placeInLine(report);
  if (!where || !report.line) return undefined;
  const ahead = report.line.ahead.length;
  const queue =
    report.line.queueState && report.line.queueState !== 'running'
      ? `; the queue is ${report.line.queueState}`
      : '';
  return `${where} (${ahead ? `${plural(ahead, 'PR')} ahead` : 'first'})${queue}`;
}

/** What the PR waits for now, in words; nothing once it has left the queue. */
function waitsFor(report: PrReport, branch: string): Cell | undefined {
  if (report.outcome !== 'in_queue' && report.outcome !== 'timed_out') return undefined;
  const blockers = notReadyBlockers(report.entry, branch);
  if (blockers.length) return { text: blockers.map((b) => b.signal).join('; '), tone: 'waiting' };
  const state = typeof report.entry?.state === 'string' ? report.entry.state.toLowerCase() : '';
  if (report.line?.queueState === 'paused') return { text: 'the queue to be resumed', tone: 'waiting' };
  const ahead = report.line?.ahead.length ?? 0;
  switch (state) {
    case 'pending':
      return ahead ? `${plural(ahead, 'PR')} ahead to be tested` : 'a testing slot';
    case 'testing':
      return 'its tests to finish';
    case 'tests_passed':
      return ahead ? `${plural(ahead, 'PR')} ahead to merge` : 'to be merged';
    case 'pending_failure':
      return { text: 'the PRs ahead: it failed, and is retested if one of them caused it', tone: 'bad' };
    case 'not_ready':
      return 'the service to see it ready';
    default:
      return undefined;
  }
}

/**
 * The wait is timed by this machine's clock, the queue's times by the service's: when the service's ran
 * much faster (the emulator's does), say so, or "in the queue 10m" and "waited 11s" seem to disagree.
 */
function clockNote(report: PrReport): string | undefined {
  const serviceMs = report.endedMs - report.startedMs;
  const ratio = report.waitFor && report.waitedMs >= 1000 ? serviceMs / report.waitedMs : 0;
  if (ratio < 2) return undefined;
  return `${formatDuration(serviceMs)} passed on the service's clock, which runs ${Math.round(ratio)}x fast (as the emulator's does)`;
}

/** "PENDING 2s → TESTING 5m → MERGED": the states seen while waiting and how long each lasted. */
function path(report: PrReport): string | undefined {
  const { transitions } = report;
  if (transitions.length < 2) return undefined;
  return transitions
    .map((t, i) => {
      const next = transitions[i + 1];
      const state = t.state.toUpperCase();
      return next ? `${state} ${formatDuration(next.atMs - t.atMs)}` : state;
    })
    .join(' → ');
}

/** A write on one PR in one line (what, which PR and queue, by whom), then why and what happens next. */
export function presentPullRequestAction(page: Page, details: PullRequestActionDetails): void {
  const by = details.by ? `, by ${details.by}` : '';
  page.outcome(
    `${details.done} PR #${details.prNumber} in the merge queue for ${details.branch} of ${details.repo}${by}`,
    'good',
  );
  page.facts([['Reason', details.reason]]);
  page.note(details.next);
}

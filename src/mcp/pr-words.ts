// The server's own sentences about a PR: why it is where it is, what it waits for, what to do next. They
// are made of states and numbers only, never of text from the PR or the service, so that nothing an author
// writes in a title or a check name can pose as the server's advice.
import { type PrReport, stateOutput } from '../core/index.js';
import { PR_STATES } from '../wire/index.js';

/** Where a PR is, as the agent is told it. */
export const SITUATIONS = ['never_queued', 'in_queue', 'left_queue', 'merged'] as const;
export type Situation = (typeof SITUATIONS)[number];

export interface PrFacts {
  report: PrReport;
  situation: Situation;
  failingChecks: number;
  blockers: number;
}

/** Reasons the service spells as codes, in words; any other reason stays a data field only. */
const SERVICE_REASONS: Record<string, string> = {
  PR_PUSHED_TO: 'a new commit was pushed to it while it was queued',
  USER_REQUESTED: 'someone took it out of the queue',
  PR_CLOSED: 'it was closed',
  PR_CONVERTED_TO_DRAFT: 'it was turned into a draft',
  TEST_RUN_TIMEOUT: 'its tests ran past the queue’s testing timeout',
  TEST_RUN_REQUIRED_STATUS_FAILED: 'a required check of its test run failed',
};

export function reasonOf(prNumber: number, facts: PrFacts): string {
  const { report } = facts;
  const pr = `PR #${prNumber}`;
  const known = SERVICE_REASONS[String(report.entry?.stateReason ?? '').toUpperCase()];
  switch (facts.situation) {
    case 'never_queued':
      return `${pr} is not in this queue: it was never submitted to it.`;
    case 'merged':
      return `${pr} was merged by the queue.`;
    case 'left_queue': {
      const verb = report.outcome === 'failed' ? 'failed in the merge queue' : 'was cancelled';
      if (known) return `${pr} ${verb}: ${known}.`;
      if (facts.failingChecks) {
        return `${pr} ${verb}: ${plural(facts.failingChecks, 'required check')} of its test run failed (failingChecks has each with its link).`;
      }
      return `${pr} ${verb}; the service named no failing check.`;
    }
    default:
      return inQueueReason(pr, facts);
  }
}

function inQueueReason(pr: string, { report, blockers }: PrFacts): string {
  const state = knownState(report.entry?.state) || 'in the queue';
  if (blockers)
    return `${pr} is NOT_READY: ${plural(blockers, 'blocker')} hold it out of the line (see blockers).`;
  const position = report.line?.position;
  const place = position === undefined ? '' : ` at position ${position} of ${report.line!.length}`;
  return `${pr} is ${state}${place}.`;
}

export function waitingForOf(report: PrReport): string {
  const state = String(report.entry?.state ?? '').toLowerCase();
  const ahead = report.line?.ahead.length ?? 0;
  const paused = report.line?.queueState === 'paused' ? 'the queue to be resumed (it is paused), then ' : '';
  switch (state) {
    case 'not_ready':
      return `${paused}its blockers to clear, before it can enter the line`;
    case 'pending':
      return `${paused}a test slot: ${plural(ahead, 'PR')} ahead of it`;
    case 'testing':
      return `${paused}its test run to finish`;
    case 'tests_passed':
      return ahead ? `${paused}the ${plural(ahead, 'PR')} ahead of it to merge` : `${paused}being merged`;
    case 'pending_failure':
      return `${paused}the runs built on top of it to finish: its own run failed, and it fails unless one of them vouches for it`;
    default:
      return `${paused}the queue to move`;
  }
}

export function nextStepOf(facts: PrFacts, canSubmit: boolean): string {
  const submit = (again: string) =>
    canSubmit
      ? `submit it${again} with submit_pr`
      : `ask the user to submit it${again} (this server was not granted submit_pr)`;
  switch (facts.situation) {
    case 'never_queued':
      return `When it is ready to merge, ${submit('')}.`;
    case 'merged':
      return 'Nothing: it is merged.';
    case 'left_queue':
      return facts.report.outcome === 'failed'
        ? `Call explain_failure for a verdict, fix what the failing check reports, then ${submit(' again')}.`
        : `When it is ready, ${submit(' again')}.`;
    default:
      if (facts.blockers) return 'Fix what each blocker names; the PR then enters the line by itself.';
      if (facts.report.line?.queueState === 'paused') {
        return 'Nothing to do from here: the queue is paused until its admins resume it; wait_for_pr keeps watching.';
      }
      return 'Nothing to do: call wait_for_pr to block until it is merged or leaves the queue.';
  }
}

/** A state the API defines, as the outputs spell it; '' for anything else the service might send. */
export function knownState(state: unknown): string {
  const value = String(state ?? '').toLowerCase();
  return (PR_STATES as readonly string[]).includes(value) ? stateOutput(value) : '';
}

export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

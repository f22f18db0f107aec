// Pull request operations: submit, cancel, restart, look up (optionally waiting for a state), and the
// testing details of a merge-queue test run.
import type { ApiResponse } from '../../api/client.js';
import { ApiError } from '../../api/errors.js';
import { nameOf, words } from '../../words.js';
import { realClock } from '../../clock.js';
import {
  LOWEST_PRIORITY,
  PRIORITY_NAMES,
  TERMINAL_PR_STATES,
  enumValue,
  type PrState,
  type PriorityName,
  type TestingDetails,
} from '../../../wire/index.js';
import { filledColumns } from '../../report/filled-columns.js';
import { Markdown, codeSpan, escapeCell, escapeMarkdown, link } from '../../report/markdown.js';
import { filled } from '../../report/filled.js';

import {
  detailsKind,
  pullRequestUrl,
  queueRef,
  rawResponse,
  repoSlug,
  requirePrNumber,
  stateOutput,
} from '../common.js';
import type { Operation, OperationContext, OperationResult, OutputValue } from '../types.js';
import type { PullRequestActionDetails } from './details.js';
import { readTestRun, testRunReport } from './failing-checks.js';
import type { TestRunReport } from './test-run-report.js';
import { InputError } from '../../errors.js';
import type { PullRequestSettings } from './inputs.js';
import { readLine } from './line.js';
import { lookUp, prRequest, runTitle, type PullRequestEntry } from './lookup.js';
import { notificationHeadline, notifyEnd } from './notify.js';
import { cancelledBy, cancelledNextStep, outcomeLine, prSummary, reasonOf } from './summary.js';
import { waitForState, type PrReport } from './wait.js';
import { submitDirect } from './v2/submit-direct.js';
import { v2Of } from './v2/access.js';
import { readHistoryStory } from './v2/history-report.js';

export const submitPullRequest: Operation<PullRequestSettings> = async (op) => {
  const { priority, noBatch, waitFor, direct } = op.settings;
  const request = { ...prRequest(op), priority, noBatch };
  let alreadyQueued = false;
  let response: ApiResponse | undefined;
  try {
    response = direct ? await submitDirect(op) : await op.client.call('submitPullRequest', request);
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 409)) throw error;
    alreadyQueued = true;
    response = undefined;
    op.log.info(`PR #${request.pr.number} is already in the queue for ${request.targetBranch}.`);
  }
  const { name, value } = describePriority(priority);
  const submitted: Record<string, OutputValue> = {
    response: alreadyQueued ? '' : rawResponse(response),
    'is-submitted': true,
    'already-queued': alreadyQueued,
    'priority-name': name,
    'priority-value': value,
  };
  const facts: [string, unknown][] = [
    ['Batching', noBatch ? 'tested alone (no-batch)' : 'allowed'],
    ...(direct ? [['Direct to queue', 'yes'] as [string, unknown]] : []),
    ['Already queued', alreadyQueued ? 'yes' : 'no'],
  ];
  if (!waitFor) {
    // One look after submitting: a PR that cannot enter the line says why at once.
    const report = await lookOnce(op);
    if (!report.entry) report.outcome = 'in_queue';
    const result = withAlreadyQueued(reportResult(op, report, facts), alreadyQueued);
    // Not yet visible counts as in the queue; one that merged at once (direct merge) is not.
    const inQueue = !report.entry || isInQueue(report.entry);
    return { ...result, outputs: { ...result.outputs, ...submitted, 'is-submitted': inQueue } };
  }
  const report = await waitForState(op, waitFor);
  const result = withAlreadyQueued(await finishWait(op, report, facts), alreadyQueued);
  // After waiting, the outputs describe the PR as the service last showed it.
  return { ...result, outputs: { ...submitted, ...result.outputs, 'already-queued': alreadyQueued } };
};

export const getSubmittedPullRequest: Operation<PullRequestSettings> = async (op) => {
  const { waitFor } = op.settings;
  if (waitFor) return finishWait(op, await waitForState(op, waitFor));
  return reportResult(op, await lookOnce(op));
};

/** One look at the PR and its place in line, as a report. */
async function lookOnce(op: OperationContext<PullRequestSettings>): Promise<PrReport> {
  const number = requirePrNumber(op.context);
  const { entry, response } = await lookUp(op);
  const now = response?.serverTimeMs ?? (op.clock ?? realClock).now();
  const state = enumValue(entry?.state);
  const terminal = TERMINAL_PR_STATES.includes(state as PrState);
  const line = entry && !terminal ? await readLine(op, number, (m) => op.log.warning(m)) : undefined;
  const report: PrReport = {
    outcome: !entry
      ? 'not_submitted'
      : state === 'merged'
        ? 'merged'
        : state === 'failed' || state === 'cancelled'
          ? state
          : 'in_queue',
    entry,
    response,
    line,
    transitions: [],
    stepBacks: [],
    pausedMs: 0,
    startedMs: now,
    endedMs: now,
    waitedMs: 0,
  };
  const access = entry ? v2Of(op) : undefined;
  const story = access ? await readHistoryStory(op, access) : undefined;
  if (story?.transitions.length) {
    Object.assign(report, story, { startedMs: Math.min(now, story.transitions[0]!.atMs) });
  }
  if (report.outcome === 'failed') {
    const testRunId = entry?.verifiedByTestRun;
    if (typeof testRunId === 'string' && testRunId) report.testRun = await readTestRun(op, testRunId);
  }
  // The reason names the PR itself ("PR #20 failed: ..."); without one, the outcome says it.
  const reason = reasonOf(report, op.context.targetBranch);
  (op.log.outcome ?? op.log.info)(reason || outcomeLine(report, `PR #${number}`));
  return report;
}

/** The outputs and summary of a report; a wait that did not reach its state fails the step. */
function reportResult(
  op: OperationContext<PullRequestSettings>,
  report: PrReport,
  facts: [string, unknown][] = [],
): OperationResult {
  return {
    outputs: reportOutputs(report, op.context.targetBranch),
    summary: prSummary(op, report, facts),
    details: {
      kind: 'pull-request',
      repo: repoSlug(op.context.repo),
      branch: op.context.targetBranch ?? '',
      prNumber: requirePrNumber(op.context),
      report,
    },
  };
}

function withAlreadyQueued(result: OperationResult, alreadyQueued: boolean): OperationResult {
  if (detailsKind(result) !== 'pull-request') return result;
  return { ...result, details: { ...result.details, alreadyQueued } };
}

async function finishWait(
  op: OperationContext<PullRequestSettings>,
  report: PrReport,
  facts: [string, unknown][] = [],
): Promise<OperationResult> {
  const result = reportResult(op, report, facts);
  const reached = report.outcome === 'merged' || report.outcome === 'tests_passed';
  const number = requirePrNumber(op.context);
  const notification = await notifyEnd(op, report);
  if (notification !== undefined) result.outputs.notification = notification;
  if (reached) return result;
  const reason = reasonOf(report, op.context.targetBranch);
  if (report.outcome === 'timed_out') {
    return {
      ...result,
      failure: words`${reason} Raise ${nameOf('wait-timeout-minutes')} to wait longer.`,
      failureTitle: waitRanOutTitle(report, number),
    };
  }
  if (report.outcome === 'cancelled') {
    return {
      ...result,
      failure: `PR #${number} was cancelled in the merge queue while waiting for ${stateOutput(report.waitFor)}: ${cancelledBy(report)}. Next: ${cancelledNextStep(report)}`,
      failureTitle: notificationHeadline(report, number),
      failureLevel: 'warning',
    };
  }
  const checks = report.testRun?.failing ?? [];
  // No address in the failure line: an annotation shows it as text; the summary links each check.
  const failed = checks.length
    ? `: ${checks.map((c) => `${c.name} concluded ${c.conclusion}`).join('; ')}${checks.some((c) => c.url) ? ' (the job summary links its logs)' : ''}`
    : '';
  return {
    ...result,
    failure: `PR #${number} ended ${stateOutput(report.outcome)} while waiting for ${stateOutput(report.waitFor)}${failed}. Fix what the check reports and submit the PR again.`,
    failureTitle: notificationHeadline(report, number),
  };
}

/** "The wait for MERGED ran out: PR #7 is still TESTING": what ran out, and where the PR was left. */
function waitRanOutTitle(report: PrReport, number: number): string {
  const state = report.entry?.state ? `is still ${stateOutput(report.entry.state)}` : 'is not in the queue';
  return `The wait for ${stateOutput(report.waitFor)} ran out: PR #${number} ${state}`;
}

function reportOutputs(report: PrReport, targetBranch?: string): Record<string, OutputValue> {
  const entry: PullRequestEntry | undefined = report.entry;
  return {
    response: rawResponse(report.response),
    'is-submitted': isInQueue(entry),
    state: stateOutput(entry?.state),
    'priority-name': typeof entry?.priorityName === 'string' ? entry.priorityName.toLowerCase() : '',
    'priority-value': typeof entry?.priorityValue === 'number' ? entry.priorityValue : '',
    reason: reasonOf(report, targetBranch),
    'failing-checks': JSON.stringify(report.testRun?.failing ?? []),
    position: report.line?.position ?? '',
    'prs-ahead': report.line?.position !== undefined ? report.line.ahead.length : '',
  };
}

/** In the queue: submitted and not yet merged, failed or cancelled (those have left it). */
function isInQueue(entry: PullRequestEntry | undefined): boolean {
  return entry !== undefined && !TERMINAL_PR_STATES.includes(enumValue(entry.state) as PrState);
}

export const cancelPullRequest: Operation<PullRequestSettings> = async (op) => {
  const response = await ifInQueue(op, () => op.client.call('cancelPullRequest', prRequest(op)));
  const next = 'The PR left the queue; submit it again to re-enter the line at the back.';
  return {
    outputs: { response: rawResponse(response) },
    summary: writeSummary(op, '⏹️ Cancelled in the merge queue').paragraph(next),
    details: actionDetails(op, 'Cancelled', next),
  };
};

export const restartTestsOnPullRequest: Operation<PullRequestSettings> = async (op) => {
  const response = await ifInQueue(op, () => op.client.call('restartTestsOnPullRequest', prRequest(op)));
  const next = 'The PR keeps its place in the queue; other PRs are not retested.';
  return {
    outputs: { response: rawResponse(response) },
    summary: writeSummary(op, '🔁 Tests restarted').paragraph(next),
    details: actionDetails(op, 'Restarted the tests of', next),
  };
};

function writeSummary(op: OperationContext<PullRequestSettings>, words: string): Markdown {
  const number = requirePrNumber(op.context);
  const summary = new Markdown().headingMarkdown(
    `${escapeMarkdown(words)}: ${link(`#${number}`, pullRequestUrl(op.context.repo, number))} → ${codeSpan(op.context.targetBranch ?? '')}`,
  );
  const { actor } = op.context;
  const { reason } = op.settings;
  if (actor || reason) {
    summary.paragraph(
      [actor && `By **${escapeMarkdown(actor)}**.`, reason && `Reason: ${escapeMarkdown(reason)}`]
        .filter(Boolean)
        .join(' '),
    );
  }
  return summary;
}

function actionDetails(
  op: OperationContext<PullRequestSettings>,
  done: string,
  next: string,
): PullRequestActionDetails {
  return {
    kind: 'pull-request-action',
    done,
    repo: repoSlug(op.context.repo),
    branch: op.context.targetBranch ?? '',
    prNumber: requirePrNumber(op.context),
    next,
    by: op.context.actor,
    reason: op.settings.reason,
  };
}

const RUN_ICONS: Record<string, string> = {
  succeeded: '✅',
  failed: '❌',
  cancelled: '🚫',
  in_progress: '🕒',
};

export const getMergeQueueTestingDetails: Operation<PullRequestSettings> = async (op) => {
  const testRunId = op.settings.testRunId ?? op.context.testRunId;
  if (!testRunId) {
    throw new InputError(
      'test-run-id',
      `is empty and event ${op.context.trigger} is not a push to a trunk-merge/pr-<N>/<id> branch`,
      'Set test-run-id to the id of the test run (the <id> of its branch, or verifiedByTestRun of the PR).',
    );
  }
  const response = await op.client.call('getMergeQueueTestingDetails', {
    ...queueRef(op.context),
    testRunId,
  });
  const details = response.answer;
  const report = testRunReport(testRunId, details);
  const tested = details.testedPullRequests;
  return {
    outputs: {
      response: rawResponse(response),
      'test-run-id': testRunId,
      'test-status': report.status ?? '',
      'test-branch': report.testBranch ?? '',
      'tested-pr-numbers': tested.map((pr) => pr.prNumber).join(','),
      'failing-checks': JSON.stringify(report.failing),
    },
    summary: testRunSummary(testRunId, details, report, tested),
  };
};

/** The run's outcome and first failed check, the PRs it tests, its checks, and the rest collapsed. */
function testRunSummary(
  testRunId: string,
  details: TestingDetails,
  report: TestRunReport,
  tested: TestingDetails['testedPullRequests'],
): Markdown {
  const status = report.status ?? 'unknown';
  const words = status === 'in_progress' ? 'Test run in progress' : `Test run ${status}`;
  const summary = new Markdown().headingMarkdown(
    `${RUN_ICONS[status] ?? '❔'} ${escapeMarkdown(words)}${report.testBranch ? ': ' : ' '}${runTitle({ testBranch: report.testBranch, testRunId, prNumbers: tested.map((pr) => pr.prNumber) })}`,
  );
  if (report.failing.length) {
    const first = report.failing[0]!;
    summary.alert(
      'CAUTION',
      `**${escapeMarkdown(first.name)}** concluded **${escapeMarkdown(first.conclusion)}**.${first.url ? ` ${link('Open the failed check →', first.url)}` : ''}`,
    );
  }
  const testedTable = filledColumns(
    ['Tested PR', 'Title'],
    tested.map((pr) => [link(`#${pr.prNumber}`, pr.prUrl), escapeMarkdown(filled(pr.title))]),
  );
  summary.table(testedTable.headers, testedTable.rows);
  const checkRuns = details.checkSuites.flatMap((suite) => suite.checkRuns);
  if (checkRuns.length) {
    summary.table(
      ['Check', 'Status', 'Conclusion'],
      checkRuns.map((run) => [
        link(run.name, run.url),
        escapeMarkdown(run.status),
        `${CONCLUSION_ICONS[enumValue(run.conclusion)] ?? ''} ${escapeMarkdown(run.conclusion ?? '')}`.trim(),
      ]),
    );
  }
  return summary.details('Everything the queue reported', reportedFields(testRunId, details, report));
}

function reportedFields(testRunId: string, details: TestingDetails, report: TestRunReport): string {
  const rows = [
    ['Test run', testRunId],
    ['Required statuses', details.requiredStatuses.join(', ') || 'none'],
    ['Dependent PRs', (details.dependentPrs ?? []).map((n) => `#${n}`).join(', ') || 'none'],
    ['Impacted targets of the tested PRs', (report.impactedTargetsForTestedPrs ?? []).join(', ') || 'none'],
  ];
  return new Markdown()
    .table(
      ['Field', 'Value'],
      rows.map(([key, value]) => [escapeMarkdown(key), escapeCell(value)]),
    )
    .toString()
    .trim();
}

const CONCLUSION_ICONS: Record<string, string> = {
  success: '✅',
  failure: '❌',
  timed_out: '❌',
  cancelled: '🚫',
};

// ---------------------------------------------------------------------------------------------------

/** Runs a write that the service refuses with 404/400 when the PR is not in the queue. */
async function ifInQueue(
  op: OperationContext<PullRequestSettings>,
  write: () => Promise<ApiResponse>,
): Promise<ApiResponse | undefined> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 400)) {
      const { pr, targetBranch } = prRequest(op);
      if (error.afterLostAnswer) {
        // The first attempt reached the service but its answer was lost: it is what took the PR out.
        op.log.info(`PR #${pr.number} is no longer in the queue: the attempt whose answer was lost did it.`);
        return undefined;
      }
      throw error.reworded(
        words`PR #${pr.number} is not in the merge queue of ${repoSlug(op.context.repo)} for ${targetBranch} (the API answered ${error.status ?? 0}). Check ${nameOf('pr-number')} and ${nameOf('target-branch')}, or submit it first.`,
      );
    }
    throw error;
  }
}

function describePriority(priority: PriorityName | number | undefined): { name: string; value: number } {
  if (priority === undefined) return { name: 'medium', value: PRIORITY_NAMES.medium };
  if (typeof priority === 'string') return { name: priority, value: PRIORITY_NAMES[priority] };
  const named = Object.entries(PRIORITY_NAMES).find(([, value]) => value === priority);
  return { name: named ? named[0] : priority === LOWEST_PRIORITY ? 'lowest' : 'custom', value: priority };
}

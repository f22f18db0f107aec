// Pull request operations: submit, cancel, restart, look up (optionally waiting for a state), and the
// testing details of a merge-queue test run.
import type { ApiResponse } from '../../api/client.js';
import { ApiError } from '../../api/errors.js';
import {
  LOWEST_PRIORITY,
  PRIORITY_NAMES,
  TERMINAL_PR_STATES,
  readPullRequest,
  type PrState,
  type PriorityName,
  type SubmittedPullRequest,
} from '../../../wire/index.js';
import { Markdown, escapeMarkdown, link } from '../../report/markdown.js';

import { pullRequestUrl, queueRef, rawResponse, repoSlug, requirePrNumber, stateOutput } from '../common.js';
import type { Operation, OperationContext, OperationResult, OutputValue } from '../types.js';
import type { PullRequestSettings, WaitFor } from './inputs.js';

type PullRequestEntry = Partial<SubmittedPullRequest> & Record<string, unknown>;

function prRequest(op: OperationContext<PullRequestSettings>) {
  return { ...queueRef(op.context), pr: { number: requirePrNumber(op.context) } };
}

type Fact = [string, unknown];

/** The job summary of a PR operation: a title, then one table of what was asked and what came back. */
function prSummary(op: OperationContext<PullRequestSettings>, title: string, facts: Fact[] = []): Markdown {
  const number = requirePrNumber(op.context);
  return new Markdown()
    .heading(title)
    .facts([
      [
        'Pull request',
        { markdown: link(`${repoSlug(op.context.repo)}#${number}`, pullRequestUrl(op.context.repo, number)) },
      ],
      ['Target branch', op.context.targetBranch],
      ...facts,
    ]);
}

export const submitPullRequest: Operation<PullRequestSettings> = async (op) => {
  const { priority, noBatch, waitFor } = op.settings;
  const request = { ...prRequest(op), priority, noBatch };
  let alreadyQueued = false;
  let response: ApiResponse | undefined;
  try {
    response = await op.client.submitPullRequest(request);
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 409)) throw error;
    alreadyQueued = true;
    response = undefined;
    op.log.info(`PR #${request.pr.number} is already in the queue for ${request.targetBranch}.`);
  }
  const { name, value } = describePriority(priority);
  const outputs: Record<string, OutputValue> = {
    response: alreadyQueued ? '' : rawResponse(response),
    'is-submitted': true,
    'already-queued': alreadyQueued,
    'priority-name': name,
    'priority-value': value,
  };
  const facts: Fact[] = [
    ['Priority', `${name} (${value})`],
    ['Batching', noBatch ? 'tested alone (no-batch)' : 'allowed'],
    ['Already queued', alreadyQueued ? 'yes' : 'no'],
  ];
  if (!waitFor) return { outputs, summary: prSummary(op, 'Submitted to the merge queue', facts) };
  const waited = await waitForState(op, waitFor);
  return {
    ...waited,
    // After waiting, the outputs describe the PR as the service last showed it.
    outputs: { ...outputs, ...waited.outputs, 'is-submitted': true, 'already-queued': alreadyQueued },
    summary: prSummary(op, 'Submitted to the merge queue', [...facts, ...entryFacts(waited.entry)]).paragraph(
      waitedLine(waited, waitFor),
    ),
  };
};

export const getSubmittedPullRequest: Operation<PullRequestSettings> = async (op) => {
  const { waitFor } = op.settings;
  if (waitFor) {
    const waited = await waitForState(op, waitFor);
    return { ...waited, summary: entrySummary(op, waited.entry).paragraph(waitedLine(waited, waitFor)) };
  }
  const { entry, response } = await lookUp(op);
  return { outputs: entryOutputs(entry, response), summary: entrySummary(op, entry) };
};

export const cancelPullRequest: Operation<PullRequestSettings> = async (op) => {
  const response = await ifInQueue(op, () => op.client.cancelPullRequest(prRequest(op)));
  return {
    outputs: { response: rawResponse(response) },
    summary: prSummary(op, 'Cancelled in the merge queue'),
  };
};

export const restartTestsOnPullRequest: Operation<PullRequestSettings> = async (op) => {
  const response = await ifInQueue(op, () => op.client.restartTestsOnPullRequest(prRequest(op)));
  return {
    outputs: { response: rawResponse(response) },
    summary: prSummary(op, 'Tests restarted in the merge queue').paragraph(
      'The PR keeps its place in the queue; other PRs are not retested.',
    ),
  };
};

export const getMergeQueueTestingDetails: Operation<PullRequestSettings> = async (op) => {
  const testRunId = op.settings.testRunId ?? op.context.testRunId;
  if (!testRunId) {
    throw new Error(
      `Input "test-run-id": is empty and event ${op.context.trigger} is not a push to a trunk-merge/pr-<N>/<id> branch. Set test-run-id to the id of the test run (the <id> of its branch, or verifiedByTestRun of the PR).`,
    );
  }
  const response = await op.client.getMergeQueueTestingDetails({ ...queueRef(op.context), testRunId });
  const details = (response.json ?? {}) as Record<string, unknown>;
  const tested = asArray(details.testedPullRequests) as {
    prNumber?: number;
    prUrl?: string;
    title?: string;
  }[];
  const checkRuns = asArray(details.checkSuites).flatMap((suite) =>
    asArray((suite as { checkRuns?: unknown }).checkRuns),
  ) as {
    name?: string;
    url?: string;
    status?: string;
    conclusion?: string;
  }[];
  const summary = new Markdown()
    .heading('Merge queue test run')
    .facts([
      ['Test run', testRunId],
      ['Test branch', details.testBranch],
      ['Status', details.status],
      ['Required statuses', asArray(details.requiredStatuses).join(', ') || 'none'],
      [
        'Dependent PRs',
        asArray(details.dependentPrs)
          .map((n) => `#${n}`)
          .join(', ') || 'none',
      ],
    ])
    .table(
      ['Tested PR', 'Title'],
      tested.map((pr) => [link(`#${pr.prNumber}`, pr.prUrl), escapeMarkdown(pr.title)]),
    );
  if (checkRuns.length) {
    summary.table(
      ['Check', 'Status', 'Conclusion'],
      checkRuns.map((run) => [
        link(run.name, run.url),
        escapeMarkdown(run.status),
        escapeMarkdown(run.conclusion),
      ]),
    );
  }
  return {
    outputs: {
      response: rawResponse(response),
      'test-run-id': testRunId,
      'test-status': typeof details.status === 'string' ? details.status.toLowerCase() : '',
      'test-branch': typeof details.testBranch === 'string' ? details.testBranch : '',
      'tested-pr-numbers': tested.map((pr) => pr.prNumber).join(','),
    },
    summary,
  };
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
      throw new Error(
        `PR #${pr.number} is not in the merge queue of ${repoSlug(op.context.repo)} for ${targetBranch} (the API answered ${error.status}${error.body ? `: ${error.body}` : ''}). Check pr-number and target-branch, or submit it first.`,
      );
    }
    throw error;
  }
}

/** getSubmittedPullRequest; a 404 is the answer "never submitted to this queue". */
async function lookUp(
  op: OperationContext<PullRequestSettings>,
): Promise<{ entry?: PullRequestEntry; response?: ApiResponse }> {
  try {
    const response = await op.client.getSubmittedPullRequest(prRequest(op));
    return { entry: readPullRequest(response.json), response };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return {};
    throw error;
  }
}

function entryOutputs(
  entry: PullRequestEntry | undefined,
  response: ApiResponse | undefined,
): Record<string, OutputValue> {
  return {
    response: rawResponse(response),
    'is-submitted': entry !== undefined,
    state: stateOutput(entry?.state),
    'priority-name': typeof entry?.priorityName === 'string' ? entry.priorityName.toLowerCase() : '',
    'priority-value': typeof entry?.priorityValue === 'number' ? entry.priorityValue : '',
  };
}

function entrySummary(
  op: OperationContext<PullRequestSettings>,
  entry: PullRequestEntry | undefined,
): Markdown {
  const summary = prSummary(op, 'Pull request in the merge queue', entryFacts(entry));
  return entry ? summary : summary.paragraph('This PR was never submitted to this queue.');
}

function entryFacts(entry: PullRequestEntry | undefined): Fact[] {
  if (!entry) return [];
  const readiness = entry.readiness;
  const facts: Fact[] = [
    ['State', stateOutput(entry.state)],
    ['Since', entry.stateChangedAt],
    ['Priority', `${entry.priorityName ?? ''} (${entry.priorityValue ?? ''})`],
    ['Head sha', entry.prSha],
    ['Title', entry.prTitle],
    ['Author', entry.prAuthor],
  ];
  if (readiness) {
    facts.push(
      ['Base branch matches', readiness.doesBaseBranchMatch],
      ['Mergeability', readiness.gitHubMergeability],
      [
        'Impacted targets',
        !readiness.requiresImpactedTargets
          ? 'not required'
          : readiness.hasImpactedTargets
            ? 'uploaded'
            : 'missing: upload them for the current head sha',
      ],
    );
  }
  facts.push(['Verified by test run', entry.verifiedByTestRun ?? 'none']);
  return facts;
}

interface WaitResult extends OperationResult {
  entry?: PullRequestEntry;
  reached: boolean;
}

/** Polls until the PR reaches `waitFor`, a terminal state, or wait-timeout-minutes runs out. */
async function waitForState(
  op: OperationContext<PullRequestSettings>,
  waitFor: WaitFor,
): Promise<WaitResult> {
  const { waitTimeoutMs, pollIntervalMs } = op.settings;
  const number = requirePrNumber(op.context);
  const giveUpAt = Date.now() + waitTimeoutMs;
  let lastState = '';
  for (;;) {
    const { entry, response } = await lookUp(op);
    const state = (entry?.state ?? '') as PrState | '';
    if (state !== lastState) {
      op.log.info(`PR #${number}: ${state ? stateOutput(state) : 'not in the queue'}${readinessNote(entry)}`);
      lastState = state;
    }
    const outputs = entryOutputs(entry, response);
    if (state === 'merged' || (waitFor === 'tests_passed' && state === 'tests_passed')) {
      return { outputs, entry, reached: true };
    }
    if (state && TERMINAL_PR_STATES.includes(state)) {
      const reason = reasonOf(entry);
      return {
        outputs,
        entry,
        reached: false,
        failure: `PR #${number} ended ${stateOutput(state)}${reason ? ` (${reason})` : ''} while waiting for ${stateOutput(waitFor)}.${testRunHint(entry)}`,
      };
    }
    if (Date.now() + pollIntervalMs > giveUpAt) {
      return {
        outputs,
        entry,
        reached: false,
        failure: `PR #${number} is still ${stateOutput(state) || 'not in the queue'} after ${formatDuration(waitTimeoutMs)}; raise wait-timeout-minutes to wait longer.`,
      };
    }
    await new Promise((resolve) => setTimeout(resolve, pollIntervalMs));
  }
}

function testRunHint(entry: PullRequestEntry | undefined): string {
  const run = entry?.verifiedByTestRun;
  return typeof run === 'string' && run
    ? ` Its last test run is ${run}: see it with operation get-merge-queue-testing-details and test-run-id ${run}.`
    : '';
}

function waitedLine(result: WaitResult, waitFor: WaitFor): string {
  return result.reached
    ? `Reached **${stateOutput(result.entry?.state)}**.`
    : `Did not reach ${stateOutput(waitFor)}: ${escapeMarkdown(result.failure)}`;
}

function readinessNote(entry: PullRequestEntry | undefined): string {
  const readiness = entry?.readiness;
  if (!readiness || entry?.state !== 'not_ready') return '';
  const waiting: string[] = [];
  if (readiness.doesBaseBranchMatch === false) waiting.push('its base branch differs from the queue');
  if (readiness.gitHubMergeability && readiness.gitHubMergeability !== 'mergeable') {
    waiting.push(`mergeability is ${readiness.gitHubMergeability}`);
  }
  if (readiness.requiresImpactedTargets && !readiness.hasImpactedTargets) {
    waiting.push('impacted targets are missing for its head sha');
  }
  return waiting.length ? ` (waiting: ${waiting.join('; ')})` : '';
}

/** The service names the reason in different fields across versions; show whichever is present. */
function reasonOf(entry: PullRequestEntry | undefined): string {
  for (const field of ['stateReason', 'failureReason', 'cancellationReason', 'reason']) {
    const value = entry?.[field];
    if (typeof value === 'string' && value) return value;
  }
  return '';
}

function describePriority(priority: PriorityName | number | undefined): { name: string; value: number } {
  if (priority === undefined) return { name: 'medium', value: PRIORITY_NAMES.medium };
  if (typeof priority === 'string') return { name: priority, value: PRIORITY_NAMES[priority] };
  const named = Object.entries(PRIORITY_NAMES).find(([, value]) => value === priority);
  return { name: named ? named[0] : priority === LOWEST_PRIORITY ? 'lowest' : 'custom', value: priority };
}

function formatDuration(ms: number): string {
  if (ms < 60_000) return `${Math.round(ms / 1000)} seconds`;
  const minutes = ms / 60_000;
  return `${Number.isInteger(minutes) ? minutes : minutes.toFixed(1)} minutes`;
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

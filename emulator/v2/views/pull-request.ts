// A pull request and its queue entry as v2 shows them, from the engine's PR record and its latest
// submission (v1's flat record split in two, per the migration guide's field renames).
import type { V2 } from '../../../src/wire/v2/index.js';
import { ACTIVE_STATES, UNKNOWN, type BlockReason, type Submission } from '../../../src/queue-model/index.js';
import type { PullRequestRef, V2Directory } from '../directory.js';
import { ENTRY_STATE, MERGEABILITY } from '../enums.js';
import { repositoryUrl } from './repository.js';
import { iso } from './time.js';

export function pullRequestUrl(ref: PullRequestRef): string {
  return `${repositoryUrl(ref.repo)}/pull/${ref.number}`;
}

export function queueEntryView(directory: V2Directory, submission: Submission): V2<'QueueEntry'> {
  const readiness = directory.engine.core.readiness(submission);
  const entry: V2<'QueueEntry'> = {
    id: submission.id,
    mergeQueueId: directory.queueId(submission.queue),
    state: ENTRY_STATE[submission.state],
    stateChangedAt: iso(submission.stateChangedAt),
    priorityValue: submission.priorityValue,
    priorityName: submission.priorityName,
    skipsTheLine: submission.skipTheLine,
    allowBatching: !submission.noBatch,
    direct: submission.direct,
    readiness: {
      requiresImpactedTargets: readiness.requiresImpactedTargets,
      hasImpactedTargets: readiness.hasImpactedTargets,
      doesBaseBranchMatch: readiness.doesBaseBranchMatch,
      mergeability: MERGEABILITY[readiness.gitHubMergeability],
      ...mergeabilityDetailsOf(submission),
    },
    createdAt: iso(submission.firstSubmittedAt),
    updatedAt: iso(submission.stateChangedAt),
  };
  if (submission.usedDefaultPriorityName) entry.usedDefaultPriorityName = submission.usedDefaultPriorityName;
  if (verifiedByPassedRun(submission)) entry.verifiedByVerificationRunId = submission.verifiedByTestRun!;
  return entry;
}

/** Why the code host will not merge it, when told (v2 reads it only while the PR is not mergeable). */
function mergeabilityDetailsOf(submission: Submission): Pick<V2<'Readiness'>, 'mergeabilityDetails'> {
  const { blockedBy, mergeability } = submission.info;
  if (blockedBy.length === 0 || mergeability !== 'not_mergeable') return {};
  return {
    mergeabilityDetails: {
      provider: 'github',
      reasons: blockedBy.map((reason) => ({
        code: reason.code,
        message: BLOCK_MESSAGES[reason.code],
        ...(reason.check !== undefined ? { check: reason.check } : {}),
      })),
    },
  };
}

const BLOCK_MESSAGES: Record<BlockReason['code'], string> = {
  conflict: 'The pull request conflicts with its base branch',
  behind: 'The pull request is behind its base branch',
  draft: 'The pull request is a draft',
  closed: 'The pull request is closed',
  pending: 'The code host is still working out whether it can merge',
  awaitingCheck: 'A required check has not finished',
  failingCheck: 'A required check failed',
  reviewRequired: 'An approving review is required',
  changesRequested: 'A reviewer requested changes',
  stackNeedsRebase: 'The stack below it must be rebased',
  other: 'The code host will not merge it',
};

/** Only a PR the queue merged from tests passed names the run whose pass merged it. */
function verifiedByPassedRun(submission: Submission): boolean {
  return (
    submission.state === 'merged' &&
    submission.concludedFrom === 'tests_passed' &&
    submission.verifiedByTestRun !== null
  );
}

/** Whether the PR is open, merged or closed, as far as the emulator knows (a cancel for PR_CLOSED closes it). */
function stateOf(submission: Submission | undefined): V2<'PullRequestState'> {
  if (submission?.state === 'merged') return 'merged';
  if (submission?.state === 'cancelled' && submission.reason === 'PR_CLOSED') return 'closed';
  return 'open';
}

/** The PR with its latest queue entry, or with `entry` (a queue's list shows each entry it had). */
export function pullRequestView(
  directory: V2Directory,
  ref: PullRequestRef,
  entry?: Submission,
): V2<'PullRequest'> {
  const { repo, number } = ref;
  const info = directory.engine.core.pullRequest(repo, number);
  const submission = entry ?? directory.latestSubmission(repo, number);
  const known = directory.pullRequest(repo, number);
  const url = pullRequestUrl(ref);
  const view: V2<'PullRequest'> = {
    id: known.id,
    repositoryId: directory.repositoryId(repo),
    number,
    title: info.title ?? UNKNOWN,
    branch: info.headBranch ?? UNKNOWN,
    sha: info.headSha ?? UNKNOWN,
    baseBranch: info.baseBranch ?? submission?.queue.branch ?? UNKNOWN,
    author: info.author ?? UNKNOWN,
    url,
    htmlUrl: url,
    state: stateOf(submission),
    isCurrentlySubmittedToQueue:
      submission !== undefined && (submission.state === 'not_ready' || ACTIVE_STATES.has(submission.state)),
    createdAt: iso(known.firstSeenAt),
  };
  if (submission) view.queueEntry = queueEntryView(directory, submission);
  return view;
}

/** A PR as a list read shows it: without `readiness.hasImpactedTargets`, which lists leave out. */
export function listRowOf(view: V2<'PullRequest'>): V2<'PullRequest'> {
  if (view.queueEntry) delete view.queueEntry.readiness.hasImpactedTargets;
  return view;
}

/** A PR as lists of PRs name it (order, batches, tested and dependent PRs). */
export function queuedPullRequestView(
  directory: V2Directory,
  submission: Submission,
): V2<'QueuedPullRequest'> {
  const ref = directory.pullRequest(submission.queue.repo, submission.prNumber);
  return {
    id: ref.id,
    number: submission.prNumber,
    sha: submission.info.headSha ?? UNKNOWN,
    title: submission.info.title ?? UNKNOWN,
    url: pullRequestUrl(ref),
  };
}

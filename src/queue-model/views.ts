// How the engine's records look on the wire.
import type { EnqueuedPullRequest, SubmittedPullRequest, TestingDetails } from '../wire/index.js';
import { ACTIVE_STATES, type EngineCore } from './core.js';
import { UNKNOWN, type Submission, type Targets, type TestRun } from './types.js';
import { unionOfTargets } from './lanes.js';

/** The statuses a test run reports when the queue has no required statuses of its own. */
export const DEFAULT_REQUIRED_STATUSES = ['emulated-ci/test'];

let lastMs = NaN;
let lastIso = '';
/** ISO 8601 of an instant; the last one is kept, as a client polling one PR asks for the same again and again. */
function iso(ms: number): string {
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastIso;
}

export function enqueuedView(core: EngineCore, submission: Submission): EnqueuedPullRequest {
  const info = core.infoOf(submission);
  const view: EnqueuedPullRequest = {
    id: submission.id,
    state: submission.state,
    stateChangedAt: iso(submission.stateChangedAt),
    priorityValue: submission.priorityValue,
    priorityName: submission.priorityName,
    skipTheLine: submission.skipTheLine,
    noBatch: submission.noBatch,
    prNumber: submission.prNumber,
    prTitle: info.title ?? UNKNOWN,
    prSha: info.headSha ?? UNKNOWN,
    prBaseBranch: info.baseBranch ?? submission.queue.branch,
    prAuthor: info.author ?? UNKNOWN,
  };
  if (submission.usedDefaultPriorityName) view.usedDefaultPriorityName = submission.usedDefaultPriorityName;
  return view;
}

/** The enqueued view with the fields only getSubmittedPullRequest has, added in place (its hot path). */
export function submittedView(core: EngineCore, submission: Submission): SubmittedPullRequest {
  return Object.assign(enqueuedView(core, submission), {
    readiness: core.readiness(submission),
    forceEnqueued: submission.direct,
    isCurrentlySubmittedToQueue: submission.state === 'not_ready' || ACTIVE_STATES.has(submission.state),
    verifiedByTestRun: submission.verifiedByTestRun,
  });
}

const RUN_STATUS_VIEW = {
  in_progress: { checkStatus: 'IN_PROGRESS', conclusion: undefined, state: 'PENDING' },
  succeeded: { checkStatus: 'COMPLETED', conclusion: 'SUCCESS', state: 'SUCCESS' },
  failed: { checkStatus: 'COMPLETED', conclusion: 'FAILURE', state: 'FAILURE' },
  cancelled: { checkStatus: 'COMPLETED', conclusion: 'CANCELLED', state: 'ERROR' },
} as const;

/** Where the simulated CI shows a test run (its check runs are jobs under it). */
export function testRunUrl(run: TestRun): string {
  const { host, owner, name } = run.queue.repo;
  return `https://${host}/${owner}/${name}/actions/runs/${parseInt(run.id.slice(0, 8), 16)}`;
}

export function testingDetailsView(core: EngineCore, run: TestRun): TestingDetails {
  const queue = run.queue;
  const { host, owner, name } = queue.repo;
  const statuses = run.requiredStatuses;
  const view = RUN_STATUS_VIEW[run.status];
  const checkUrl = (index: number) => `${testRunUrl(run)}/job/${index + 1}`;
  const targetsOf = (s: Submission) => core.targetsOf(s);
  return {
    requiredStatuses: [...statuses],
    requiredStatusesSource: run.statusesFromQueue ? 'merge_instance' : 'repo_provider_branch_protection',
    testBranch: run.branch,
    testBranchSha: run.sha,
    createdAt: iso(run.createdAt),
    status: run.status,
    checkSuites: [
      {
        checkRuns: statuses.map((status, index) => ({
          name: status,
          url: checkUrl(index),
          status: view.checkStatus,
          ...(view.conclusion ? { conclusion: view.conclusion } : {}),
        })),
      },
    ],
    statusChecks: statuses.map((context, index) => ({ context, url: checkUrl(index), state: view.state })),
    testedPullRequests: run.tested.map((s) => ({
      prNumber: s.prNumber,
      prUrl: `https://${host}/${owner}/${name}/pull/${s.prNumber}`,
      title: core.infoOf(s).title ?? UNKNOWN,
    })),
    impactedTargets: targetList(unionOfTargets([...run.includes, ...run.tested].map(targetsOf))),
    impactedTargetsForTestedPrs: targetList(run.impactedTargets),
    dependentPrs: [...run.dependentPrs],
  };
}

function targetList(targets: Targets): string[] {
  return targets === 'ALL' ? ['ALL'] : [...targets];
}

// A verification run (one test run of the engine: a PR, a batch or a bisection split) as v2 shows it:
// its required statuses (fixed as it started) as normalized checks, the PRs it tested and those it was built on.
import type { V2 } from '../../../src/wire/v2/index.js';
import { unionOfTargets, type Targets, type TestRun } from '../../../src/queue-model/index.js';
import type { V2Directory } from '../directory.js';
import { RUN_STATUS } from '../enums.js';
import { queuedPullRequestView } from './pull-request.js';
import { repositoryUrl } from './repository.js';
import { iso } from './time.js';

type Verdict = Pick<V2<'Check'>, 'conclusion' | 'providerConclusion'>;

/** How each required check ended, by how the run ended; undefined while the run is in progress. */
function verdictOf(run: TestRun): Verdict | undefined {
  if (run.status === 'succeeded') return { conclusion: 'success', providerConclusion: 'SUCCESS' };
  if (run.status === 'cancelled') return { conclusion: 'cancelled', providerConclusion: 'CANCELLED' };
  if (run.status === 'failed' && run.reason === 'TEST_RUN_TIMEOUT') {
    return { conclusion: 'timeout', providerConclusion: 'TIMED_OUT' };
  }
  if (run.status === 'failed') return { conclusion: 'failure', providerConclusion: 'FAILURE' };
  return undefined;
}

/** A required status as a commit status, in v1's states (a timeout fails it; a cancelled run errs it). */
const STATUS_CHECK: Record<TestRun['status'], Verdict> = {
  in_progress: { conclusion: 'neutral', providerConclusion: 'PENDING' },
  succeeded: { conclusion: 'success', providerConclusion: 'SUCCESS' },
  failed: { conclusion: 'failure', providerConclusion: 'FAILURE' },
  cancelled: { conclusion: 'cancelled', providerConclusion: 'ERROR' },
};

/**
 * Each required status (as the run started) twice, as v1 shows it: a check run and a commit status. While
 * the run is in progress they are listed unconcluded (`neutral`, the document's placeholder).
 */
export function checksOf(run: TestRun): V2<'Check'>[] {
  const verdict = verdictOf(run);
  const done = run.status !== 'in_progress';
  const actions = `${repositoryUrl(run.queue.repo)}/actions/runs/${parseInt(run.id.slice(0, 8), 16)}`;
  return run.requiredStatuses.flatMap((name, index): V2<'Check'>[] => {
    const common = { name, url: `${actions}/job/${index + 1}`, provider: 'github' as const };
    const status = done ? 'completed' : 'inProgress';
    return [
      {
        id: `${run.id}:${index + 1}`,
        kind: 'checkRun',
        status,
        providerStatus: done ? 'COMPLETED' : 'IN_PROGRESS',
        ...(verdict ?? { conclusion: 'neutral' }),
        ...common,
      },
      {
        id: `${run.id}:status:${index + 1}`,
        kind: 'statusCheck',
        status,
        ...STATUS_CHECK[run.status],
        ...common,
      },
    ];
  });
}

function targetSet(targets: Targets): V2<'ImpactedTargetSet'> {
  const all = targets === 'ALL';
  return {
    impactsAllTargets: all,
    impactedTargets: all ? [] : [...targets],
    totalImpactedTargets: all ? 0 : targets.length,
  };
}

/** The run; `withTargets` adds its impacted targets, as only the single-run GET does. */
export function runView(directory: V2Directory, run: TestRun, withTargets = false): V2<'VerificationRun'> {
  const targetsOf = directory.engine.core.targetsOf.bind(directory.engine.core);
  const view: V2<'VerificationRun'> = {
    id: run.id,
    isBisection: run.kind === 'bisection',
    testBranch: run.branch,
    testBranchSha: run.sha,
    testBranchCommitUrl: `${repositoryUrl(run.queue.repo)}/commit/${run.sha}`,
    createdAt: iso(run.createdAt),
    updatedAt: iso(run.finishedAt ?? run.createdAt),
    status: RUN_STATUS[run.status],
    requiredStatusesSource: run.statusesFromQueue ? 'mergeInstance' : 'repoProviderBranchProtection',
    requiredStatuses: [...run.requiredStatuses],
    checks: checksOf(run),
    testedPullRequests: run.tested.map((s) => queuedPullRequestView(directory, s)),
    dependentPullRequests: [...run.includes].map((s) => queuedPullRequestView(directory, s)),
  };
  if (run.testPrNumber !== null) {
    view.testBranchPullRequest = {
      number: run.testPrNumber,
      url: `${repositoryUrl(run.queue.repo)}/pull/${run.testPrNumber}`,
    };
  }
  if (withTargets) {
    view.impactedTargets = {
      all: targetSet(unionOfTargets([...run.includes, ...run.tested].map(targetsOf))),
      testedPullRequestsOnly: targetSet(run.impactedTargets),
    };
  }
  return view;
}

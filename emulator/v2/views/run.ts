// A verification run (one test run of the engine: a PR, a batch or a bisection split) as v2 shows it:
// its required statuses as normalized checks, the PRs it tested and those it was built on.
import type { V2 } from '../../../src/wire/v2/index.js';
import {
  unionOfTargets,
  type Targets,
  type TestRun,
  DEFAULT_REQUIRED_STATUSES,
} from '../../../src/queue-model/index.js';
import type { V2Directory } from '../directory.js';
import { RUN_STATUS } from '../enums.js';
import { queuedPullRequestView } from './pull-request.js';
import { repositoryUrl } from './repository.js';
import { iso } from './time.js';

type Verdict = Pick<V2<'Check'>, 'conclusion' | 'providerConclusion'>;

/** How each required check ended, by how the run ended; a run in progress has no check reported yet. */
function verdictOf(run: TestRun): Verdict | undefined {
  if (run.status === 'succeeded') return { conclusion: 'success', providerConclusion: 'SUCCESS' };
  if (run.status === 'cancelled') return { conclusion: 'cancelled', providerConclusion: 'CANCELLED' };
  if (run.status === 'failed' && run.reason === 'TEST_RUN_TIMEOUT') {
    return { conclusion: 'timeout', providerConclusion: 'TIMED_OUT' };
  }
  if (run.status === 'failed') return { conclusion: 'failure', providerConclusion: 'FAILURE' };
  return undefined;
}

export function requiredStatusesOf(run: TestRun): string[] {
  return [...(run.queue.settings.requiredStatuses ?? DEFAULT_REQUIRED_STATUSES)];
}

export function checksOf(run: TestRun): V2<'Check'>[] {
  const verdict = verdictOf(run);
  if (!verdict) return [];
  const actions = `${repositoryUrl(run.queue.repo)}/actions/runs/${parseInt(run.id.slice(0, 8), 16)}`;
  return requiredStatusesOf(run).map((name, index) => ({
    id: `${run.id}:${index + 1}`,
    name,
    kind: 'checkRun',
    status: 'completed',
    providerStatus: 'COMPLETED',
    ...verdict,
    url: `${actions}/job/${index + 1}`,
    provider: 'github',
  }));
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
    requiredStatusesSource: run.queue.settings.requiredStatuses
      ? 'mergeInstance'
      : 'repoProviderBranchProtection',
    requiredStatuses: requiredStatusesOf(run),
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

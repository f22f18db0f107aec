// v2's answers read as v1's and v1's requests written as v2's: the renames and enum tables of the
// migration, so that operations show the same facts whichever API answered.
import { describe, expect, it } from '@jest/globals';
import { configPatch } from '../../src/core/api/v2/queues.js';
import { enqueuedInOrder, queueConfigurationV1, testingDetailsV1 } from '../../src/core/api/v2/to-v1.js';
import type { V2 } from '../../src/wire/v2/index.js';

const AT = '2026-11-25T10:00:00Z';

function pr(number: number, state: V2<'QueueEntryState'>): V2<'PullRequest'> {
  return {
    id: `pr-${number}`,
    repositoryId: 'repo',
    number,
    title: `PR ${number}`,
    branch: `b${number}`,
    sha: 'c'.repeat(40),
    baseBranch: 'main',
    author: 'octocat',
    isCurrentlySubmittedToQueue: true,
    createdAt: AT,
    queueEntry: {
      id: `entry-${number}`,
      mergeQueueId: 'q',
      state,
      stateChangedAt: AT,
      priorityValue: 0,
      priorityName: 'urgent',
      skipsTheLine: true,
      allowBatching: false,
      direct: false,
      readiness: { requiresImpactedTargets: true, doesBaseBranchMatch: true, mergeability: 'notMergeable' },
      createdAt: AT,
      updatedAt: AT,
    },
  };
}

const ref = (number: number) => ({ id: `pr-${number}`, number, sha: 'c'.repeat(40), title: `PR ${number}` });

describe('v2 answers as v1', () => {
  it('lists the PRs in dispatch order (batches, the pending line, those awaiting admission), not those not ready', () => {
    const order: V2<'MergeQueueOrder'> = {
      mode: 'queue',
      queueState: 'running',
      batchingEnabled: true,
      isolationResolved: true,
      hasCycle: false,
      batches: [{ verificationRunId: 'run', state: 'testing', isBisection: false, pullRequests: [ref(9)] }],
      pending: [{ pullRequest: ref(3), schedulability: 'schedulable', directlyAhead: [ref(9)], heldBy: [] }],
      awaitingAdmission: [ref(5)],
      awaitingAdmissionTotal: 1,
    };
    const listed = enqueuedInOrder(
      [pr(1, 'notReady'), pr(5, 'pending'), pr(3, 'pending'), pr(9, 'testing')],
      order,
    );
    expect(listed.map((entry) => [entry.prNumber, entry.state])).toEqual([
      [9, 'testing'],
      [3, 'pending'],
      [5, 'pending'],
    ]);
    expect(listed[0]).toMatchObject({
      skipTheLine: true,
      noBatch: true,
      priorityName: 'urgent',
      prTitle: 'PR 9',
    });
  });

  it("splits a run's normalized checks back into check runs and commit statuses", () => {
    const check = (name: string, kind: V2<'CheckKind'>, conclusion: V2<'CheckConclusion'>) => ({
      id: name,
      name,
      kind,
      status: 'completed' as const,
      conclusion,
      url: `https://ci.example/${name}`,
      provider: 'github' as const,
    });
    const details = testingDetailsV1({
      id: 'run-1',
      isBisection: false,
      testBranch: 'trunk-merge/pr-3/run-1',
      testBranchSha: 'd'.repeat(40),
      createdAt: AT,
      updatedAt: AT,
      status: 'failed',
      requiredStatusesSource: 'repoProviderBranchProtection',
      requiredStatuses: ['build', 'lint'],
      checks: [
        {
          ...check('build', 'checkRun', 'failure'),
          providerConclusion: 'FAILURE',
          providerStatus: 'COMPLETED',
        },
        check('lint', 'statusCheck', 'timeout'),
      ],
      testedPullRequests: [
        { id: 'pr-3', number: 3, sha: 'c'.repeat(40), title: 'PR 3', url: 'https://github.com/o/r/pull/3' },
      ],
      dependentPullRequests: [{ id: 'pr-4', number: 4, sha: 'e'.repeat(40), title: 'PR 4' }],
      impactedTargets: { all: { impactsAllTargets: true, impactedTargets: [], totalImpactedTargets: 0 } },
    });
    expect(details).toMatchObject({
      status: 'failed',
      requiredStatusesSource: 'repo_provider_branch_protection',
      checkSuites: [{ checkRuns: [{ name: 'build', status: 'COMPLETED', conclusion: 'FAILURE' }] }],
      statusChecks: [{ context: 'lint', state: 'ERROR', url: 'https://ci.example/lint' }],
      testedPullRequests: [{ prNumber: 3, prUrl: 'https://github.com/o/r/pull/3', title: 'PR 3' }],
      impactedTargets: ['ALL'],
      dependentPrs: [4],
    });
  });

  it("reads a queue's state, mode and config with v1's names and spellings", () => {
    const config = {
      concurrency: 3,
      bisectionConcurrency: 2,
      pendingFailureDepth: 1,
      canOptimisticallyMerge: true,
      allowBatching: true,
      batchingMaxWaitTimeMinutes: 5,
      batchingMinSize: 2,
      testingTimeoutMinutes: 60,
      notReadyTimeoutMinutes: 120,
      createsPrsForTestingBranches: false,
      areCommentsEnabled: true,
      areCommandsEnabled: false,
      isStatusCheckEnabled: true,
      isExtensionEnabled: false,
      areLabelCommandsEnabled: false,
      areStateLabelsEnabled: false,
      requiredStatuses: ['build'],
      allowedBotSubmitters: [],
      batchingRules: [],
      directMergeMode: 'off',
      optimizationMode: 'bisectionSkipRedundantTests',
      mergeMethod: 'mergeCommit',
      testBranchConstructionMode: 'renameTempBranch',
      enqueueingLabel: 'merge',
    } satisfies V2<'MergeQueueConfig'>;
    const queue: V2<'MergeQueue'> = {
      id: 'q',
      repositoryId: 'repo',
      targetBranch: 'main',
      state: 'switchingModes',
      mode: 'graph',
      managedState: 'manual',
      createdAt: AT,
      updatedAt: AT,
      repositoryUrl: 'https://github.com/o/r',
      pullRequestsUrl: '/v2/merge-queues/q/pull-requests',
      config,
    };
    expect(queueConfigurationV1(queue)).toMatchObject({
      state: 'switching_modes',
      mode: 'parallel',
      branch: 'main',
      batch: true,
      commentsEnabled: true,
      commandsEnabled: false,
      statusCheckEnabled: true,
      createPrsForTestingBranches: false,
      optimizationMode: 'bisection_skip_redundant_tests',
      mergeMethod: 'merge_commit',
    });
  });
});

describe('v1 settings as a v2 config patch', () => {
  it('renames, converts hours to minutes, maps enums by table and passes v2 names through', () => {
    expect(
      configPatch({
        batch: false,
        commentsEnabled: true,
        statusCheckEnabled: false,
        createPrsForTestingBranches: true,
        deleteRequiredStatuses: true,
        notReadyTimeoutHours: 3,
        mergeMethod: 'MERGE_COMMIT' as never,
        optimizationMode: 'bisection_skip_redundant_tests',
        concurrency: 4,
        areLabelCommandsEnabled: true,
      }),
    ).toEqual({
      allowBatching: false,
      areCommentsEnabled: true,
      isStatusCheckEnabled: false,
      createsPrsForTestingBranches: true,
      requiredStatuses: [],
      notReadyTimeoutMinutes: 180,
      mergeMethod: 'mergeCommit',
      optimizationMode: 'bisectionSkipRedundantTests',
      concurrency: 4,
      areLabelCommandsEnabled: true,
    });
  });
});

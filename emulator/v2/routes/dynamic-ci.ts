// Dynamic CI, simply (see dynamic-ci-store.ts): plans run every job asked about; workflows and force
// overrides are listed and set per repository and PR.
import type { V2Handlers } from '../call.js';
import type { V2 } from '../../../src/wire/v2/index.js';
import { V2Error, validationFailed } from '../errors.js';

/** Dynamic CI knows github.com repositories only; another host is `400 CI_HOST_UNSUPPORTED`. */
function githubOnly<R extends { host?: string }>(repo: R): R {
  const host = repo.host ?? 'github.com';
  if (host.toLowerCase() !== 'github.com') {
    throw new V2Error(
      400,
      'CI_HOST_UNSUPPORTED',
      `Dynamic CI supports github.com repositories only, not ${host}`,
    );
  }
  return repo;
}

type Routes =
  | 'dynamicCi.generatePlan'
  | 'dynamicCi.generateBuildkitePlan'
  | 'dynamicCi.listPrJobs'
  | 'dynamicCi.listForceOverrides'
  | 'dynamicCi.setForceOverrides';

export const dynamicCiHandlers: Pick<V2Handlers, Routes> = {
  'dynamicCi.generatePlan': (call, { dynamicCi }) =>
    dynamicCi.plan(githubOnly(call.body.repo), call.body.workflowPath, call.body.jobKeys ?? []),
  'dynamicCi.generateBuildkitePlan': (call, { dynamicCi }) => {
    const { repo, buildkiteOrganizationSlug, buildkitePipelineSlug, jobKeys } = call.body;
    return dynamicCi.plan(
      githubOnly(repo),
      `${buildkiteOrganizationSlug}/${buildkitePipelineSlug}`,
      jobKeys ?? [],
    );
  },
  'dynamicCi.listPrJobs': (call, { dynamicCi }) => {
    const workflows = dynamicCi.workflowsOf(githubOnly(call.query));
    return call.page(
      workflows,
      (w) => w.workflowId,
      (w) => w,
    );
  },
  'dynamicCi.listForceOverrides': (call, { dynamicCi }) => {
    const overrides = dynamicCi.overridesOf(githubOnly(call.query), call.query.prNumber);
    return call.page(
      overrides,
      (o) => o.id,
      (o) => o,
    );
  },
  'dynamicCi.setForceOverrides': (call, { dynamicCi }) => {
    const workflows = dynamicCi.workflowsOf(githubOnly(call.body.repo));
    for (const override of call.body.overrides) checkOverride(override, workflows);
    dynamicCi.setOverrides(call.body);
    return undefined;
  },
};

/**
 * A force names what its scope needs, nothing more: a workflow for `workflow`, a workflow and a job for
 * `job`, neither for `pullRequest`; and only workflows and jobs listPrJobs gives for the repository.
 */
function checkOverride(override: V2<'ForceOverrideRequest'>, workflows: V2<'CiWorkflow'>[]): void {
  const { scope, workflowId, jobId } = override;
  if (scope === 'pullRequest' && workflowId !== undefined)
    throw validationFailed('a pullRequest force takes no workflowId; leave it out');
  if (scope !== 'pullRequest' && workflowId === undefined)
    throw validationFailed(`a ${scope} force needs workflowId (from GET /v2/dynamic-ci/pr-jobs)`);
  if (scope === 'job' && jobId === undefined)
    throw validationFailed('a job force needs jobId (from GET /v2/dynamic-ci/pr-jobs)');
  if (scope !== 'job' && jobId !== undefined)
    throw validationFailed(`a ${scope} force takes no jobId; only a job force does`);
  if (workflowId === undefined) return;
  const workflow = workflows.find((w) => w.workflowId === workflowId);
  if (!workflow || (jobId !== undefined && !workflow.jobs.some((job) => job.jobId === jobId))) {
    throw new V2Error(
      404,
      'CI_SCOPE_NOT_FOUND',
      `No ${jobId === undefined ? 'workflow' : 'job'} of this repository has that id; take it from GET /v2/dynamic-ci/pr-jobs`,
    );
  }
}

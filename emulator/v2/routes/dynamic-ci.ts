// Dynamic CI, simply (see dynamic-ci-store.ts): plans run every job asked about; workflows and force
// overrides are listed and set per repository and PR.
import type { V2Handlers } from '../call.js';
import { V2Error } from '../errors.js';

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
    githubOnly(call.body.repo);
    dynamicCi.setOverrides(call.body);
    return undefined;
  },
};

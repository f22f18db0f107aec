// Dynamic CI, simply (see dynamic-ci-store.ts): plans run every job asked about; workflows and force
// overrides are listed and set per repository and PR.
import type { V2Handlers } from '../call.js';

type Routes =
  | 'dynamicCi.generatePlan'
  | 'dynamicCi.generateBuildkitePlan'
  | 'dynamicCi.listPrJobs'
  | 'dynamicCi.listForceOverrides'
  | 'dynamicCi.setForceOverrides';

export const dynamicCiHandlers: Pick<V2Handlers, Routes> = {
  'dynamicCi.generatePlan': (call, { dynamicCi }) =>
    dynamicCi.plan(call.body.repo, call.body.workflowPath, call.body.jobKeys ?? []),
  'dynamicCi.generateBuildkitePlan': (call, { dynamicCi }) => {
    const { repo, buildkiteOrganizationSlug, buildkitePipelineSlug, jobKeys } = call.body;
    return dynamicCi.plan(repo, `${buildkiteOrganizationSlug}/${buildkitePipelineSlug}`, jobKeys ?? []);
  },
  'dynamicCi.listPrJobs': (call, { dynamicCi }) => {
    const workflows = dynamicCi.workflowsOf(call.query);
    return call.page(
      workflows,
      (w) => w.workflowId,
      (w) => w,
    );
  },
  'dynamicCi.listForceOverrides': (call, { dynamicCi }) => {
    const overrides = dynamicCi.overridesOf(call.query, call.query.prNumber);
    return call.page(
      overrides,
      (o) => o.id,
      (o) => o,
    );
  },
  'dynamicCi.setForceOverrides': (call, { dynamicCi }) => {
    dynamicCi.setOverrides(call.body);
    return undefined;
  },
};

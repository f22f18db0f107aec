// The rest of the merge-queue routes: the dependency graph, the Prometheus metrics (for the organization,
// or one repository, or one queue) and impacted-target uploads.
import { METRICS_CONTENT_TYPE, renderMetrics } from '../../merge-queue/metrics.js';
import type { Repo } from '../../../src/wire/index.js';
import { repoKeyOf } from '../../../src/queue-model/index.js';
import { requireActionsUpload } from '../actions-logins.js';
import { TextAnswer, type V2Handlers } from '../call.js';
import { V2Error } from '../errors.js';
import { graphView } from '../views/graph.js';
import { providerOf } from '../views/repository.js';

type Routes =
  'mergeQueues.graph' | 'mergeQueues.organizationMetrics' | 'mergeQueues.metrics' | 'impactedTargets.upload';

/** Impacted targets are taken for GitHub and GitLab repositories only (the older document: github.com). */
function refuseUnsupportedProvider(repo: Repo): void {
  const provider = providerOf(repo.host);
  if (provider === 'github' || provider === 'gitlab') return;
  throw new V2Error(
    422,
    'IMPACTED_TARGETS_UNSUPPORTED',
    `Impacted targets are taken for GitHub and GitLab repositories only; ${repo.host}/${repo.owner}/${repo.name} is on ${provider === 'unknown' ? 'a host of no known provider' : 'Bitbucket'}`,
  );
}

export const queueExtraHandlers: Pick<V2Handlers, Routes> = {
  'mergeQueues.graph': (call, { directory }) =>
    graphView(directory, directory.queueById(call.path.id), call.query.includeImpactedTargets === true),
  'mergeQueues.organizationMetrics': (call, { directory, engine }) => {
    const { repositoryId } = call.query;
    const repo = repositoryId === undefined ? undefined : directory.repositoryById(repositoryId).repo;
    const queues = engine.queues().filter((q) => !repo || repoKeyOf(q.repo) === repoKeyOf(repo));
    return new TextAnswer(METRICS_CONTENT_TYPE, renderMetrics(engine, queues));
  },
  'mergeQueues.metrics': (call, { directory, engine }) =>
    new TextAnswer(METRICS_CONTENT_TYPE, renderMetrics(engine, [directory.queueById(call.path.id)])),
  'impactedTargets.upload': (call, { directory, engine }) => {
    if (call.key.actions) requireActionsUpload(call.key.actions, call.body);
    const { repositoryId, sha, number, branch, impactedTargets } = call.body;
    const { repo } = directory.repositoryById(repositoryId);
    refuseUnsupportedProvider(repo);
    let prNumber = number;
    if (prNumber === undefined) {
      const prefix = `${repoKeyOf(repo)}#`;
      const found = [...engine.core.pullRequests].find(
        ([key, info]) => key.startsWith(prefix) && info.headBranch === branch,
      );
      if (!found)
        throw new V2Error(
          404,
          'PR_NOT_FOUND',
          `No pull request of this repository has the head branch ${branch}; upload by number`,
        );
      prNumber = found[1].number;
    }
    engine.setImpactedTargets(repo, prNumber, sha, impactedTargets ?? 'ALL');
    return undefined;
  },
};

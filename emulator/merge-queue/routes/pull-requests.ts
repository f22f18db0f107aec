// The pull-request endpoints: submit, cancel, restart, get, impacted targets and testing details.
import type { FastifyInstance } from 'fastify';
import type { MergeQueueEngine } from '../../../src/queue-model/index.js';
import { answerPost, EMPTY } from '../../http.js';

/** Serves the pull-request endpoints; returns the endpoints it serves. */
export function registerPullRequestRoutes(app: FastifyInstance, engine: MergeQueueEngine) {
  return [
    answerPost(app, 'submitPullRequest', (body) => {
      engine.submitPullRequest(body.repo, body.targetBranch, body.pr.number, {
        ...(body.priority !== undefined && body.priority !== null ? { priority: body.priority } : {}),
        ...(body.noBatch !== undefined ? { noBatch: body.noBatch } : {}),
      });
      return EMPTY;
    }),
    answerPost(app, 'cancelPullRequest', (body) => {
      engine.cancelPullRequest(body.repo, body.targetBranch, body.pr.number);
      return EMPTY;
    }),
    answerPost(app, 'restartTestsOnPullRequest', (body) => {
      engine.restartTestsOnPullRequest(body.repo, body.targetBranch, body.pr.number);
      return EMPTY;
    }),
    answerPost(app, 'getSubmittedPullRequest', (body) =>
      engine.getSubmittedPullRequest(body.repo, body.targetBranch, body.pr.number),
    ),
    answerPost(app, 'setImpactedTargets', (body) => {
      engine.setImpactedTargets(body.repo, Number(body.pr.number), body.pr.sha, body.impactedTargets);
      return EMPTY;
    }),
    answerPost(app, 'getMergeQueueTestingDetails', (body) =>
      engine.getMergeQueueTestingDetails(body.repo, body.targetBranch, body.testRunId),
    ),
  ];
}

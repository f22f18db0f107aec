// GET /v1/getMergeQueueMetrics?repo=owner/name&repoHost=host (both or neither: neither means every queue).
import type { FastifyInstance } from 'fastify';
import { ENDPOINTS, type RequestOf } from '../../../src/wire/index.js';
import { QueueModelError, type MergeQueueEngine } from '../../../src/queue-model/index.js';
import { METRICS_CONTENT_TYPE, renderMetrics } from '../metrics.js';
import { API_PREFIX } from '../../http.js';

/** Serves getMergeQueueMetrics; returns the endpoint it serves. */
export function registerMetricsRoute(app: FastifyInstance, engine: MergeQueueEngine) {
  const { path, request: schema } = ENDPOINTS.getMergeQueueMetrics;
  app.get(`${API_PREFIX}${path}`, { schema: { querystring: schema } }, async (request, reply) => {
    const { repo, repoHost } = request.query as RequestOf<'getMergeQueueMetrics'>;
    if ((repo === undefined) !== (repoHost === undefined)) {
      throw new QueueModelError(
        400,
        'repo and repoHost go together: give both, or neither for every repository',
      );
    }
    const queues = engine
      .queues()
      .filter(
        (q) => repo === undefined || (q.repo.host === repoHost && `${q.repo.owner}/${q.repo.name}` === repo),
      );
    return reply.code(200).type(METRICS_CONTENT_TYPE).send(renderMetrics(engine, queues));
  });
  return ['getMergeQueueMetrics'] as const;
}

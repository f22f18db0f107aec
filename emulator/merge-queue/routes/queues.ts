// The queue endpoints: create, get, update, delete and list pull requests.
import type { FastifyInstance } from 'fastify';
import type { PrState, QueueMode, QueueSettings } from '../../../src/wire/index.js';
import type { MergeQueueEngine } from '../../../src/queue-model/index.js';
import { answerPost, EMPTY, lower } from '../../http.js';

const ENUM_SETTINGS = ['state', 'mode', 'mergeMethod', 'directMergeMode', 'optimizationMode'] as const;

/** Serves the queue endpoints; returns the endpoints it serves. */
export function registerQueueRoutes(app: FastifyInstance, engine: MergeQueueEngine) {
  return [
    answerPost(app, 'createQueue', (body) => {
      engine.createQueue(body.repo, body.targetBranch, lower<QueueMode>(body.mode), body.concurrency);
      return EMPTY;
    }),
    answerPost(app, 'getQueue', (body) => engine.getQueue(body.repo, body.targetBranch)),
    answerPost(app, 'updateQueue', (body) => {
      const { repo, targetBranch, ...settings } = body;
      const update: QueueSettings = { ...settings };
      for (const name of ENUM_SETTINGS) {
        const value = update[name];
        if (typeof value === 'string') (update as Record<string, unknown>)[name] = value.toLowerCase();
      }
      return engine.updateQueue(repo, targetBranch, update);
    }),
    answerPost(app, 'deleteQueue', (body) => {
      engine.deleteQueue(body.repo, body.targetBranch);
      return EMPTY;
    }),
    answerPost(app, 'listPullRequests', (body) =>
      engine.listPullRequests(body.repo, body.targetBranch, {
        ...(body.state !== undefined ? { state: lower<PrState>(body.state as PrState)! } : {}),
        ...(body.since !== undefined ? { since: body.since } : {}),
        ...(body.until !== undefined ? { until: body.until } : {}),
        ...(body.cursor !== undefined ? { cursor: body.cursor } : {}),
        ...(body.take !== undefined ? { take: body.take } : {}),
      }),
    ),
  ];
}

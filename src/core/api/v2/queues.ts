// The v1 queue endpoints over v2: create, read (config, then the active PRs in dispatch order), update
// (state by pause/resume/drain, mode by switch-modes, the rest as a config patch with v2's names),
// delete, list PRs and the metrics, each answering as v1 did.
import type { QueueSettings, RequestOf } from '../../../wire/index.js';
import {
  fromV1,
  MERGE_METHOD_V1,
  OPTIMIZATION_MODE_V1,
  QUEUE_ENTRY_STATE_V1,
  QUEUE_MODE_V1,
  type V2,
} from '../../../wire/v2/index.js';
import type { PayloadOf } from '../client.js';
import type { WireAnswerOf } from '../typed-answers.js';
import { ApiError } from '../errors.js';
import { enqueuedInOrder, enqueuedPullRequestV1, queueConfigurationV1 } from './to-v1.js';
import { writeOnce } from './unknown-outcome.js';
import type { V2Session } from './session.js';
import type { Translations } from './translation.js';

/** A write's answer over v1: an empty object. */
type Written = WireAnswerOf<'createQueue'>;
type QueueRef = RequestOf<'getQueue'>;

const ACTIVE_STATES = 'pending,testing,testsPassed,pendingFailure';

async function createQueue(s: V2Session, payload: RequestOf<'createQueue'>): Promise<Written> {
  const { repo, targetBranch } = payload;
  const repositoryId = await s.ids.repositoryId(repo);
  const mode = fromV1(QUEUE_MODE_V1, payload.mode);
  const body: V2<'CreateMergeQueueRequest'> = {
    repositoryId,
    targetBranch,
    ...(mode ? { mode } : {}),
    ...(payload.concurrency !== undefined ? { concurrency: payload.concurrency } : {}),
  };
  s.ids.forgetQueue(repo, targetBranch);
  await writeOnce(() => s.v2.call('mergeQueues.create', { body }), {
    name: 'createQueue',
    log: s.log,
    wasDone: async () => {
      const { data } = await s.v2.call('mergeQueues.list', { query: { repositoryId, targetBranch } });
      return data.data.length > 0;
    },
  });
  return {};
}

/** getQueue: the config as v1's settings and v1's enqueuedPullRequests in dispatch order. */
async function getQueue(s: V2Session, payload: QueueRef): Promise<WireAnswerOf<'getQueue'>> {
  const queue = await readQueue(s, payload);
  const [active, order] = await Promise.all([
    s.v2.all('mergeQueues.listPullRequests', { path: { id: queue.id }, query: { state: ACTIVE_STATES } }),
    s.v2.call('mergeQueues.order', { path: { id: queue.id } }),
  ]);
  return { ...queueConfigurationV1(queue), enqueuedPullRequests: enqueuedInOrder(active, order.data) };
}

async function readQueue(s: V2Session, payload: QueueRef): Promise<V2<'MergeQueue'>> {
  const id = await s.ids.queueId(payload.repo, payload.targetBranch);
  return (await s.v2.call('mergeQueues.get', { path: { id } })).data;
}

const STATE_WRITES = {
  paused: 'mergeQueues.pause',
  running: 'mergeQueues.resume',
  draining: 'mergeQueues.drain',
} as const;

/** updateQueue: each part by its own v2 write, then the queue's settings as they now are. */
async function updateQueue(
  s: V2Session,
  payload: PayloadOf<'updateQueue'>,
): Promise<WireAnswerOf<'updateQueue'>> {
  const { repo, targetBranch, state, mode, ...settings } = payload;
  const id = await s.ids.queueId(repo, targetBranch);
  const patch = configPatch(settings);
  if (Object.keys(patch).length) {
    await writeOnce(() => s.v2.call('mergeQueues.updateConfig', { path: { id }, body: patch }), {
      name: 'updateQueue',
      log: s.log,
      // The same patch again leaves the same config.
      wasDone: () => Promise.resolve(false),
    });
  }
  const v2Mode = fromV1(QUEUE_MODE_V1, mode);
  if (v2Mode) {
    await writeOnce(() => s.v2.call('mergeQueues.switchModes', { path: { id }, body: { mode: v2Mode } }), {
      name: 'updateQueue',
      log: s.log,
      wasDone: () => Promise.resolve(false),
    });
  }
  if (state) {
    const operation = STATE_WRITES[state.toLowerCase() as keyof typeof STATE_WRITES];
    await writeOnce(() => s.v2.call(operation, { path: { id } }), {
      name: 'updateQueue',
      log: s.log,
      wasDone: async () => (await s.v2.call('mergeQueues.get', { path: { id } })).data.state === state,
    });
  }
  return changedQueue(s, id);
}

/**
 * The queue as the writes left it. Should reading it fail, the writes still happened: answer no queue,
 * as a v1 update may, so that update-queue warns and reads it back itself rather than failing the step.
 */
async function changedQueue(s: V2Session, id: string): Promise<WireAnswerOf<'updateQueue'>> {
  try {
    return queueConfigurationV1((await s.v2.call('mergeQueues.get', { path: { id } })).data);
  } catch (error) {
    if (error instanceof ApiError) return undefined;
    throw error;
  }
}

/** v1 settings renamed to v2's, by this table; a name it lacks (a v2 name given in `settings`) is sent as given. */
const CONFIG_NAMES: Record<string, string> = {
  batch: 'allowBatching',
  commentsEnabled: 'areCommentsEnabled',
  commandsEnabled: 'areCommandsEnabled',
  statusCheckEnabled: 'isStatusCheckEnabled',
  createPrsForTestingBranches: 'createsPrsForTestingBranches',
};

export function configPatch(settings: Omit<QueueSettings, 'state' | 'mode'> & Record<string, unknown>) {
  const patch: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(settings)) {
    if (value === undefined) continue;
    if (name === 'deleteRequiredStatuses') {
      if (value === true) patch.requiredStatuses = [];
    } else if (name === 'notReadyTimeoutHours' && typeof value === 'number') {
      patch.notReadyTimeoutMinutes = value * 60;
    } else if (name === 'mergeMethod') {
      patch.mergeMethod = fromV1(MERGE_METHOD_V1, value) ?? value;
    } else if (name === 'optimizationMode') {
      patch.optimizationMode = fromV1(OPTIMIZATION_MODE_V1, value) ?? value;
    } else {
      patch[CONFIG_NAMES[name] ?? name] = value;
    }
  }
  return patch as V2<'UpdateMergeQueueConfigRequest'>;
}

/** deleteQueue: v2 refuses a queue with entries (409) where v1 answered 400; a queue already gone is no error. */
async function deleteQueue(s: V2Session, payload: QueueRef): Promise<Written> {
  let id: string;
  try {
    id = await s.ids.queueId(payload.repo, payload.targetBranch);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return {};
    throw error;
  }
  s.ids.forgetQueue(payload.repo, payload.targetBranch);
  try {
    await writeOnce(() => s.v2.call('mergeQueues.delete', { path: { id } }), {
      name: 'deleteQueue',
      log: s.log,
      wasDone: () =>
        s.v2.call('mergeQueues.get', { path: { id } }).then(
          () => false,
          (error: unknown) => error instanceof ApiError && error.status === 404,
        ),
    });
  } catch (error) {
    if (error instanceof ApiError && error.code === 'QUEUE_HAS_ACTIVE_ENTRIES') {
      throw error.readAs(400);
    }
    throw error;
  }
  return {};
}

async function listPullRequests(
  s: V2Session,
  payload: RequestOf<'listPullRequests'>,
): Promise<WireAnswerOf<'listPullRequests'>> {
  const id = await s.ids.queueId(payload.repo, payload.targetBranch);
  const state = fromV1(QUEUE_ENTRY_STATE_V1, payload.state);
  const { data } = await s.v2.call('mergeQueues.listPullRequests', {
    path: { id },
    query: {
      ...(state ? { state } : {}),
      ...(payload.since ? { concludedAfter: payload.since } : {}),
      ...(payload.until ? { concludedBefore: payload.until } : {}),
      ...(payload.cursor ? { cursor: payload.cursor } : {}),
      ...(payload.take ? { limit: payload.take } : {}),
    },
  });
  return {
    pullRequests: data.data.map(enqueuedPullRequestV1),
    ...(data.hasMore && data.nextCursor ? { nextCursor: data.nextCursor } : {}),
  };
}

/** getMergeQueueMetrics: the organization's metrics, or one repository's. */
async function metrics(
  s: V2Session,
  payload: RequestOf<'getMergeQueueMetrics'>,
): Promise<WireAnswerOf<'getMergeQueueMetrics'>> {
  const [owner, name] = payload.repo ? splitSlug(payload.repo) : [];
  const repositoryId =
    owner && name
      ? await s.ids.repositoryId({ host: payload.repoHost ?? 'github.com', owner, name })
      : undefined;
  const { response } = await s.v2.call('mergeQueues.organizationMetrics', {
    query: repositoryId ? { repositoryId } : {},
  });
  return response.text;
}

function splitSlug(slug: string): [string, string] {
  const slash = slug.lastIndexOf('/');
  return [slug.slice(0, slash), slug.slice(slash + 1)];
}

/** How v2 answers the queue endpoints (service-client.ts gathers every area's rows). */
export const QUEUE_TRANSLATIONS = {
  createQueue,
  getQueue,
  updateQueue,
  deleteQueue,
  listPullRequests,
  getMergeQueueMetrics: metrics,
} satisfies Translations;

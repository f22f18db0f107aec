// Verification runs: one by id (with its impacted targets), a queue's (newest first; by status and
// creation time), and a pull request's.
import type { V2 } from '../../../src/wire/v2/index.js';
import type { TestRun } from '../../../src/queue-model/index.js';
import type { V2Handlers } from '../call.js';
import { RUN_STATUS } from '../enums.js';
import { V2Error, validationFailed } from '../errors.js';
import { runView } from '../views/run.js';

type Reads =
  'mergeQueueVerificationRuns.get' | 'mergeQueues.listVerificationRuns' | 'pullRequests.listVerificationRuns';

function newestFirst(runs: Iterable<TestRun>): TestRun[] {
  return [...runs].reverse();
}

function withStatus(runs: TestRun[], status: V2<'VerificationRunStatus'> | undefined): TestRun[] {
  return status === undefined ? runs : runs.filter((run) => RUN_STATUS[run.status] === status);
}

export const runHandlers: Pick<V2Handlers, Reads> = {
  'mergeQueueVerificationRuns.get': (call, { directory, engine }) => {
    for (const queue of engine.queues()) {
      const run = queue.runs.get(call.path.id);
      if (run) return runView(directory, run, true);
    }
    throw new V2Error(404, 'VERIFICATION_RUN_NOT_FOUND', `No verification run has the id ${call.path.id}`);
  },
  'mergeQueues.listVerificationRuns': (call, { directory }) => {
    const queue = directory.queueById(call.path.id);
    const { status, createdAfter } = call.query;
    const after = createdAfter === undefined ? undefined : Date.parse(createdAfter);
    if (after !== undefined && Number.isNaN(after))
      throw validationFailed('createdAfter must be a date-time');
    const runs = withStatus(newestFirst(queue.runs.values()), status).filter(
      (run) => after === undefined || run.createdAt > after,
    );
    return call.page(
      runs,
      (run) => run.id,
      (run) => runView(directory, run),
    );
  },
  'pullRequests.listVerificationRuns': (call, { directory }) => {
    const ref = directory.pullRequestById(call.path.id);
    const runs = directory
      .queuesOf(ref.repo)
      .flatMap((queue) =>
        [...queue.runs.values()].filter((run) => run.tested.some((s) => s.prNumber === ref.number)),
      )
      .sort((a, b) => b.createdAt - a.createdAt);
    return call.page(
      withStatus(runs, call.query.status),
      (run) => run.id,
      (run) => runView(directory, run),
    );
  },
};

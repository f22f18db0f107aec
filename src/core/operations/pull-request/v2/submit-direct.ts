// submit-pull-request with direct: true, which only v2 knows: the same submit, sent with the flag. A
// lost answer is read back before the submit is sent again, so that it never enqueues twice.
import type { ApiResponse } from '../../../api/client.js';
import { writeOnce } from '../../../api/v2/unknown-outcome.js';
import type { V2 } from '../../../../wire/v2/index.js';
import { queueRef, requirePrNumber } from '../../common.js';
import type { OperationContext } from '../../types.js';
import type { PullRequestSettings } from '../inputs.js';
import { queueIdOf, requireV2 } from './access.js';
import { priorityFields } from './entry-writes.js';

const ENDED = new Set(['merged', 'failed', 'cancelled']);

/** Submits the run's PR direct to the queue; undefined when a read-back found it already submitted. */
export async function submitDirect(
  op: OperationContext<PullRequestSettings>,
): Promise<ApiResponse | undefined> {
  const access = requireV2(op, 'input direct');
  const number = requirePrNumber(op.context);
  const { priority, noBatch } = op.settings;
  const queueId = await queueIdOf(op, access);
  const body: V2<'SubmitPullRequestRequest'> = {
    number,
    ...(priority !== undefined ? priorityFields(priority) : {}),
    ...(noBatch ? { allowBatching: false } : {}),
    direct: true,
  };
  const sent = await writeOnce(
    () => access.v2.call('mergeQueues.submitPullRequest', { path: { id: queueId }, body }),
    {
      name: 'mergeQueues.submitPullRequest',
      log: (line) => op.log.info(line),
      wasDone: async () => {
        const entry = (await access.ids.findPullRequest(queueRef(op.context).repo, number))?.queueEntry;
        return entry?.mergeQueueId === queueId && !ENDED.has(entry.state);
      },
    },
  );
  return sent?.response;
}

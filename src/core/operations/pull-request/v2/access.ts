// What only the v2 API answers: the typed transport and the run's ids, when the run speaks v2. An
// operation that needs them stops over v1 with one line saying which inputs to set.
import type { IdResolver } from '../../../api/v2/ids.js';
import type { ServiceClient } from '../../../api/client.js';
import type { V2ServiceClient } from '../../../api/v2/service-client.js';
import type { V2Transport } from '../../../api/v2/transport.js';
import { InputError } from '../../../errors.js';
import { nameOf, words } from '../../../words.js';
import { queueRef, requirePrNumber } from '../../common.js';
import type { OperationContext } from '../../types.js';

export interface V2Access {
  v2: V2Transport;
  ids: IdResolver;
}

/** The v2 seam of the run's client; undefined when the run speaks v1. */
export function v2Of(op: Pick<OperationContext<unknown>, 'client'>): V2Access | undefined {
  const client = op.client;
  return speaksV2(client) ? { v2: client.v2, ids: client.ids } : undefined;
}

/** Told by its seams rather than its class, so that a v1 run never loads the v2 client's code. */
function speaksV2(client: ServiceClient): client is V2ServiceClient {
  return 'v2' in client && 'ids' in client;
}

/** The v2 seam, or the one-line refusal of an operation (or input) that only v2 serves. */
export function requireV2(op: OperationContext<unknown>, what = `operation ${op.operation}`): V2Access {
  const access = v2Of(op);
  if (access) return access;
  throw new InputError(
    'api-version',
    `is v1, and ${what} needs the v2 API`,
    words`Set ${nameOf('api-version')} to v2 and ${nameOf('api-token')} to a v2 API key (trunk_v2_..., from Settings > Developer > API Keys).`,
  );
}

/** The run's PR id (pull-request-id, or looked up by repository and number). */
export function pullRequestIdOf(op: OperationContext<unknown>, access: V2Access): Promise<string> {
  return access.ids.pullRequestId(op.context.repo, requirePrNumber(op.context));
}

/** The run's queue id (queue-id, or looked up by repository and target branch). */
export function queueIdOf(op: OperationContext<unknown>, access: V2Access): Promise<string> {
  const { repo, targetBranch } = queueRef(op.context);
  return access.ids.queueId(repo, targetBranch);
}

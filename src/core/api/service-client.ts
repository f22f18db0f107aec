// The client a run's operations call: v1's, or v2's answering the same endpoints (api-version).
import type { ResolvedContext } from '../context.js';
import type { ApiVersion } from './base-url.js';
import { ApiClient, RetryBudget, type ClientOptions, type ServiceClient } from './client.js';

export { RetryBudget };

/** What picks the client: the common inputs (common-inputs.ts reads them). */
export interface ApiChoice {
  apiVersion: ApiVersion;
  /** api-url as given: each version's base is derived from it. */
  apiUrl: string;
  /** queue-id and pull-request-id, when given: v2 ids that save a lookup. */
  queueId?: string;
  pullRequestId?: string;
}

export async function serviceClientFor(
  common: ApiChoice,
  options: ClientOptions,
  context: Pick<ResolvedContext, 'targetBranch' | 'prNumber'>,
): Promise<ServiceClient> {
  if (common.apiVersion !== 'v2' || !options.token) return new ApiClient(options);
  // Loaded only by a run that speaks v2 (a chunk of its own in the bundle).
  const { V2ServiceClient } = await import('./v2/service-client.js');
  // One retry budget for the run's v1 and v2 requests.
  return new V2ServiceClient({
    ...options,
    retryBudget: options.retryBudget ?? new RetryBudget(),
    token: options.token,
    apiUrl: common.apiUrl,
    known: {
      queueId: common.queueId,
      pullRequestId: common.pullRequestId,
      targetBranch: context.targetBranch,
      prNumber: context.prNumber,
    },
  });
}

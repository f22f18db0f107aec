// The client a run's operations call: v1's, or v2's answering the same endpoints (api-version).
import type { CommonSettings } from '../common-inputs.js';
import type { ResolvedContext } from '../context.js';
import { ApiClient, RetryBudget, type ClientOptions, type ServiceClient } from './client.js';
import { V2ServiceClient } from './v2/service-client.js';

export function serviceClientFor(
  common: CommonSettings,
  options: ClientOptions,
  context: Pick<ResolvedContext, 'targetBranch' | 'prNumber'>,
): ServiceClient {
  if (common.apiVersion !== 'v2' || !options.token) return new ApiClient(options);
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

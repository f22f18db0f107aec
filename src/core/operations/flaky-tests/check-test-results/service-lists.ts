// What the service knows about the run's failed tests: the quarantined list (the gate), and for the
// verdicts the unhealthy tests (flaky, broken) and the tests failing in the window. All listings are
// fetched at once, every page, each test reduced to its identity and link as its page arrives; an outage
// is told apart from a refusal (a wrong token or repository).
import { ApiError } from '../../../api/errors.js';
import type { ApiResponse } from '../../../api/client.js';
import type { OperationContext } from '../../types.js';
import { followPages, type Listing, type ListingEndpoint } from '../pages.js';
import { REPOSITORY_NOT_FOUND, adviseOnNotFound, flakyRequestBase } from '../requests.js';
import { knownTest, TestIndex } from './identity.js';
import type { CheckTestResultsSettings } from './inputs.js';

export interface ServiceLists {
  quarantined: TestIndex;
  flaky: TestIndex;
  broken: TestIndex;
  failing: TestIndex;
  quarantinedCount: number;
  /** The last page of the quarantined listing, for the `response` output. */
  response?: ApiResponse;
}

/** A listing's tests, and its last page (only the last is kept: each page is dropped once read). */
interface Listed {
  index: TestIndex;
  last?: ApiResponse;
}

export async function fetchServiceLists(
  op: OperationContext<CheckTestResultsSettings>,
): Promise<ServiceLists> {
  const { pageSize, maxPages, startTime, endTime } = op.settings;
  const base = flakyRequestBase(op);
  const stop = new AbortController();
  const listing = <E extends ListingEndpoint>(label: string, fetchPage: Listing<E>['fetchPage']) => {
    const index = new TestIndex();
    return followPages<E>({
      label,
      pageSize,
      maxPages,
      fetchPage,
      stop: stop.signal,
      take: (item) => index.add(knownTest(item)),
    })
      .then(({ last }) => ({ index, last }))
      .catch((error: unknown) => {
        stop.abort();
        throw error;
      });
  };
  const notFound = adviseOnNotFound(REPOSITORY_NOT_FOUND);
  // Each page is asked for once the page before has been checked and kept (followPages keeps it in one
  // go, with no request out), not as soon as it arrives (the client's onAnswer): against a service 20 ms
  // away the early request saved 1% more, and with two pages of each listing held at once the gate's
  // peak memory was 4% higher (100 MB of Surefire reports, 7 rounds).
  const settled = await Promise.allSettled([
    listing('list-quarantined-tests', (page_query) =>
      op.client.call('listQuarantinedTests', { ...base, page_query }).catch(notFound),
    ),
    listing('list-unhealthy-tests (FLAKY)', (page_query) =>
      op.client.call('listUnhealthyTests', { ...base, page_query, status: 'FLAKY' }).catch(notFound),
    ),
    listing('list-unhealthy-tests (BROKEN)', (page_query) =>
      op.client.call('listUnhealthyTests', { ...base, page_query, status: 'BROKEN' }).catch(notFound),
    ),
    listing('list-failing-tests', (page_query) =>
      op.client
        .call('listFailingTests', {
          ...base,
          page_query,
          start_time: startTime ?? '',
          end_time: endTime ?? '',
        })
        .catch(notFound),
    ),
  ]);
  const failed = settled.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
  const [quarantined, flaky, broken, failing] = settled.map(
    (result) => (result as PromiseFulfilledResult<Listed>).value,
  );
  return {
    quarantined: quarantined!.index,
    flaky: flaky!.index,
    broken: broken!.index,
    failing: failing!.index,
    quarantinedCount: quarantined!.index.listed,
    response: quarantined!.last,
  };
}

/**
 * An outage: no answer, a timeout, a 5xx or 429 after the client's retries, or an answer that is not
 * the service's. A refusal (401, 403, 404: a token or repository to fix) is not one.
 */
export function isOutage(error: unknown): error is Error {
  if (error instanceof ApiError) {
    if (error.kind === 'http')
      return error.status === undefined || error.status >= 500 || error.status === 429;
    return error.kind !== 'redirect';
  }
  return false;
}

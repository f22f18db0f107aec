// Follows a flaky-tests listing from its first page to the one whose next_page_token is empty, one page
// after another (each token comes from the page before). A token seen twice would loop forever, and
// more pages than max-pages means the guard was too low or the service misbehaves: both fail clearly.
// The chain of pages is the listing's whole wait, so each page's request goes out the moment the page
// before has arrived, with the token read from its text; that page is then parsed, checked and its items
// kept while the next one is on its way. A page that fails its checks fails the listing as before; the
// request sent from it is dropped. A listing that does not pass the answer's text on (the quarantine
// gate's) sends the next request once the page is kept, so it keeps the page in one go.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Answered } from '../../api/client.js';
import { ApiError } from '../../api/errors.js';
import type { FailingTest, Page, QuarantinedTest, UnhealthyTest } from '../../../wire/index.js';
import { InputError } from '../../errors.js';
import { nameOf, words } from '../../words.js';
import { plural } from '../../report/words.js';

export interface PageRequest {
  page_size: number;
  page_token: string;
}

/** The flaky-tests listings, each paged by a page token. */
export type ListingEndpoint = 'listUnhealthyTests' | 'listFailingTests' | 'listQuarantinedTests';

/** One item of a listing's page, as the client checked it. */
export type ItemOf<E extends ListingEndpoint> = E extends 'listQuarantinedTests'
  ? QuarantinedTest
  : E extends 'listFailingTests'
    ? FailingTest
    : UnhealthyTest;

export interface Listing<E extends ListingEndpoint, T = ItemOf<E>> {
  /** How errors name the listing, e.g. `list-unhealthy-tests (FLAKY)`. */
  label: string;
  pageSize: number;
  maxPages: number;
  /** Sends one page's request; `onAnswer` goes to the client (CallOptions), to send the next one early. */
  fetchPage: (page: PageRequest, onAnswer: (text: string) => void) => Promise<Answered<E>>;
  /** Told about every page as it arrives. */
  onPage?: (response: Answered<E>) => void;
  /** When aborted (another listing of the same step failed), stop after the page in flight. */
  stop?: AbortSignal;
  /** What is kept of each item, as its page arrives; the whole item when not given. */
  keep?: (item: ItemOf<E>) => T;
  /** Handed each item as its page arrives, instead of keeping it (`items` is then empty). */
  take?: (item: ItemOf<E>) => void;
}

export interface PagedItems<E extends ListingEndpoint, T = ItemOf<E>> {
  items: T[];
  pages: number;
  /** The last page's answer, for a `response` output. */
  last: Answered<E>;
}

/** Items kept between two turns of the event loop: well under a millisecond of work. */
const KEEP_SLICE = 10;

/** A page's request on its way, and the next page's when it was sent early from this one's answer. */
interface PageInFlight<E extends ListingEndpoint> {
  token: string;
  response: Promise<Answered<E>>;
  readonly next: PageInFlight<E> | undefined;
}

export async function followPages<E extends ListingEndpoint, T = ItemOf<E>>(
  listing: Listing<E, T>,
): Promise<PagedItems<E, T>> {
  const keep = listing.keep ?? ((item: ItemOf<E>) => item as unknown as T);
  const items: T[] = [];
  const seen = new Set<string>();
  const request = (token: string, pages: number): PageInFlight<E> => {
    let next: PageInFlight<E> | undefined;
    const response = listing.fetchPage({ page_size: listing.pageSize, page_token: token }, (text) => {
      const nextToken = nextPageTokenIn(text);
      // Only what the checks below would follow; they decide, once this page has passed the client's.
      if (!nextToken || nextToken === token || seen.has(nextToken)) return;
      if (pages >= listing.maxPages || listing.stop?.aborted) return;
      next = request(nextToken, pages + 1);
      // Dropped when this page fails or the listing stops: its failure is nobody's to report.
      next.response.catch(() => undefined);
    });
    return {
      token,
      response,
      get next() {
        return next;
      },
    };
  };
  let inFlight = request('', 1);
  for (let pages = 1; ; pages++) {
    const response = await inFlight.response;
    listing.onPage?.(response);
    const { items: pageItems, page } = pageOf(response.answer);
    for (let i = 0; i < pageItems.length; i++) {
      // With the next page already asked for, another listing's answer that came in meanwhile sends its
      // next request before more is kept here. Without, the next request waits for this loop: no turn.
      if (i > 0 && i % KEEP_SLICE === 0 && inFlight.next) await nextTurn();
      const item = pageItems[i]!;
      if (listing.take) listing.take(item);
      else items.push(keep(item));
    }
    const next = page.next_page_token;
    if (!next || listing.stop?.aborted) return { items, pages, last: response };
    if (seen.has(next)) throw repeatedToken(response, listing.label, pages, next);
    if (pages >= listing.maxPages) throw tooManyPages(listing, page);
    seen.add(next);
    inFlight = inFlight.next?.token === next ? inFlight.next : request(next, pages + 1);
  }
}

const TOKEN_FIELD = '"next_page_token"';
/** A colon and a JSON string without escapes, right after TOKEN_FIELD. */
const PLAIN_TOKEN_VALUE = /[ \t\n\r]*:[ \t\n\r]*"([^"\\]*)"/y;

/**
 * The next page's token as the answer's text has it, before it is parsed (JSON.parse of a whole page
 * would hold the next request back): the value of the last "next_page_token" field, when it is a string
 * without escapes; '' otherwise. Inside a JSON string those quotes would be escaped, so the match is a
 * field; should it be some other object's field, the early request is not the one the checked page asks
 * for, and it is dropped.
 */
function nextPageTokenIn(text: string): string {
  const field = text.lastIndexOf(TOKEN_FIELD);
  if (field < 0) return '';
  PLAIN_TOKEN_VALUE.lastIndex = field + TOKEN_FIELD.length;
  return PLAIN_TOKEN_VALUE.exec(text)?.[1] ?? '';
}

/** A checked page's items and paging, whichever listing it is of. */
function pageOf<E extends ListingEndpoint>(
  answer: Answered<E>['answer'],
): { items: ItemOf<E>[]; page: Page } {
  const page = answer as Answered<ListingEndpoint>['answer'];
  const items = 'quarantined_tests' in page ? page.quarantined_tests : page.tests;
  return { items: items as ItemOf<E>[], page: page.page };
}

/** The service handed back a token it had sent already: following it would never end. */
function repeatedToken<E extends ListingEndpoint>(
  response: Answered<E>,
  label: string,
  pages: number,
  token: string,
): ApiError {
  return new ApiError(
    label,
    words`the service sent a page token a second time (on page ${pages}), so paging would never end. Stopped; this is a fault of the service: run the step again later, or report it with this message.`,
    { kind: 'invalid-response', status: response.status, said: `page token ${token}` },
  );
}

function tooManyPages<E extends ListingEndpoint, T>(listing: Listing<E, T>, page: Page): InputError {
  const { total_pages: totalPages, total_rows: totalRows } = page;
  const counted = ` (the service counts ${totalRows} rows on ${totalPages} pages)`;
  const needed = totalPages > listing.maxPages ? `at least ${totalPages}` : 'higher';
  const pageSizeHint = listing.pageSize < 100;
  return new InputError(
    'max-pages',
    `${listing.label} has more than ${plural(listing.maxPages, 'page')} of ${listing.pageSize}${counted}`,
    words`Raise ${nameOf('max-pages')} to ${needed}${pageSizeHint ? words`, or raise ${nameOf('page-size')} (up to 100)` : []}.`,
  );
}

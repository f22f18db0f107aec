// Following a v2 list page by page, with an end whatever the service answers: a cursor given twice, a
// page with nothing on it that says more follow, more pages than any real list has, or the list's
// deadline (timeout-seconds from its first page) each stop it with one line saying which.
import type { V2AnswerOf, V2OperationId } from '../../../wire/v2/index.js';
import { ApiError } from '../errors.js';

/** The most pages one list is followed for: 10,000 items at 100 a page, as many as any list we read. */
export const MAX_PAGES = 100;

export interface ListPage {
  data: unknown[];
  nextCursor: string | null;
  hasMore: boolean;
}

/** What a listing needs from the transport: one page by cursor, within a deadline. */
export type PageFetcher<Answer> = (cursor: string | undefined, deadlineAt: number) => Promise<Answer>;

export interface PagingLimits {
  /** The list's deadline in ms from its first request: the client's timeout-seconds. */
  deadlineMs: number;
  maxPages?: number;
}

/** Each page of `id`'s list in turn, until the last, or an error saying why it was not followed further. */
export async function* followPages<Id extends V2OperationId, Answer extends { data: V2AnswerOf<Id> }>(
  id: Id,
  fetch: PageFetcher<Answer>,
  limits: PagingLimits,
): AsyncGenerator<Answer> {
  const deadlineAt = Date.now() + limits.deadlineMs;
  const maxPages = limits.maxPages ?? MAX_PAGES;
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    if (Date.now() >= deadlineAt) throw stopped(id, 'timeout', tooSlow(limits.deadlineMs, page - 1));
    const answer = await fetch(cursor, deadlineAt).catch((error: unknown) => {
      // A later page cut short by the list's deadline: the list, not that page, took too long.
      if (page > 1 && error instanceof ApiError && error.kind === 'timeout') {
        throw stopped(id, 'timeout', tooSlow(limits.deadlineMs, page - 1));
      }
      throw error;
    });
    yield answer;
    const list = answer.data as unknown as ListPage;
    const next = list.hasMore ? list.nextCursor : null;
    if (!next) return;
    if (list.data.length === 0) {
      throw stopped(id, 'invalid-response', `page ${page} had no items yet said more follow`);
    }
    if (seen.has(next))
      throw stopped(id, 'invalid-response', `page ${page} gave a cursor it had given before`);
    if (page >= maxPages) {
      throw stopped(
        id,
        'invalid-response',
        `the list runs past ${maxPages} pages, the most one list is read for`,
      );
    }
    seen.add(next);
    cursor = next;
  }
}

function tooSlow(deadlineMs: number, pages: number): string {
  return `the list was not complete within timeout-seconds (${Math.round(deadlineMs / 1000)}s, ${pages} pages read)`;
}

function stopped(id: V2OperationId, kind: 'timeout' | 'invalid-response', why: string): ApiError {
  const advice =
    kind === 'timeout'
      ? 'Raise timeout-seconds to read longer lists.'
      : "Check api-url; if it is the service's, report this message: the service's answer changed.";
  return new ApiError(id, `${why}, so the list was not followed further. ${advice}`, { kind });
}

// Cursor pagination, as every v2 list answers: `{data, nextCursor, hasMore, total?}`, at most `limit`
// items (1..100, default 25). A cursor names the last item given and is tied to the operation, path
// and filters that produced it; any other cursor is 400 INVALID_CURSOR. A list whose window ends at
// the time of its first page (testing results) keeps that time in its cursors.
import { V2Error } from './errors.js';
import { fingerprint } from './ids.js';

export const DEFAULT_LIMIT = 25;

export interface Page<V> {
  data: V[];
  nextCursor: string | null;
  hasMore: boolean;
  total?: number;
}

export interface PageRequest {
  /** Operation, path parameters and filters: what a cursor is tied to. */
  scope: string;
  limit?: number;
  cursor?: string;
  includeTotal?: boolean;
  /** The time the first page was read at, for lists that keep it (see firstPageTime). */
  firstPageAt?: number;
}

interface Cursor {
  s: string;
  k: string;
  o: number;
  /** The first page's time, when the list keeps it. */
  t?: number;
}

function decode(text: string, scope: string): Cursor {
  let cursor: Partial<Cursor> | undefined;
  try {
    cursor = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<Cursor>;
  } catch {
    cursor = undefined;
  }
  if (
    !cursor ||
    cursor.s !== fingerprint(scope) ||
    typeof cursor.k !== 'string' ||
    !Number.isInteger(cursor.o)
  ) {
    throw new V2Error(
      400,
      'INVALID_CURSOR',
      'cursor is not one this list returned for these filters; keep the filters while paging, or start again without a cursor',
    );
  }
  return cursor as Cursor;
}

/** The time of the first page: `now` for a first page, the time its cursor kept for a later one. */
export function firstPageTime(request: PageRequest, now: number): number {
  if (request.cursor === undefined) return now;
  const { t } = decode(request.cursor, request.scope);
  return typeof t === 'number' && Number.isFinite(t) ? t : now;
}

/** The page of `items` the request asks for; `keyOf` names an item for the cursor, `view` shows it. */
export function pageOf<T, V>(
  request: PageRequest,
  items: readonly T[],
  keyOf: (item: T) => string,
  view: (item: T) => V,
): Page<V> {
  let start = 0;
  if (request.cursor !== undefined) {
    const cursor = decode(request.cursor, request.scope);
    // After the item named, where it still is; else at the offset it was at.
    const at = items.findIndex((item) => keyOf(item) === cursor.k);
    start = at >= 0 ? at + 1 : Math.min(cursor.o, items.length);
  }
  const limit = request.limit ?? DEFAULT_LIMIT;
  const slice = items.slice(start, start + limit);
  const hasMore = start + slice.length < items.length;
  const last = slice[slice.length - 1];
  const cursor: Cursor | undefined =
    hasMore && last !== undefined
      ? {
          s: fingerprint(request.scope),
          k: keyOf(last),
          o: start + slice.length,
          ...(request.firstPageAt !== undefined ? { t: request.firstPageAt } : {}),
        }
      : undefined;
  return {
    data: slice.map(view),
    nextCursor: cursor ? Buffer.from(JSON.stringify(cursor)).toString('base64url') : null,
    hasMore,
    ...(request.includeTotal ? { total: items.length } : {}),
  };
}

// Opaque page tokens for the flaky-tests list endpoints. A token names the listing it belongs to and an
// offset; clients must treat it as opaque, and a token from another listing is refused.
import type { Page } from '../../src/wire/index.js';
import { QueueModelError } from '../../src/queue-model/index.js';

export interface PageQuery {
  page_size: number;
  page_token?: string;
}

interface TokenBody {
  l: string;
  o: number;
}

export function encodePageToken(listing: string, offset: number): string {
  return Buffer.from(JSON.stringify({ l: listing, o: offset } satisfies TokenBody)).toString('base64url');
}

function decodePageToken(token: string, listing: string): number {
  let body: Partial<TokenBody> | undefined;
  try {
    body = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Partial<TokenBody>;
  } catch {
    body = undefined;
  }
  if (!body || typeof body.o !== 'number' || !Number.isSafeInteger(body.o) || body.o < 0) {
    throw new QueueModelError(400, 'page_token is not a token this service issued');
  }
  if (body.l !== listing) {
    throw new QueueModelError(400, 'page_token belongs to another listing (another repository or status)');
  }
  return body.o;
}

export interface PageOptions {
  /** Fault for tests: every page after the first answers with the token it was asked for as next. */
  repeatTokens?: boolean;
}

/** One page of `items` for `query`, with the page block the service sends. */
export function pageOf<T>(
  items: readonly T[],
  query: PageQuery,
  listing: string,
  options: PageOptions = {},
): { items: T[]; page: Page } {
  const size = query.page_size;
  const token = query.page_token ?? '';
  const offset = token ? decodePageToken(token, listing) : 0;
  const total = items.length;
  const totalPages = Math.ceil(total / size);
  const end = offset + size;
  let next = end < total ? encodePageToken(listing, end) : '';
  if (options.repeatTokens && token) next = token;
  return {
    items: items.slice(offset, end),
    page: {
      total_rows: total,
      total_pages: totalPages,
      page_index: Math.floor(offset / size),
      next_page_token: next,
      prev_page_token: offset > 0 ? encodePageToken(listing, Math.max(0, offset - size)) : '',
      last_page_token: totalPages > 0 ? encodePageToken(listing, (totalPages - 1) * size) : '',
    },
  };
}

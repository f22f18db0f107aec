// Following a flaky-tests listing page after page: the next page's request goes out from the answer's
// text, before the page is parsed and its items kept; a token read wrongly from the text costs one
// dropped request, never a wrong listing.
import { describe, expect, it } from '@jest/globals';
import type { Answered } from '../../src/core/api/client.js';
import { followPages, type Listing } from '../../src/core/operations/flaky-tests/pages.js';

/**
 * A service of pages keyed by the token that asks for them; records every token asked for. `early`:
 * hands the answer's text to `onAnswer` (the quarantine gate's listings do not pass it on).
 */
function service(pages: Record<string, string>, { early = true } = {}) {
  const asked: string[] = [];
  const fetchPage: Listing<'listUnhealthyTests'>['fetchPage'] = (page, onAnswer) => {
    asked.push(page.page_token);
    const text = pages[page.page_token];
    if (text === undefined) return Promise.reject(new Error(`no page for token "${page.page_token}"`));
    // As the client does: the text first, the checked answer on a later turn of the event loop.
    if (early) onAnswer(text);
    const json: unknown = JSON.parse(text);
    const response = {
      status: 200,
      contentType: 'application/json',
      text,
      json,
      answer: json,
    } as Answered<'listUnhealthyTests'>;
    return new Promise((resolve) => setImmediate(() => resolve(response)));
  };
  return { asked, fetchPage };
}

const page = (names: string[], next: string, extra = '') =>
  `{"tests":[${names.map((name) => `{"name":"${name}"${extra}}`).join(',')}],"page":{"next_page_token":"${next}"}}`;

type Unhealthy = Listing<'listUnhealthyTests'>;

const listing = (fetchPage: Unhealthy['fetchPage'], more: Partial<Unhealthy> = {}): Unhealthy => ({
  label: 'list-unhealthy-tests (FLAKY)',
  pageSize: 2,
  maxPages: 10,
  fetchPage,
  ...more,
});

describe('followPages', () => {
  it("asks for the next page as soon as a page's text arrives, before the page is read", async () => {
    const { asked, fetchPage } = service({ '': page(['a', 'b'], 't2'), t2: page(['c'], '') });
    const askedWhenHandedOver: string[][] = [];
    const { items, pages } = await followPages(
      listing(fetchPage, { onPage: () => askedWhenHandedOver.push([...asked]) }),
    );
    expect(items.map((item) => item.name)).toEqual(['a', 'b', 'c']);
    expect(pages).toBe(2);
    // When page 1 was handed over, page 2 had already been asked for.
    expect(askedWhenHandedOver[0]).toEqual(['', 't2']);
  });

  it('drops an early request made from another field of that name and follows the page itself', async () => {
    // The last "next_page_token" of the text is an item's field, not the page's.
    const first = `{"page":{"next_page_token":"t2"},"tests":[{"name":"a","next_page_token":"decoy"}]}`;
    const { asked, fetchPage } = service({ '': first, t2: page(['b'], '') });
    const { items } = await followPages(listing(fetchPage));
    expect(items.map((item) => item.name)).toEqual(['a', 'b']);
    expect(asked).toEqual(['', 'decoy', 't2']);
  });

  it('reads no token from inside a JSON string', async () => {
    const sneaky = page(['say \\"next_page_token\\": \\"x\\"'], '');
    const { asked, fetchPage } = service({ '': sneaky });
    const { items } = await followPages(listing(fetchPage));
    expect(items).toHaveLength(1);
    expect(asked).toEqual(['']);
  });

  it('sends no early request past max-pages or for a token seen before, and fails clearly', async () => {
    const looping = service({ '': page(['a'], 't2'), t2: page(['b'], 't2') });
    await expect(followPages(listing(looping.fetchPage))).rejects.toThrow(
      'the service sent a page token a second time (on page 2)',
    );
    expect(looping.asked).toEqual(['', 't2']);

    const long = service({ '': page(['a'], 't2'), t2: page(['b'], 't3'), t3: page(['c'], '') });
    await expect(followPages(listing(long.fetchPage, { maxPages: 2 }))).rejects.toThrow('max-pages');
    expect(long.asked).toEqual(['', 't2']);
  });

  it('keeps a page without giving other work a turn when the next request waits for it, and gives turns when it is out', async () => {
    const names = (from: number) => Array.from({ length: 50 }, (_, i) => `test ${from + i}`);
    const pages = { '': page(names(0), 't2'), t2: page(names(50), 't3'), t3: page(names(100), '') };
    // Other work (the gate's parse of its reports), counting the turns of the event loop it gets.
    let turns = 0;
    let working = true;
    const otherWork = (async () => {
      while (working) {
        await new Promise((resolve) => setImmediate(resolve));
        turns++;
      }
    })();
    const turnsWhileKept = async (early: boolean) => {
      const { fetchPage } = service(pages, { early });
      const counted: number[] = [];
      let handedOver = 0;
      const { items } = await followPages(
        listing(
          (request, onAnswer) => {
            if (request.page_token) counted.push(turns - handedOver);
            return fetchPage(request, onAnswer);
          },
          { maxPages: 3, onPage: () => (handedOver = turns) },
        ),
      );
      expect(items).toHaveLength(150);
      return counted;
    };
    try {
      // No early request: the next page is asked for right after the page is kept, with no turn between.
      expect(await turnsWhileKept(false)).toEqual([0, 0]);
      // Early requests: each page but the last had the next one asked for before it was handed over, so
      // keeping its 50 tests gives other work a turn every 10.
      const before = turns;
      await turnsWhileKept(true);
      expect(turns - before).toBeGreaterThanOrEqual(2 * 4);
    } finally {
      working = false;
      await otherWork;
    }
  });
});

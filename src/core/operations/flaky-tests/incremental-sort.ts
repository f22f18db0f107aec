// Items kept in order as they arrive: a batch at a time, each batch sorted on its own and merged into
// what came before. A listing adds each page's items while the next page is on its way, so that when
// the last page is in, the order is done but for one batch: no sort of thousands is left for the end.

/** Items wait in a batch until this many (about a page) or until the order is read. */
const BATCH_SIZE = 64;

export class IncrementalSort<T> {
  private sorted: T[] = [];
  private batch: T[] = [];

  constructor(private readonly compare: (a: T, b: T) => number) {}

  add(item: T): void {
    this.batch.push(item);
    if (this.batch.length >= BATCH_SIZE) this.mergeBatch();
  }

  /** Every item added, in order; items that compare equal in the order they were added. */
  items(): T[] {
    this.mergeBatch();
    return this.sorted;
  }

  private mergeBatch(): void {
    if (!this.batch.length) return;
    this.sorted = mergeSorted(this.sorted, this.batch.sort(this.compare), this.compare);
    this.batch = [];
  }
}

/**
 * Two sorted lists as one sorted list; where items compare equal, those of `first` come first. Each item
 * of `second` finds its place in `first` (firstAfter), and the runs of `first` between those places are
 * copied without comparing: merging a page into thousands costs a few comparisons per item.
 */
export function mergeSorted<T>(
  first: readonly T[],
  second: readonly T[],
  compare: (a: T, b: T) => number,
): T[] {
  const merged: T[] = [];
  let from = 0;
  for (const item of second) {
    const place = firstAfter(first, item, from, compare);
    for (let i = from; i < place; i++) merged.push(first[i]!);
    merged.push(item);
    from = place;
  }
  for (let i = from; i < first.length; i++) merged.push(first[i]!);
  return merged;
}

/**
 * The index in `sorted` (at or after `from`) of the first item that sorts after `item`. It gallops from
 * `from` (1, 2, 4... places on) before the binary search: merging two long lists of about equal length
 * (a report's two listings) then costs a comparison or two per item instead of a whole binary search.
 */
function firstAfter<T>(sorted: readonly T[], item: T, from: number, compare: (a: T, b: T) => number): number {
  let low = from;
  let high = from;
  for (let stride = 1; high < sorted.length && compare(sorted[high]!, item) <= 0; stride *= 2) {
    low = high + 1;
    high = low + stride;
  }
  high = Math.min(high, sorted.length);
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compare(sorted[middle]!, item) <= 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

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

/** Two sorted lists as one sorted list; where items compare equal, those of `first` come first. */
export function mergeSorted<T>(
  first: readonly T[],
  second: readonly T[],
  compare: (a: T, b: T) => number,
): T[] {
  const merged: T[] = [];
  let i = 0;
  let j = 0;
  while (i < first.length && j < second.length) {
    merged.push(compare(second[j]!, first[i]!) < 0 ? second[j++]! : first[i++]!);
  }
  while (i < first.length) merged.push(first[i++]!);
  while (j < second.length) merged.push(second[j++]!);
  return merged;
}

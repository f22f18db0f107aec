// Answers kept as the bytes they were sent as, by request, for as long as the data they were made from
// is unchanged: the caller passes the data's revision, and a new revision empties the cache. Bounded in
// bytes (keys included); the oldest answers go first.

/** What the cache holds at most by default: a few hundred pages of a hundred tests. */
const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;

export class AnswerCache {
  private revision: number | undefined;
  private readonly answers = new Map<string, Buffer>();
  private bytes = 0;

  constructor(private readonly maxBytes = DEFAULT_MAX_BYTES) {}

  /** The answer to `key` at `revision`: the one kept, or `make()`'s, kept for the next time. */
  answer(revision: number, key: string, make: () => string): Buffer {
    if (revision !== this.revision) {
      this.answers.clear();
      this.bytes = 0;
      this.revision = revision;
    }
    const kept = this.answers.get(key);
    if (kept) return kept;
    const answer = Buffer.from(make());
    const size = answer.length + key.length;
    if (size > this.maxBytes) return answer;
    this.answers.set(key, answer);
    this.bytes += size;
    for (const [oldKey, old] of this.answers) {
      if (this.bytes <= this.maxBytes) break;
      this.answers.delete(oldKey);
      this.bytes -= old.length + oldKey.length;
    }
    return answer;
  }
}

// An ordered list of impacted targets without duplicates, kept as byte ranges of the buffer they were
// read from rather than as JS strings. A 20 MiB file holds hundreds of thousands of targets, and as
// strings in a Set they would take about twice the file's size; as ranges plus a hash table they take
// 9 bytes each, and the request body is assembled by copying bytes. Each range holds a target exactly
// as JSON.stringify would write it between the quotes, so equal targets are equal bytes.
// Only a target's start is kept, not its end: a target held in the source ends before the first quote
// (in a JSON array) or line end (in lines of text) after its start, less the whitespace before that; one
// holding a quote would have been re-encoded into `extra`, where each target is followed by a NUL. A
// length kept per target cost 2 bytes more, which put the 20 MiB upload of npm names over its memory goal.
import { unreachable } from '../../errors.js';
import { hashBytes, PlainJsonStrings, randomHashBase, seededHash } from './target-hash.js';

/** What the source is: the strings of a JSON array, or lines of text. */
export type SourceFormat = 'json-array' | 'lines';

/** How a range of the source buffer spells its target. */
export type Spelling =
  /** a line of text: may hold characters that JSON must escape */
  | 'text'
  /** the inside of a JSON string without backslash escapes: as JSON writes it, unless it holds a control character */
  | 'json'
  /** the inside of a JSON string with backslash escapes */
  | 'json-escaped';

/** A target's tag takes the low 3 bits of its entry in `startsAndTags`, its start the rest. */
const TAG_BITS = 3;
const TAG_MASK = (1 << TAG_BITS) - 1;
/** Past the last start an entry holds (512 MiB): `extra` grows to at most 6 times the 40 MiB file. */
const START_LIMIT = 2 ** (32 - TAG_BITS);
const IN_EXTRA = 1;
/** The source holds the target between quotes, exactly as JSON writes it. */
const QUOTED = 2;
/** Quoted, and right after the previous target's closing quote and a comma (`"a","b"`). */
const FOLLOWS = 4;
/**
 * How full the hash table may get: 1.25 slots of 4 bytes per target (with the start and tag: 9 bytes a
 * target). The slots' hash bits keep the longer probes of a fuller table within a cache line or two.
 */
const MAX_LOAD = 0.8;
/**
 * A slot holds 1 + the index of a target in its low 25 bits (a 40 MiB file holds at most 21 million
 * targets of a character and a newline) and 7 bits of the target's hash above them, so that a probe
 * passes over the slots of unequal targets without reading anything else: probes stay within a
 * cache line or two of the table instead of jumping to a random target each.
 */
const INDEX_BITS = 25;
const INDEX_MASK = (1 << INDEX_BITS) - 1;
/**
 * How many plain JSON strings are inserted together: their slots are read first, in one tight loop, so
 * that the table's memory is fetched for all of them at once rather than one cache miss at a time.
 */
const BATCH = 16;
/**
 * Unequal targets whose slots' hash bits match are a few in a hundred targets by chance; more than one
 * per target beyond this allowance means the targets were made to collide, and the table is rebuilt
 * with a seeded hash.
 */
const CHANCE_MATCHES_ALLOWED = 4096;

const QUOTE = 0x22;
const LF = 0x0a;
/** Follows each target in `extra`: a NUL, which JSON never leaves unescaped in a string. */
const END_IN_EXTRA = 0;

/** 1 for the bytes that JSON must escape inside a string: control characters, quote, backslash. */
const MUST_ESCAPE = new Uint8Array(256).map((_, byte) =>
  byte < 0x20 || byte === QUOTE || byte === 0x5c ? 1 : 0,
);

/** What String.prototype.trim removes, in the ASCII range. */
function isAsciiSpace(byte: number): boolean {
  return byte === 0x20 || (byte >= 0x09 && byte <= 0x0d);
}

export class TargetList {
  /** Targets that had to be re-encoded (escapes, control characters, non-ASCII space at an end). */
  private extra: Buffer = Buffer.alloc(0);
  private extraLength = 0;
  /**
   * Per target, its start times 8 plus its tag: IN_EXTRA when it lies in `extra`, else QUOTED and
   * FOLLOWS as the source spells it.
   */
  private readonly startsAndTags: Uint32Array;
  /** Where the last target listed ends, in its buffer. */
  private lastEnd = -1;
  /** The byte that ends a target held in the source, after any whitespace. */
  private readonly sourceEnd: number;
  /** Open addressing, filled at most to MAX_LOAD: 0 when empty, else 7 bits of hash and 1 + a target's index. */
  private slots: Int32Array;
  private count = 0;
  private targetBytes = 0;
  private readonly plainStrings: PlainJsonStrings;
  /** Start, end and hash of the strings waiting to be inserted. */
  private readonly batch = new Int32Array(3 * BATCH);
  private batched = 0;
  /** What the early reads of the slots saw; kept only so that the reads are not optimized away. */
  private prefetched = 0;
  /** Probes that met an unequal target with the same hash bits, since the table was last built. */
  private falseMatches = 0;
  /** 0 while targets are hashed by hashBytes (or its word-wise twin); else seededHash's base. */
  private hashBase = 0;

  /** `expectedCount`: an upper bound on the number of targets, so that the tables never need to grow. */
  constructor(
    private readonly source: Buffer,
    expectedCount: number,
    format: SourceFormat,
  ) {
    this.sourceEnd = format === 'lines' ? LF : QUOTE;
    const capacity = Math.max(16, expectedCount);
    this.startsAndTags = new Uint32Array(capacity);
    this.slots = new Int32Array(Math.ceil(capacity / MAX_LOAD));
    this.plainStrings = new PlainJsonStrings(source);
  }

  get size(): number {
    this.insertBatch();
    return this.count;
  }

  /**
   * Adds the target at `source[start, end)`. Surrounding whitespace is dropped; an empty or repeated
   * target is ignored. Throws a SyntaxError for a JSON string that JSON.parse would refuse (an invalid
   * escape, a raw control character).
   */
  add(start: number, end: number, spelling: Spelling): void {
    this.insertBatch();
    const source = this.source;
    while (start < end && isAsciiSpace(source[start] as number)) start++;
    while (end > start && isAsciiSpace(source[end - 1] as number)) end--;
    if (start === end) return;
    // A non-ASCII character at either end may be whitespace that only the decoded string can tell.
    if (
      spelling !== 'json-escaped' &&
      (source[start] as number) < 0x80 &&
      (source[end - 1] as number) < 0x80
    ) {
      if (!needsEscaping(source, start, end)) {
        this.insert(source, start, end, false, hashBytes(source, start, end));
        return;
      }
      if (spelling === 'json') throw new SyntaxError('a control character inside a JSON string');
    }
    const text = source.toString('utf8', start, end);
    const value = (spelling === 'json-escaped' ? (JSON.parse(`"${text}"`) as string) : text).trim();
    if (value) this.addEncoded(JSON.stringify(value).slice(1, -1));
  }

  /**
   * Adds the JSON string whose opening quote is at `open` and returns the index of its closing quote.
   * Returns -1, adding nothing, for a string with an escape or a control character, or one that cannot
   * be read a word at a time: the caller finds its end and hands it to `add`. The common case of a large
   * file, read four bytes at a time.
   */
  addJsonString(open: number): number {
    const plain = this.plainStrings;
    if (!plain.scan(open)) return -1;
    const source = this.source;
    const start = open + 1;
    const end = plain.end;
    if (end === start) return end;
    const first = source[start] as number;
    const last = source[end - 1] as number;
    if (first === 0x20 || first >= 0x80 || last === 0x20 || last >= 0x80) {
      this.add(start, end, 'json');
      return end;
    }
    const batch = this.batch;
    const at = 3 * this.batched;
    batch[at] = start;
    batch[at + 1] = end;
    batch[at + 2] = plain.hash;
    if (++this.batched === BATCH) this.insertBatch();
    return end;
  }

  private insertBatch(): void {
    const batch = this.batch;
    const slots = this.slots;
    let prefetched = 0;
    for (let at = 2; at < 3 * this.batched; at += 3)
      prefetched |= slots[this.slotOf(batch[at] as number)] as number;
    this.prefetched = prefetched;
    for (let at = 0; at < 3 * this.batched; at += 3) {
      this.insert(this.source, batch[at] as number, batch[at + 1] as number, false, batch[at + 2] as number);
    }
    this.batched = 0;
  }

  /** Size in bytes of the list written as a JSON array of strings. */
  jsonArrayByteLength(): number {
    this.insertBatch();
    return 2 + this.targetBytes + 2 * this.count + Math.max(0, this.count - 1);
  }

  /**
   * The list as a compact JSON array of strings, in pieces, so that the whole array never sits in
   * memory at once. Where the source already spells a run of targets exactly so (`"a","b","c"`: a
   * compact JSON array, each target once) at least `chunkBytes` long, the piece is that part of the
   * source itself, up to `sharedBytes` at a time; the rest is copied into fresh buffers of about
   * `chunkBytes` (a target longer than that gets a buffer of its own size).
   */
  *jsonArrayChunks(chunkBytes = 64 * 1024, sharedBytes = 1024 * 1024): Generator<Buffer> {
    this.insertBatch();
    // Room for the brackets of an empty list, whatever the chunk size.
    let chunk = Buffer.allocUnsafe(Math.max(chunkBytes, 2));
    chunk[0] = 0x5b;
    let used = 1;
    // Invariant: the chunk has room for one more byte (a comma or the closing bracket).
    for (let i = 0; i < this.count;) {
      const runEnd = this.quotedRunEnd(i, sharedBytes);
      const separator = i > 0 ? 1 : 0;
      if (runEnd > i) {
        const from = this.startOf(i) - 1;
        const to = this.endOf(runEnd - 1) + 1;
        if (to - from >= chunkBytes) {
          if (separator) chunk[used++] = 0x2c;
          yield chunk.subarray(0, used);
          yield this.source.subarray(from, to);
          // Room for a comma or the closing bracket; a copy that needs more gets a chunk of its own.
          chunk = Buffer.allocUnsafe(1);
          used = 0;
        } else {
          // A short run: one copy for all of it, quotes and commas included.
          const needed = separator + (to - from) + 1;
          if (used + needed > chunk.length) {
            if (used > 0) yield chunk.subarray(0, used);
            chunk = Buffer.allocUnsafe(Math.max(chunkBytes, needed));
            used = 0;
          }
          if (separator) chunk[used++] = 0x2c;
          used += this.source.copy(chunk, used, from, to);
        }
        i = runEnd;
        continue;
      }
      const start = this.startOf(i);
      const end = this.endOf(i);
      // A comma, the quoted target, and room for the closing bracket.
      const needed = end - start + 4;
      if (used + needed > chunk.length) {
        if (used > 0) yield chunk.subarray(0, used);
        chunk = Buffer.allocUnsafe(Math.max(chunkBytes, needed));
        used = 0;
      }
      if (separator) chunk[used++] = 0x2c;
      chunk[used++] = 0x22;
      used += this.bufferOf(i).copy(chunk, used, start, end);
      chunk[used++] = 0x22;
      i++;
    }
    chunk[used++] = 0x5d;
    yield chunk.subarray(0, used);
  }

  /**
   * Whether the list written as a compact JSON array (what jsonArrayChunks yields) is exactly the
   * source's bytes [start, end): `[`, every target in order as the source quotes it, one comma between
   * each and the next, `]`. One byte read per target.
   */
  isSpelledBy(start: number, end: number): boolean {
    this.insertBatch();
    const source = this.source;
    if (source[start] !== 0x5b || source[end - 1] !== 0x5d) return false;
    if (this.count === 0) return end - start === 2;
    if (this.startOf(0) !== start + 2 || this.endOf(this.count - 1) !== end - 2) return false;
    if ((this.tagOf(0) & QUOTED) === 0) return false;
    for (let i = 1; i < this.count; i++) if ((this.tagOf(i) & FOLLOWS) === 0) return false;
    return true;
  }

  /**
   * Past the last target of the run starting at `first` whose quoted spellings follow one another in
   * the source with a comma between (`"a","b"`), up to about `maxBytes`; `first` itself when the
   * source does not hold `first` in quotes (a line of text, a re-encoded or trimmed target).
   */
  private quotedRunEnd(first: number, maxBytes: number): number {
    if ((this.tagOf(first) & QUOTED) === 0) return first;
    const limit = this.startOf(first) + maxBytes;
    let last = first;
    while (last + 1 < this.count && (this.tagOf(last + 1) & FOLLOWS) !== 0 && this.endOf(last + 1) <= limit)
      last++;
    return last + 1;
  }

  /** The first `n` targets as strings. */
  first(n: number): string[] {
    this.insertBatch();
    const shown: string[] = [];
    for (let i = 0; i < Math.min(n, this.count); i++) {
      const text = this.bufferOf(i).toString('utf8', this.startOf(i), this.endOf(i));
      shown.push(this.isExtra(i) ? (JSON.parse(`"${text}"`) as string) : text);
    }
    return shown;
  }

  private bufferOf(index: number): Buffer {
    return this.isExtra(index) ? this.extra : this.source;
  }

  private startOf(index: number): number {
    return (this.startsAndTags[index] as number) >>> TAG_BITS;
  }

  /** Where the target ends: see the top of this file. */
  private endOf(index: number): number {
    const start = this.startOf(index);
    if (this.isExtra(index)) return this.extra.indexOf(END_IN_EXTRA, start);
    const source = this.source;
    let end = source.indexOf(this.sourceEnd, start);
    if (end < 0) end = source.length;
    while (end > start && isAsciiSpace(source[end - 1] as number)) end--;
    return end;
  }

  private isExtra(index: number): boolean {
    return (this.tagOf(index) & IN_EXTRA) !== 0;
  }

  private tagOf(index: number): number {
    return (this.startsAndTags[index] as number) & TAG_MASK;
  }

  /** Adds a re-encoded target to `extra`, followed by the byte that marks its end there. */
  private addEncoded(encoded: string): void {
    const length = Buffer.byteLength(encoded) + 1;
    if (this.extraLength + length > this.extra.length) {
      const grown = Buffer.alloc(Math.max(this.extra.length * 2, this.extraLength + length, 256));
      this.extra.copy(grown, 0, 0, this.extraLength);
      this.extra = grown;
    }
    const start = this.extraLength;
    const end = start + this.extra.write(encoded, start);
    this.extra[end] = END_IN_EXTRA;
    const hash = hashBytes(this.extra, start, end);
    if (this.insert(this.extra, start, end, true, hash)) this.extraLength = end + 1;
  }

  /**
   * The hash's bits below the fingerprint, scaled to the table (multiplied, not divided: a remainder of
   * the unsigned hash by the table's length is a floating-point remainder, several times slower).
   */
  private slotOf(hash: number): number {
    return Math.floor(((hash & INDEX_MASK) * this.slots.length) / (INDEX_MASK + 1));
  }

  /** Adds the range unless an equal target is already listed; says whether it was added. */
  private insert(buffer: Buffer, start: number, end: number, inExtra: boolean, hash: number): boolean {
    if (this.falseMatches > this.count + CHANCE_MATCHES_ALLOWED) this.rehashSeeded();
    if (this.hashBase !== 0) hash = seededHash(buffer, start, end, this.hashBase);
    const slots = this.slots;
    const size = slots.length;
    // The top 7 bits of the hash.
    const fingerprint = hash >>> INDEX_BITS;
    let slot = this.slotOf(hash);
    for (let held = slots[slot] as number; held !== 0; held = slots[slot] as number) {
      if (held >>> INDEX_BITS === fingerprint) {
        if (this.sameBytes((held & INDEX_MASK) - 1, buffer, start, end)) return false;
        this.falseMatches++;
      }
      slot = slot + 1 === size ? 0 : slot + 1;
    }
    if (this.count === this.startsAndTags.length || this.count === INDEX_MASK || start >= START_LIMIT)
      unreachable('TargetList: more targets than expectedCount, or a start past START_LIMIT');
    const index = this.count++;
    const tag = inExtra ? IN_EXTRA : this.spellingTag(buffer, start, end, index);
    this.startsAndTags[index] = start * (TAG_MASK + 1) + tag;
    this.lastEnd = end;
    this.targetBytes += end - start;
    slots[slot] = (fingerprint << INDEX_BITS) | (index + 1);
    return true;
  }

  /** Builds the table again from the targets listed so far, with a seeded hash of a new random base. */
  private rehashSeeded(): void {
    const slots = this.slots.fill(0);
    this.hashBase = randomHashBase();
    this.falseMatches = 0;
    for (let index = 0; index < this.count; index++) {
      const hash = seededHash(this.bufferOf(index), this.startOf(index), this.endOf(index), this.hashBase);
      let slot = this.slotOf(hash);
      while (slots[slot] !== 0) slot = slot + 1 === slots.length ? 0 : slot + 1;
      slots[slot] = ((hash >>> INDEX_BITS) << INDEX_BITS) | (index + 1);
    }
  }

  /** QUOTED and FOLLOWS for a target of the source about to be listed at `index`. */
  private spellingTag(source: Buffer, start: number, end: number, index: number): number {
    if (source[start - 1] !== QUOTE || source[end] !== QUOTE) return 0;
    if (index === 0 || (this.tagOf(index - 1) & QUOTED) === 0) return QUOTED;
    const previousEnd = this.lastEnd;
    return start === previousEnd + 3 && source[previousEnd + 1] === 0x2c ? QUOTED | FOLLOWS : QUOTED;
  }

  private sameBytes(index: number, buffer: Buffer, start: number, end: number): boolean {
    const held = this.bufferOf(index);
    const heldStart = this.startOf(index);
    if (this.endOf(index) - heldStart !== end - start) return false;
    for (let i = 0; i < end - start; i++) {
      if (held[heldStart + i] !== buffer[start + i]) return false;
    }
    return true;
  }
}

/** Whether `source[start, end)` holds a byte that JSON must escape inside a string. */
function needsEscaping(source: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (MUST_ESCAPE[source[i] as number]) return true;
  return false;
}

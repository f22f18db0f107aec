// Distinct strings, each given a dense number, kept as UTF-8 bytes in buffers outside the JS heap. The
// gate remembers the service's 20,000 listed tests, and the tests of the reports that did not simply
// pass (failed, skipped: thousands), while it reads the reports; as JS strings and objects they would
// outlive many young-generation collections, and what survives those makes V8 grow its young
// generation (to 2 x 16 MiB). Bytes in a Buffer are never copied by a collection.
//
// How it works: the bytes go into blocks of BLOCK_BYTES, filled one after another and never moved (a
// buffer doubled and copied would hold the old and the new at once, and the old one stays until a
// collection frees it: 40 MB of names peaked at 96 MB that way). A string looked up is encoded at the
// free end of the last block (a block of its own when longer than one), hashed and compared there, and
// kept by moving that end past it. Per id, typed arrays say in which block and where its bytes are, its
// group and its hash; an open-addressing table of ids, at most half full, finds a string by its hash.

const imul = Math.imul;
/** How full the slot table may get before it doubles. */
const MAX_LOAD = 0.5;
/** Big enough that the blocks' own cost is nothing, small enough that the last one's unused end is too. */
const BLOCK_BYTES = 1024 * 1024;

export class StringIds {
  /** The strings' bytes, one after another, block after block. */
  private readonly blocks: Buffer[] = [Buffer.allocUnsafe(64 * 1024)];
  /** Bytes used in the last block. */
  private used = 0;
  /** Per id: its block, where its bytes start in it and how many, its group, and its hash. */
  private blockOf = new Int32Array(1024);
  private starts = new Int32Array(1024);
  private lengths = new Int32Array(1024);
  private groups = new Int32Array(1024);
  private hashes = new Int32Array(1024);
  /** Open addressing: 1 + an id, 0 when empty. */
  private slots = new Int32Array(2048);
  private count = 0;

  get size(): number {
    return this.count;
  }

  /**
   * The id of `text` within `group` (any integer that sets strings apart, e.g. the suite a test name
   * belongs to); -1 when it has none yet and `add` is false, else it gets the next id.
   */
  idOf(group: number, text: string, add: boolean): number {
    // Encoded where its bytes would be kept: a new string then costs no copy, a known one leaves them.
    const length = Buffer.byteLength(text, 'utf8');
    const block = this.room(length);
    const at = this.used;
    block.write(text, at, 'utf8');
    let hash = 0x811c9dc5 ^ group;
    for (let i = at; i < at + length; i++) hash = imul(hash ^ (block[i] as number), 0x01000193);
    const slots = this.slots;
    const mask = slots.length - 1;
    let slot = hash & mask;
    for (let held = slots[slot] as number; held !== 0; held = slots[slot] as number) {
      const id = held - 1;
      if (this.hashes[id] === hash && this.groups[id] === group && this.holds(id, block, at, length))
        return id;
      slot = (slot + 1) & mask;
    }
    if (!add) return -1;
    return this.append(group, hash, length, slot);
  }

  /** The string that has this id. */
  text(id: number): string {
    const start = this.starts[id] as number;
    const block = this.blocks[this.blockOf[id] as number]!;
    return block.toString('utf8', start, start + (this.lengths[id] as number));
  }

  /** The last block, with room for `length` more bytes: a new one when it has not. */
  private room(length: number): Buffer {
    const block = this.blocks[this.blocks.length - 1]!;
    if (this.used + length <= block.length) return block;
    const next = Buffer.allocUnsafe(Math.max(BLOCK_BYTES, length));
    this.blocks.push(next);
    this.used = 0;
    return next;
  }

  private holds(id: number, block: Buffer, at: number, length: number): boolean {
    const start = this.starts[id] as number;
    return (
      this.lengths[id] === length &&
      block.compare(this.blocks[this.blockOf[id] as number]!, start, start + length, at, at + length) === 0
    );
  }

  /** Keeps the bytes just encoded at the end of the last block as the next id. */
  private append(group: number, hash: number, length: number, slot: number): number {
    const id = this.count++;
    if (id === this.starts.length) {
      this.blockOf = grown(this.blockOf);
      this.starts = grown(this.starts);
      this.lengths = grown(this.lengths);
      this.groups = grown(this.groups);
      this.hashes = grown(this.hashes);
    }
    this.blockOf[id] = this.blocks.length - 1;
    this.starts[id] = this.used;
    this.lengths[id] = length;
    this.used += length;
    this.groups[id] = group;
    this.hashes[id] = hash;
    this.slots[slot] = id + 1;
    if (this.count > this.slots.length * MAX_LOAD) this.rehash();
    return id;
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let id = 0; id < this.count; id++) {
      let slot = (this.hashes[id] as number) & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = id + 1;
    }
    this.slots = slots;
  }
}

/** A copy of the array, twice as long. */
export function grown(array: Int32Array): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(array.length * 2);
  bigger.set(array);
  return bigger;
}

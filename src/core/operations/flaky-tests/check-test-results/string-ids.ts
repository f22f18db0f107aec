// Distinct strings, each given a dense number, kept as UTF-8 bytes in buffers outside the JS heap. The
// gate remembers 50,000 passed test names and 20,000 listed tests while it reads 100 MB of reports; as
// JS strings and objects they outlive many young-generation collections, and what survives those makes
// V8 grow its young generation (to 2 x 16 MiB), most of the gate's peak memory. Bytes in a Buffer are
// never copied by a collection.

const imul = Math.imul;
/** How full the slot table may get before it doubles. */
const MAX_LOAD = 0.5;

export class StringIds {
  /** The strings' bytes, one after another. */
  private bytes = Buffer.allocUnsafe(64 * 1024);
  private used = 0;
  /** Per id: where its bytes start and end, its group, and its hash. */
  private starts = new Int32Array(1024);
  private ends = new Int32Array(1024);
  private groups = new Int32Array(1024);
  private hashes = new Int32Array(1024);
  /** Open addressing: 1 + an id, 0 when empty. */
  private slots = new Int32Array(2048);
  private count = 0;
  /** The string being looked up, encoded once per call. */
  private scratch = Buffer.allocUnsafe(1024);

  get size(): number {
    return this.count;
  }

  /**
   * The id of `text` within `group` (any integer that sets strings apart, e.g. the suite a test name
   * belongs to); -1 when it has none yet and `add` is false, else it gets the next id.
   */
  idOf(group: number, text: string, add: boolean): number {
    const length = this.encode(text);
    const scratch = this.scratch;
    let hash = 0x811c9dc5 ^ group;
    for (let i = 0; i < length; i++) hash = imul(hash ^ (scratch[i] as number), 0x01000193);
    const slots = this.slots;
    const mask = slots.length - 1;
    let slot = hash & mask;
    for (let held = slots[slot] as number; held !== 0; held = slots[slot] as number) {
      const id = held - 1;
      if (this.hashes[id] === hash && this.groups[id] === group && this.holds(id, length)) return id;
      slot = (slot + 1) & mask;
    }
    if (!add) return -1;
    return this.append(group, hash, length, slot);
  }

  /** The string that has this id. */
  text(id: number): string {
    return this.bytes.toString('utf8', this.starts[id], this.ends[id]);
  }

  private encode(text: string): number {
    // UTF-8 takes at most 3 bytes for each UTF-16 code unit.
    if (text.length * 3 > this.scratch.length) this.scratch = Buffer.allocUnsafe(text.length * 3);
    return this.scratch.write(text, 0, 'utf8');
  }

  private holds(id: number, length: number): boolean {
    const start = this.starts[id] as number;
    return (
      (this.ends[id] as number) - start === length &&
      this.scratch.compare(this.bytes, start, start + length, 0, length) === 0
    );
  }

  private append(group: number, hash: number, length: number, slot: number): number {
    const id = this.count++;
    if (id === this.starts.length) {
      this.starts = grown(this.starts);
      this.ends = grown(this.ends);
      this.groups = grown(this.groups);
      this.hashes = grown(this.hashes);
    }
    if (this.used + length > this.bytes.length) {
      const bytes = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.used + length));
      this.bytes.copy(bytes, 0, 0, this.used);
      this.bytes = bytes;
    }
    this.scratch.copy(this.bytes, this.used, 0, length);
    this.starts[id] = this.used;
    this.used += length;
    this.ends[id] = this.used;
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

// The hashes that TargetList finds duplicates with, and the scan that reads a plain JSON string.
//
// How it works: `hashBytes` is FNV-1a over every byte of the target (xor the byte in, multiply by the
// FNV prime, in 32 bits), then murmur3's finalizer, which spreads a difference in any byte over all 32
// bits. Targets of one list share long prefixes and differ in a few digits
// (//services/component-0000001/pkg:lib, ...-0000002/...): the finalizer keeps them apart in the table's
// slots and in the 7 fingerprint bits alike. `PlainJsonStrings.scan` reads a JSON string byte by byte,
// stopping at its closing quote, and computes the same hash on the way, so that a target hashes alike
// whether it came through the scan or through `hashBytes`: duplicate detection rests on it.
// `seededHash` is the fallback for lists made to collide (see there).

const PRIME = 0x7fffffff;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

// Held in module scope: a global looked up in a hot loop is slow inside vm contexts (jest's tests).
const imul = Math.imul;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Spreads every bit of the state over all 32 bits (murmur3's fmix32), for the table's slots and fingerprints. */
function finish(state: number): number {
  let hash = imul(state ^ (state >>> 16), 0x85ebca6b);
  hash = imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return hash ^ (hash >>> 16);
}

/** The hash of `buffer[start, end)`. */
export function hashBytes(buffer: Uint8Array, start: number, end: number): number {
  let state = FNV_OFFSET;
  for (let i = start; i < end; i++) state = imul(state ^ (buffer[i] as number), FNV_PRIME);
  return finish(state);
}

/**
 * A hash whose collisions cannot be planned: a polynomial in a random `base` modulo 2^31 - 1, which two
 * different targets of n bytes share with a chance of at most n in 2^31. Anyone can make targets collide
 * under `hashBytes`, and each collision costs a comparison with every target of its kind already listed;
 * TargetList turns to this one when its targets collide far more often than chance allows.
 */
export function seededHash(buffer: Uint8Array, start: number, end: number, base: number): number {
  // Two halves of the base keep every product below 2^53, where doubles are exact.
  const high = base >>> 16;
  const low = base & 0xffff;
  let residue = 0;
  for (let i = start; i < end; i++) {
    residue = (((residue * high) % PRIME) * 0x10000 + residue * low + (buffer[i] as number)) % PRIME;
  }
  return finish(residue ^ imul(end - start, 0x9e3779b1));
}

/** A base for seededHash, unknown to whoever wrote the targets. */
export function randomHashBase(): number {
  return 0x10000 + Math.floor(Math.random() * (PRIME - 0x10000));
}

/** Reads the plain JSON strings of one buffer, hashing them as it goes. */
export class PlainJsonStrings {
  /** Set by `scan`: the index of the string's closing quote, and the hash of the bytes between. */
  end = -1;
  hash = 0;

  constructor(private readonly source: Buffer) {}

  /**
   * Whether the JSON string whose opening quote is at `open` is plain: it ends at a quote within the
   * buffer with no escape or control character before it. Sets `end` and `hash` when it is.
   */
  scan(open: number): boolean {
    const source = this.source;
    const length = source.length;
    let state = FNV_OFFSET;
    for (let at = open + 1; at < length; at++) {
      const byte = source[at] as number;
      if (byte === QUOTE) {
        this.end = at;
        this.hash = finish(state);
        return true;
      }
      if (byte < 0x20 || byte === BACKSLASH) return false;
      state = imul(state ^ byte, FNV_PRIME);
    }
    return false;
  }
}

// The hash that TargetList finds duplicates with, and the scan that reads a plain JSON string and hashes
// it four bytes at a time. A 20 MiB file is mostly such strings, and a loop that looks at every byte on
// its own is most of the time it takes to read it.
//
// The hash is the target's bytes read as a number in base 256 (first byte lowest), modulo the prime
// 2^31 - 1, mixed with the target's length. Because 2^31 = 1 modulo that prime, multiplying by a power of
// two is a rotation of 31 bits, so the same value comes out of the aligned 32-bit words that hold a
// target wherever it starts: their sum, each rotated by its place, then rotated back by the target's
// offset within its first word. Equal targets get equal hashes whichever way they were hashed.
import { wordsOf } from './buffer-words.js';

const PRIME = 0x7fffffff;

// Held in module scope: a global looked up in a hot loop is slow inside vm contexts (jest's tests).
const imul = Math.imul;
const clz32 = Math.clz32;

const QUOTE = 0x22;

/** `value` (below 2^31 - 1) times 2^bits, modulo 2^31 - 1, for `bits` from 0 to 30. */
function rotate(value: number, bits: number): number {
  return ((value << bits) | (value >>> (31 - bits))) & PRIME;
}

/** The 32-bit word, read as unsigned, modulo 2^31 - 1. */
function wordResidue(word: number): number {
  const residue = (word & PRIME) + (word >>> 31);
  return residue >= PRIME ? residue - PRIME : residue;
}

/** Spreads the residue and the length over all 32 bits, for the table's slots and fingerprints. */
function finish(residue: number, length: number): number {
  let hash = residue ^ imul(length, 0x9e3779b1);
  hash = imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return hash ^ (hash >>> 16);
}

/** The hash of `buffer[start, end)`, a byte at a time. */
export function hashBytes(buffer: Uint8Array, start: number, end: number): number {
  let residue = 0;
  let bits = 0;
  for (let i = start; i < end; i++) {
    residue += rotate(buffer[i] as number, bits);
    if (residue >= PRIME) residue -= PRIME;
    bits += 8;
    if (bits >= 31) bits -= 31;
  }
  return finish(residue, end - start);
}

/**
 * A hash whose collisions cannot be planned: a polynomial in a random `base` modulo 2^31 - 1, which two
 * different targets of n bytes share with a chance of at most n in 2^31. `hashBytes` is fast but anyone
 * can make targets collide under it (bytes swapped 31 places apart), and each collision costs a
 * comparison with every target of its kind already listed; TargetList turns to this one when its targets
 * collide far more often than chance allows.
 */
export function seededHash(buffer: Uint8Array, start: number, end: number, base: number): number {
  // Two halves of the base keep every product below 2^53, where doubles are exact.
  const high = base >>> 16;
  const low = base & 0xffff;
  let residue = 0;
  for (let i = start; i < end; i++) {
    residue = (((residue * high) % PRIME) * 0x10000 + residue * low + (buffer[i] as number)) % PRIME;
  }
  return finish(residue, end - start);
}

/** A base for seededHash, unknown to whoever wrote the targets. */
export function randomHashBase(): number {
  return 0x10000 + Math.floor(Math.random() * (PRIME - 0x10000));
}

/**
 * Reads the JSON strings of one buffer four bytes at a time, when the buffer's words can be read in
 * place (it starts on a 4-byte boundary of a little-endian machine).
 */
export class PlainJsonStrings {
  /** Set by `scan`: the index of the string's closing quote, and the hash of the bytes between. */
  end = -1;
  hash = 0;
  private readonly words: Int32Array | undefined;

  constructor(private readonly source: Buffer) {
    this.words = wordsOf(source);
  }

  /**
   * Whether the JSON string whose opening quote is at `open` is plain: it ends at a quote with no
   * escape or control character before it (and within the buffer's last whole word). Sets `end` and
   * `hash` when it is.
   */
  scan(open: number): boolean {
    const words = this.words;
    const start = open + 1;
    let at = start >>> 2;
    if (words === undefined || at >= words.length) return false;
    const offset = start & 3;
    // The word's bytes before the string count as 0 in the hash and as a letter in the checks.
    const before = (1 << (8 * offset)) - 1;
    let word = (words[at] as number) & ~before;
    let checked = word | (0x41414141 & before);
    let residue = 0;
    let bits = 0;
    for (;;) {
      // The high bit of each byte that is a quote, a backslash, or below 0x20; exact for the lowest one.
      const quotes = checked ^ 0x22222222;
      const backslashes = checked ^ 0x5c5c5c5c;
      const stops =
        (((quotes - 0x01010101) & ~quotes) |
          ((backslashes - 0x01010101) & ~backslashes) |
          ((checked - 0x20202020) & ~checked)) &
        0x80808080;
      if (stops !== 0) {
        const lane = (31 - clz32(stops & -stops)) >>> 3;
        const end = at * 4 + lane;
        if (this.source[end] !== QUOTE) return false;
        residue += rotate(wordResidue(word & ((1 << (8 * lane)) - 1)), bits);
        if (residue >= PRIME) residue -= PRIME;
        this.end = end;
        this.hash = finish(rotate(residue, (31 - 8 * offset) % 31), end - start);
        return true;
      }
      residue += rotate(wordResidue(word), bits);
      if (residue >= PRIME) residue -= PRIME;
      bits = bits === 30 ? 0 : bits + 1;
      if (++at === words.length) return false;
      word = checked = words[at] as number;
    }
  }
}

// A buffer read as 32-bit words in place, for the loops that look at a large targets file four bytes at
// a time (each word's lowest byte first).

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * The buffer's whole 32-bit words, word i holding bytes 4i to 4i + 3; undefined where they cannot be read
 * in place (a buffer that does not start on a 4-byte boundary, or a big-endian machine).
 */
export function wordsOf(buffer: Buffer): Int32Array | undefined {
  if (!LITTLE_ENDIAN || buffer.byteOffset % 4 !== 0) return undefined;
  return new Int32Array(buffer.buffer, buffer.byteOffset, buffer.length >>> 2);
}

// Counts one byte value in a buffer, which sizes a TargetList before it is filled. A 20 MiB list holds a
// million quotes: found one by one (indexOf) they take longer than reading four bytes at a time.

const imul = Math.imul;
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** How many times `byte` occurs in `content` from index `from` on. */
export function countByte(content: Buffer, byte: number, from: number): number {
  if (!LITTLE_ENDIAN || content.byteOffset % 4 !== 0) return countByteByByte(content, byte, from);
  const firstWord = (from + 3) >>> 2;
  const endWord = content.length >>> 2;
  if (firstWord >= endWord) return countByteByByte(content, byte, from);
  let count = 0;
  for (let at = from; at < firstWord * 4; at++) if (content[at] === byte) count++;
  const words = new Int32Array(content.buffer, content.byteOffset, endWord);
  const pattern = imul(byte, 0x01010101);
  for (let at = firstWord; at < endWord; at++) {
    const differs = (words[at] as number) ^ pattern;
    // The high bit of each byte that is not 0, exactly (no carry crosses a byte).
    const nonZero = (((differs & 0x7f7f7f7f) + 0x7f7f7f7f) | differs) & 0x80808080;
    count += imul((~nonZero & 0x80808080) >>> 7, 0x01010101) >>> 24;
  }
  for (let at = endWord * 4; at < content.length; at++) if (content[at] === byte) count++;
  return count;
}

function countByteByByte(content: Buffer, byte: number, from: number): number {
  let count = 0;
  for (let at = content.indexOf(byte, from); at >= 0; at = content.indexOf(byte, at + 1)) count++;
  return count;
}

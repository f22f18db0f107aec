// Counts one byte value in a buffer, which sizes a TargetList before it is filled. A 20 MiB list holds a
// million quotes: found one by one (indexOf) they take longer than reading four bytes at a time.
import { wordsOf } from './buffer-words.js';

const imul = Math.imul;

/** How many times `byte` occurs in `content` from index `from` on. */
export function countByte(content: Buffer, byte: number, from: number): number {
  const words = wordsOf(content);
  const firstWord = (from + 3) >>> 2;
  if (!words || firstWord >= words.length) return countByteByByte(content, byte, from);
  const endWord = words.length;
  let count = 0;
  for (let at = from; at < firstWord * 4; at++) if (content[at] === byte) count++;
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

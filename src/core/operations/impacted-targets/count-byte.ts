// Counts one byte value in a buffer, which sizes a TargetList before it is filled.

/** How many times `byte` occurs in `content` from index `from` on. */
export function countByte(content: Buffer, byte: number, from: number): number {
  let count = 0;
  for (let at = from; at < content.length; at++) if (content[at] === byte) count++;
  return count;
}

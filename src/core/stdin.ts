// Standard input, for an input file given as `-`: read to its end, refused past a cap, so that a file
// piped in is bounded like a file on disk.
import { InputError } from './errors.js';

/** The path that means standard input. */
export const STANDARD_INPUT = '-';

export async function readStandardInput(
  input: string,
  maxBytes: number,
  advice: string,
  stream: AsyncIterable<Buffer | string> | undefined,
): Promise<Buffer> {
  if (!stream) {
    throw new InputError(
      input,
      'is "-" (standard input), which this runner does not pass on',
      'Give a file path.',
    );
  }
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of stream) {
    const piece = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    bytes += piece.length;
    if (bytes > maxBytes) {
      throw new InputError(input, `standard input is over ${maxBytes} bytes`, advice);
    }
    chunks.push(piece);
  }
  return Buffer.concat(chunks);
}

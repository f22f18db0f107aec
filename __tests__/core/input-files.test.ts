// readInputFile hands a caller each piece of a file as it is read (the impacted-targets file's quotes are
// counted so, while the next piece is on its way): the pieces are the file, in order, each byte once.
import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readInputFile } from '../../src/core/files.js';

const dir = mkdtempSync(join(tmpdir(), 'mqa-input-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function piecesOf(content: Buffer): Promise<{ read: Buffer; pieces: Buffer[] }> {
  const path = join(dir, `file-${content.length}`);
  writeFileSync(path, content);
  const pieces: Buffer[] = [];
  const { content: read } = await readInputFile({
    input: 'some-file',
    path,
    cwd: dir,
    maxBytes: 8 * 1024 * 1024,
    onPiece: (piece) => pieces.push(Buffer.from(piece)),
  });
  return { read, pieces };
}

describe('readInputFile onPiece', () => {
  it('hands a file of several MiB in pieces that make it up exactly', async () => {
    const content = Buffer.alloc(3 * 1024 * 1024 + 12345);
    for (let i = 0; i < content.length; i++) content[i] = (i * 7919) % 251;

    const { read, pieces } = await piecesOf(content);

    expect(read.equals(content)).toBe(true);
    expect(Buffer.concat(pieces).equals(content)).toBe(true);
  });

  it('hands an empty file as nothing', async () => {
    const { read, pieces } = await piecesOf(Buffer.alloc(0));

    expect(read.length).toBe(0);
    expect(Buffer.concat(pieces).length).toBe(0);
  });
});

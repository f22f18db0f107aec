// Step files: a report written from many pieces in vectored writes holds exactly the pieces in order,
// and a temp directory that cannot take the file is one clear line.
import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeRedactedStepFile, writeStepFile } from '../../src/core/operations/step-file.js';

const dir = mkdtempSync(join(tmpdir(), 'mqa-step-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const target = { tempDir: dir, redact: (text: string) => text.replaceAll('s3cret', '***') };

describe('step files', () => {
  it('writes many pieces, empty ones among them, as one file in their order', async () => {
    // More pieces than one writev takes (IOV_MAX is 1024 on Linux), some large.
    const pieces = Array.from({ length: 5000 }, (_, i) =>
      Buffer.from(i % 7 === 0 ? '' : i % 500 === 1 ? `${i}:${'x'.repeat(300_000)}\n` : `{"test":${i}},\n`),
    );
    const path = await writeRedactedStepFile(target, 'report.json', pieces);
    expect(readFileSync(path).equals(Buffer.concat(pieces))).toBe(true);
  });

  it('hides secrets in text and gives every file a directory of its own', async () => {
    const first = await writeStepFile(target, 'metrics.txt', 'token s3cret\n');
    const second = await writeStepFile(target, 'metrics.txt', 'again\n');
    expect(readFileSync(first, 'utf8')).toBe('token ***\n');
    expect(second).not.toBe(first);
  });

  it('names the temp directory when it cannot take the file', async () => {
    const notADirectory = join(dir, 'a-file');
    writeFileSync(notADirectory, '');
    await expect(writeRedactedStepFile({ ...target, tempDir: notADirectory }, 'r.json', [])).rejects.toThrow(
      `r.json could not be written: the temporary directory "${notADirectory}" is not a directory.`,
    );
  });
});

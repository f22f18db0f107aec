// sax alone reading a directory's reports, shared by the check-test-results benchmark's floors: the same
// parser library (sax, strict, the same options and buffer limit as
// src/core/operations/flaky-tests/check-test-results/junit.ts) reading the same files the same way (one
// reused 32 KiB buffer, read synchronously, decoded as UTF-8), with no handler: parsing and nothing else.
// `turns` gives the event loop a turn before each chunk, as the gate does so that other work (the
// service's pages) goes on while the reports are read; sax alone needs none.
import { closeSync, openSync, readdirSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { setImmediate as turn } from 'node:timers/promises';
import sax from 'sax';

sax.MAX_BUFFER_LENGTH = 1024 * 1024;

/** Every .xml file under `dir`, at any depth (Bazel writes one per target, in the target's path), parsed. */
export async function parseReports(dir, { turns = false } = {}) {
  const buffer = Buffer.allocUnsafe(32 * 1024);
  const reports = readdirSync(dir, { recursive: true })
    .filter((name) => name.endsWith('.xml'))
    .sort();
  for (const name of reports) {
    const parser = sax.parser(true, { trim: false, normalize: false, position: true, xmlns: false });
    const decoder = new StringDecoder('utf8');
    const fd = openSync(join(dir, name), 'r');
    for (;;) {
      if (turns) await turn();
      const bytesRead = readSync(fd, buffer, 0, buffer.length, null);
      if (!bytesRead) break;
      parser.write(decoder.write(bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead)));
    }
    closeSync(fd);
    parser.write(decoder.end());
    parser.close();
  }
}

// The floor of the check-test-results benchmark: the same parser library (sax, strict, the same options
// as src/core/operations/flaky-tests/check-test-results/junit.ts) reading the same files in the same
// chunks, with no handler: parsing and nothing else.
import { createReadStream, readdirSync } from 'node:fs';
import { join } from 'node:path';
import sax from 'sax';

const dir = process.argv[2];
for (const name of readdirSync(dir).sort()) {
  const parser = sax.parser(true, { trim: false, normalize: false, position: true, xmlns: false });
  for await (const chunk of createReadStream(join(dir, name), {
    encoding: 'utf8',
    highWaterMark: 256 * 1024,
  })) {
    parser.write(chunk);
  }
  parser.close();
}

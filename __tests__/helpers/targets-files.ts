// Targets files a test file writes for set-impacted-targets to read: each in a directory of the test
// file's own, removed after its tests.
import { afterAll } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A writer of numbered targets files (`targets-1.json`, ...): give it the content, get the path. */
export function targetsFiles(extension: '.json' | '.txt'): (content: string) => string {
  const dir = mkdtempSync(join(tmpdir(), 'mqa-targets-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let files = 0;
  return (content) => {
    const path = join(dir, `targets-${++files}${extension}`);
    writeFileSync(path, content);
    return path;
  };
}

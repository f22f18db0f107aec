// A JUnit report's `file=` is text the pull request's tests wrote (issue 25, row 16): a path that stays
// inside the checkout by its letters may still lead out of it through a symlink. The gate finds a failed
// test's line by searching that file only when its real path is inside the checkout.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Emulator } from '../../emulator/server.js';
import { REPO, seed, startFlakyEmulator } from '../helpers/flaky-harness.js';
import { runOperation } from '../helpers/prepare.js';

let emulator: Emulator;
let dir: string;
beforeAll(async () => {
  emulator = await startFlakyEmulator();
  await seed(emulator, { repositories: [{ repo: REPO, org_url_slug: 'octo-org', tests: [] }] });
  dir = mkdtempSync(join(tmpdir(), 'mqa-untrusted-reports-'));
});
afterAll(async () => {
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a failed test whose file= leads out of the checkout', () => {
  it('row 16: is annotated on the file without a line read from outside', async () => {
    const outside = join(dir, 'outside');
    mkdirSync(outside);
    // The third line of a file outside names the test: its line number would tell what the file holds.
    writeFileSync(join(outside, 'secret.txt'), 'one\ntwo\nsecret-test-name here\n');
    const checkout = join(dir, 'checkout');
    mkdirSync(join(checkout, 'reports'), { recursive: true });
    symlinkSync(outside, join(checkout, 'link'));
    writeFileSync(join(checkout, 'inside.test.js'), 'a\nb\ninside-test-name here\n');
    writeFileSync(
      join(checkout, 'reports', 'junit.xml'),
      [
        '<testsuite name="s">',
        '<testcase name="secret-test-name" file="link/secret.txt"><failure message="boom"/></testcase>',
        '<testcase name="inside-test-name" file="inside.test.js"><failure message="boom"/></testcase>',
        '</testsuite>',
      ].join(''),
    );
    const result = await runOperation(emulator, 'check-test-results', {
      'junit-paths': 'reports/*.xml',
      'checkout-dir': checkout,
    });
    const at = (name: string) =>
      result.annotations.find((annotation) => annotation.title === `Likely caused by this PR: ${name}`);
    expect(at('inside-test-name')).toMatchObject({ file: 'inside.test.js', line: 3 });
    expect(at('secret-test-name')).toMatchObject({ file: 'link/secret.txt' });
    expect(at('secret-test-name')).not.toHaveProperty('line');
  });
});

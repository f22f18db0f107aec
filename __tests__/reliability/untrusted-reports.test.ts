// A JUnit report's `file=` is text the pull request's tests wrote (issue 25, row 16): a path that stays
// inside the checkout by its letters may still lead out of it through a symlink. The gate finds a failed
// test's line by searching that file only when its real path is inside the checkout.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Emulator } from '../../emulator/server.js';
import { readReports } from '../../src/core/operations/flaky-tests/check-test-results/reports.js';
import { REPO, seed, startFlakyEmulator } from '../helpers/flaky-harness.js';
import { errorOf, runOperation } from '../helpers/prepare.js';

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

/** A JUnit report that fails one test named `name`. */
const failing = (name: string) =>
  `<testsuite name="s"><testcase name="${name}" classname="c"><failure message="boom"/><system-out>${'.'.repeat(3000)}</system-out></testcase></testsuite>`;

let checkouts = 0;
/** A checkout with a reports directory, and a directory beside it that the checkout's symlinks may reach. */
function checkoutWithOutside(): { checkout: string; outside: string } {
  const root = join(dir, `reports-${++checkouts}`);
  const checkout = join(root, 'checkout');
  const outside = join(root, 'outside');
  mkdirSync(join(checkout, 'reports'), { recursive: true });
  mkdirSync(outside);
  return { checkout, outside };
}

describe('which reports are read', () => {
  it('refuses a report that is a symlink out of the checkout, with one line and nothing of what it leads to', async () => {
    const { checkout, outside } = checkoutWithOutside();
    writeFileSync(join(outside, 'runner-secret.xml'), failing('name-from-the-runner-home'));
    writeFileSync(join(checkout, 'reports', 'unit.xml'), failing('a-real-failure'));
    symlinkSync(join(outside, 'runner-secret.xml'), join(checkout, 'reports', 'zz-link.xml'));
    const error = await errorOf(
      runOperation(emulator, 'check-test-results', {
        'junit-paths': 'reports/*.xml',
        'checkout-dir': checkout,
      }),
    );
    expect(error.message).toMatch(
      /^Input "junit-paths": "reports\/zz-link.xml" leads outside the working directory/,
    );
    expect(error.message).not.toContain('name-from-the-runner-home');
    expect(error.message.split('\n')).toHaveLength(1);
  });

  it('reads reports where the workflow points outside the checkout, and still no symlink out of there', async () => {
    const { checkout, outside } = checkoutWithOutside();
    mkdirSync(join(outside, 'results'));
    writeFileSync(join(outside, 'results', 'unit.xml'), failing('written-outside-by-the-workflow'));
    mkdirSync(join(outside, 'more'));
    writeFileSync(join(outside, 'more', 'unit.xml'), failing('written-beside-by-the-workflow'));
    const result = await runOperation(emulator, 'check-test-results', {
      'junit-paths': '../outside/results/*.xml, ../outside/more/*.xml',
      'checkout-dir': checkout,
    });
    expect(result.outputs['failed-count']).toBe(2);

    writeFileSync(join(outside, 'credentials.xml'), failing('name-from-beside-the-results'));
    symlinkSync(join(outside, 'credentials.xml'), join(outside, 'results', 'linked.xml'));
    const error = await errorOf(
      runOperation(emulator, 'check-test-results', {
        'junit-paths': '../outside/results/*.xml',
        'checkout-dir': checkout,
      }),
    );
    expect(error.message).toContain('"../outside/results/linked.xml" leads outside');
    expect(error.message).not.toContain('name-from-beside-the-results');
  });

  it('stops at the cap on all reports together, naming the report it was reading', async () => {
    const { checkout } = checkoutWithOutside();
    for (const name of ['a.xml', 'b.xml'])
      writeFileSync(join(checkout, 'reports', name), failing(`t-${name}`));
    const oneReport = Buffer.byteLength(failing('t-a.xml'));
    const read = await readReports(['reports/*.xml'], checkout, undefined, 2 * oneReport);
    expect(read.cases).toBe(2);
    const error = await errorOf(readReports(['reports/*.xml'], checkout, undefined, 4 * 1024));
    expect(error.message).toBe(
      'Input "junit-paths": the reports are over 4 KiB in all (reading reports/b.xml). Narrow the globs to the JUnit reports the test runner writes, e.g. `reports/**/*.xml`.',
    );
  });
});

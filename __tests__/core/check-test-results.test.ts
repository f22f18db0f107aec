// check-test-results, the quarantine gate, against the emulator over HTTP: JUnit reports written by real
// runners (jest with jest-junit, node's own test runner) and fixtures in the other dialects, every
// verdict, the annotations at the tests, and the gate during an outage of the service.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile, execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Emulator } from '../../emulator/server.js';
import type { FixtureTest } from '../../emulator/flaky-tests/fixture.js';
import { runOperation } from '../helpers/prepare.js';
import { REPO, TOKEN, failureOf, seed, startFlakyEmulator } from '../helpers/flaky-harness.js';
import {
  CHUNK_BYTES,
  MAX_TOKEN_CHARS,
} from '../../src/core/operations/flaky-tests/check-test-results/junit.js';
import { readReports } from '../../src/core/operations/flaky-tests/check-test-results/reports.js';

const run = promisify(execFile);
const FIXTURES = resolve('__tests__/fixtures/junit');
const JEST = resolve('node_modules/jest/bin/jest.js');
const JEST_JUNIT = resolve('node_modules/jest-junit');

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startFlakyEmulator();
});
afterAll(async () => {
  await emulator.close();
});

/** A fifo at `path`, which nothing ever writes to: a read of it waits forever. */
function mkfifo(path: string): string {
  execFileSync('mkfifo', [path]);
  return path;
}

function checkout(): string {
  return mkdtempSync(join(tmpdir(), 'mqa-checkout-'));
}

async function seedTests(tests: FixtureTest[]): Promise<void> {
  await seed(emulator, { repositories: [{ repo: REPO, org_url_slug: 'octo-org', tests }] });
}

function gate(dir: string, inputs: Record<string, string> = {}) {
  return runOperation(emulator, 'check-test-results', {
    'junit-paths': 'reports/**/*.xml',
    'checkout-dir': dir,
    ...inputs,
  });
}

interface FailureOutput {
  name: string;
  file: string;
  message: string;
  verdict: string;
  line?: number;
}

const parsed = (value: unknown) => JSON.parse(String(value)) as FailureOutput[];

describe('a report written by jest with jest-junit', () => {
  let dir: string;
  beforeAll(async () => {
    dir = checkout();
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'package.json'), '{"name":"sample","private":true}');
    writeFileSync(
      join(dir, 'src', 'cart.test.js'),
      [
        "describe('Cart', () => {",
        "  test('adds an item', () => expect(1 + 1).toBe(2));",
        '',
        "  test('expires after a timeout', () => expect('stale').toBe('fresh'));",
        "  test('syncs when offline', () => { throw new Error('ECONNREFUSED 127.0.0.1:5432'); });",
        "  test.skip('renders', () => {});",
        '});',
        '',
      ].join('\n'),
    );
    writeFileSync(join(dir, 'CODEOWNERS'), '* @acme/platform\nsrc/ @acme/payments\n');
    await run(
      process.execPath,
      [JEST, '--ci', '--watchman=false', '--rootDir', dir, `--reporters=${JEST_JUNIT}`],
      {
        cwd: dir,
        env: {
          ...process.env,
          JEST_JUNIT_OUTPUT_DIR: join(dir, 'reports'),
          JEST_JUNIT_ADD_FILE_ATTRIBUTE: 'true',
        },
      },
    ).catch((error: { code?: number }) => {
      // jest exits 1 because tests failed: that is the point.
      if (error.code !== 1) throw error;
    });
  }, 60_000);

  it('fails the step for a failure the service does not know, and passes the quarantined one', async () => {
    await seedTests([
      {
        name: 'Cart syncs when offline',
        classname: 'Cart syncs when offline',
        file_path: 'src/cart.test.js',
        status: 'flaky',
        quarantine_override: 'ALWAYS_QUARANTINE',
      },
    ]);
    const result = await gate(dir);
    expect(result.outputs['failed-count']).toBe(2);
    expect(parsed(result.outputs['quarantined-failures'])).toEqual([
      expect.objectContaining({
        name: 'Cart syncs when offline',
        verdict: 'quarantined',
        file: 'src/cart.test.js',
      }),
    ]);
    const unquarantined = parsed(result.outputs['unquarantined-failures']);
    expect(unquarantined).toEqual([
      expect.objectContaining({
        name: 'Cart expires after a timeout',
        verdict: 'new',
        file: 'src/cart.test.js',
      }),
    ]);
    expect(unquarantined[0]!.message).toContain('toBe');
    expect(result.failure).toMatch(/^1 failed test is likely caused by this PR/);
    // The failure's annotation is titled with what happened, not the operation's name.
    expect(result.failureTitle).toBe('1 failure not quarantined: likely caused by this PR');
    // Annotated at the test's own line, found by searching the file for its name.
    expect(result.annotations).toEqual([
      expect.objectContaining({
        level: 'error',
        file: 'src/cart.test.js',
        line: 4,
        title: 'Likely caused by this PR: Cart expires after a timeout',
      }),
    ]);
    const summary = String(result.summary);
    expect(summary).toMatch(/^## ❌ 1 of 2 failed tests fails this step/);
    expect(summary).toContain('@acme/payments');
    expect(summary).toContain('Quarantined: 1 failure kept from failing the step');
  });

  it('passes when every failure is quarantined', async () => {
    await seedTests(
      ['Cart syncs when offline', 'Cart expires after a timeout'].map((name) => ({
        name,
        classname: name,
        file_path: 'src/cart.test.js',
        status: 'flaky' as const,
        quarantine_override: 'ALWAYS_QUARANTINE' as const,
      })),
    );
    const result = await gate(dir);
    expect(result.failure).toBeUndefined();
    expect(parsed(result.outputs['unquarantined-failures'])).toEqual([]);
    expect(result.annotations).toEqual([]);
    expect(String(result.summary)).toContain('✅ 2 failed tests, all quarantined');
  });
});

describe("a report written by node's test runner", () => {
  let dir: string;
  beforeAll(async () => {
    dir = checkout();
    mkdirSync(join(dir, 'reports'));
    writeFileSync(
      join(dir, 'queue.test.mjs'),
      [
        "import { describe, it } from 'node:test';",
        "import assert from 'node:assert';",
        "describe('Queue', () => {",
        "  it('keeps order', () => {});",
        "  it('drops the head under load', () => assert.strictEqual(1, 2));",
        '});',
        '',
      ].join('\n'),
    );
    await run(
      process.execPath,
      ['--test', '--test-reporter=junit', '--test-reporter-destination=reports/node.xml', 'queue.test.mjs'],
      { cwd: dir },
    ).catch((error: { code?: number }) => {
      if (error.code !== 1) throw error;
    });
  }, 60_000);

  it('calls a failure of a test the service lists as flaky known flaky, which by default does not fail the step', async () => {
    await seedTests([{ name: 'drops the head under load', classname: 'test', status: 'flaky' }]);
    const result = await gate(dir);
    expect(parsed(result.outputs['unquarantined-failures'])).toEqual([
      expect.objectContaining({ name: 'drops the head under load', verdict: 'known-flaky' }),
    ]);
    expect(result.failure).toBeUndefined();
    expect(result.annotations).toEqual([
      expect.objectContaining({ level: 'warning', title: 'Known flaky: test › drops the head under load' }),
    ]);
    // The report's message as one line (its first), never a line break shown as an escape.
    expect(result.annotations[0]!.message).toMatch(/strictly equal/);
    expect(result.annotations[0]!.message).not.toMatch(/\n|\\n/);
  });

  it('fails on known-flaky failures too when fail-on-verdict says so', async () => {
    await seedTests([{ name: 'drops the head under load', classname: 'test', status: 'flaky' }]);
    const result = await gate(dir, { 'fail-on-verdict': 'new,known-flaky' });
    expect(result.failure).toMatch(/^1 failed test is likely caused by this PR or known flaky/);
  });
});

describe('the other dialects', () => {
  let dir: string;
  beforeAll(() => {
    dir = checkout();
    mkdirSync(join(dir, 'reports'));
    for (const name of [
      'pytest.xml',
      'gotestsum.xml',
      'surefire.xml',
      'bazel-test.xml',
      'nested-retries.xml',
    ]) {
      cpSync(join(FIXTURES, name), join(dir, 'reports', name));
    }
  });

  it('reads pytest, gotestsum, Surefire, Bazel and nested suites, with retries counted once', async () => {
    await seedTests([]);
    const result = await gate(dir, { 'fail-on-verdict': 'any' });
    const failures = parsed(result.outputs['unquarantined-failures']);
    expect(failures.map((failure) => failure.name).sort()).toEqual([
      '//services/search:query_test',
      'TestCartValidates/under_load_2',
      'TestStockExpires',
      'expires the session',
      'expiresInvoice',
      'test_cancels_cart_under_load[case-229]',
      'test_refund',
    ]);
    const byName = new Map(failures.map((failure) => [failure.name, failure]));
    expect(byName.get('test_cancels_cart_under_load[case-229]')).toMatchObject({
      file: 'tests/checkout/test_cart.py',
      line: 27,
      message: 'AssertionError: assert 503 == 200',
    });
    expect(byName.get('test_refund')!.message).toBe('failed on setup with "fixture \'db\' not found"');
    expect(byName.get('TestCartValidates/under_load_2')!.message).toBe('Failed');
    expect(byName.get('expiresInvoice')!.message).toBe('Invoice was not expired');
    expect(byName.get('//services/search:query_test')!.message).toBe('exited with error code 1');
    // A nested suite's file is the test's; both attempts failed, so the test failed.
    expect(byName.get('expires the session')).toMatchObject({ file: 'src/auth/session.test.ts' });
    // Passed on a retry (a repeated test case, and Surefire's flakyFailure): not failures.
    expect(byName.has('updates the session when offline')).toBe(false);
    expect(byName.has('retriesInvoiceWhenOffline')).toBe(false);
    expect(String(result.summary)).toContain('2 passed on a retry');
    expect(result.outputs['failed-count']).toBe(7);
  });

  it('gives each failure its verdict from what the service knows', async () => {
    await seedTests([
      { name: 'TestStockExpires', classname: 'github.com/acme/shop/stock', status: 'broken' },
      { name: 'expiresInvoice', classname: 'com.acme.shop.InvoiceServiceTest', status: 'flaky' },
      {
        name: 'test_refund',
        classname: 'tests.checkout.test_cart',
        file_path: 'tests/checkout/test_cart.py',
        status: 'healthy',
        failures: [{ at: new Date(Date.now() - 3600_000).toISOString(), summary: 'fixture db not found' }],
      },
      {
        name: 'TestCartValidates/under_load_2',
        parent: 'github.com/acme/shop/cart',
        status: 'broken',
        quarantine_override: 'ALWAYS_QUARANTINE',
      },
      // Same name, another variant: not this run's test.
      {
        name: 'expires the session',
        variant: 'macos-arm64',
        status: 'flaky',
        quarantine_override: 'ALWAYS_QUARANTINE',
      },
    ]);
    const result = await gate(dir);
    const all = [
      ...parsed(result.outputs['quarantined-failures']),
      ...parsed(result.outputs['unquarantined-failures']),
    ];
    const verdicts = Object.fromEntries(all.map((failure) => [failure.name, failure.verdict]));
    expect(verdicts).toEqual({
      '//services/search:query_test': 'new',
      'TestCartValidates/under_load_2': 'quarantined',
      TestStockExpires: 'failing-on-target',
      'expires the session': 'new',
      expiresInvoice: 'known-flaky',
      'test_cancels_cart_under_load[case-229]': 'new',
      test_refund: 'failing-on-target',
    });
    expect(result.outputs['step-failing-count']).toBe(3);
    expect(result.failure).toMatch(/^3 failed tests are/);
    // A test the service lists is linked to its page there.
    expect(String(result.summary)).toMatch(/expiresInvoice\]\(https?:\/\/[^)]*\/flaky-tests\/test\//);
    // The variant input picks the other variant's quarantine.
    const macos = await gate(dir, { variant: 'macos-arm64' });
    expect(parsed(macos.outputs['quarantined-failures']).map((failure) => failure.name)).toEqual([
      'expires the session',
    ]);
  });

  it('annotates at most 10 failures per level and says how many more there are', async () => {
    const many = checkout();
    mkdirSync(join(many, 'reports'));
    const cases = Array.from(
      { length: 14 },
      (_, i) =>
        `<testcase classname="Big" name="case ${i}" file="big.test.js" line="${i + 1}"><failure message="m${i}"/></testcase>`,
    );
    writeFileSync(join(many, 'reports', 'big.xml'), `<testsuite name="Big">${cases.join('')}</testsuite>`);
    await seedTests([]);
    const result = await gate(many);
    const errors = result.annotations.filter((a) => a.level === 'error');
    expect(errors).toHaveLength(10);
    expect(errors[0]).toMatchObject({
      file: 'big.test.js',
      line: 1,
      title: 'Likely caused by this PR: Big › case 0',
    });
    expect(result.annotations.filter((a) => a.level === 'notice')).toEqual([
      expect.objectContaining({
        message: expect.stringMatching(/^4 more failed tests at error level are not annotated/),
      }),
    ]);
    expect(result.outputs['failed-count']).toBe(14);
  });
});

describe('large reports', () => {
  it('reads names whose characters straddle the chunks a report is read in, and caps long messages', async () => {
    const dir = checkout();
    mkdirSync(join(dir, 'reports'));
    const names = Array.from({ length: 3000 }, (_, i) => `проверка 測試 🚀 ${i}`);
    const huge = 'expected the invoice to expire '.repeat(4000);
    const cases = names.map((name, i) =>
      i === 7
        ? `<testcase classname="Большой" name="${name}"><failure message="${huge}"/></testcase>`
        : i === 8
          ? `<testcase classname="Большой" name="${name}"><failure>${huge}\n  at stack</failure></testcase>`
          : `<testcase classname="Большой" name="${name}"><failure message="m"/></testcase>`,
    );
    const xml = Buffer.from(`<testsuite name="Большой">${cases.join('\n')}</testsuite>`);
    // Both sides of some chunk boundary are one character: the reader must not split it.
    const straddled = Array.from(
      { length: Math.floor(xml.length / CHUNK_BYTES) },
      (_, k) => (k + 1) * CHUNK_BYTES,
    );
    expect(straddled.some((at) => (xml[at]! & 0xc0) === 0x80)).toBe(true);
    writeFileSync(join(dir, 'reports', 'large.xml'), xml);
    await seedTests([]);
    const result = await gate(dir);
    expect(result.outputs['failed-count']).toBe(names.length);
    const report = JSON.parse(readFileSync(String(result.outputs['report-file']), 'utf8')) as {
      failures: FailureOutput[];
    };
    expect(report.failures.map((failure) => failure.name)).toEqual(names);
    // A message of 124,000 characters (attribute or text) is cut to its first 500, marked as cut.
    for (const failure of [report.failures[7]!, report.failures[8]!]) {
      expect(failure.message).toBe(`${huge.trim().slice(0, 500)}…`);
    }
  });

  it('lets other work run between the chunks of a report, so the service is asked while the rest is read', async () => {
    const dir = checkout();
    mkdirSync(join(dir, 'reports'));
    const cases = Array.from(
      { length: 8000 },
      (_, i) =>
        `<testcase classname="Suite" name="test ${i}">${i === 0 ? '<failure message="boom"/>' : ''}</testcase>`,
    );
    const xml = `<testsuite name="Suite">${cases.join('\n')}</testsuite>`;
    const chunks = Math.ceil(xml.length / CHUNK_BYTES);
    expect(chunks).toBeGreaterThan(8);
    writeFileSync(join(dir, 'reports', 'large.xml'), xml);
    // Started at the first failure, as the gate starts asking the service: one step per turn of the loop.
    let turns = 0;
    let reading = true;
    const step = () => {
      turns++;
      if (reading) setImmediate(step);
    };
    const results = await readReports(['reports/*.xml'], dir, () => setImmediate(step));
    reading = false;
    expect(results.failed()).toHaveLength(1);
    expect(turns).toBeGreaterThanOrEqual(chunks - 2);
  });
});

describe('many tests', () => {
  it('tells thousands of tests apart by their exact names, across reports and listing pages', async () => {
    const dir = checkout();
    mkdirSync(join(dir, 'reports'));
    const names = Array.from({ length: 3000 }, (_, i) => `обработка ✓ ${i}`);
    const report = (cases: string[]) => `<testsuite name="Σ">${cases.join('')}</testsuite>`;
    // Every 10th test fails; a retry in another report passes every 20th again.
    writeFileSync(
      join(dir, 'reports', 'a.xml'),
      report(
        names.map(
          (name, i) =>
            `<testcase classname="Σ" name="${name}">${i % 10 === 0 ? '<failure message="m"/>' : ''}</testcase>`,
        ),
      ),
    );
    writeFileSync(
      join(dir, 'reports', 'b-retry.xml'),
      report(names.filter((_, i) => i % 20 === 0).map((name) => `<testcase classname="Σ" name="${name}"/>`)),
    );
    // The service quarantines the 150 failures that stayed failed, among 1,500 others whose names
    // only start like theirs.
    const quarantined = (name: string) => ({
      name,
      classname: 'Σ',
      status: 'flaky' as const,
      quarantine_override: 'ALWAYS_QUARANTINE' as const,
    });
    await seedTests([
      ...names.filter((_, i) => i % 20 === 10).map(quarantined),
      ...Array.from({ length: 1500 }, (_, i) => quarantined(`${names[i]}0`)),
    ]);
    const result = await gate(dir);
    expect(String(result.summary)).toContain('150 passed on a retry');
    expect(result.outputs['failed-count']).toBe(150);
    expect(parsed(result.outputs['quarantined-failures']).map((failure) => failure.name)).toEqual(
      names.filter((_, i) => i % 20 === 10),
    );
    expect(result.outputs['step-failing-count']).toBe(0);
  });
});

describe('a test that passed before it failed', () => {
  it('is passed on a retry when the report that passed it is read first, as Bazel lays out its attempts', async () => {
    const dir = checkout();
    const target = (path: string, cases: string) => {
      mkdirSync(join(dir, 'reports', 'bazel-testlogs', path, '..'), { recursive: true });
      writeFileSync(
        join(dir, 'reports', 'bazel-testlogs', path),
        `<testsuites><testsuite name="//cart:cart_test">${cases}</testsuite></testsuites>`,
      );
    };
    const passing = Array.from(
      { length: 500 },
      (_, i) => `<testcase classname="cart/cart_test" name="TestOther/${i}"/>`,
    );
    // test.xml, the last attempt, sorts before test_attempts/attempt_1.xml, the first.
    target(
      'cart/cart_test/test.xml',
      `${passing.join('')}<testcase classname="cart/cart_test" name="TestCheckout"/>`,
    );
    target(
      'cart/cart_test/test_attempts/attempt_1.xml',
      '<testcase classname="cart/cart_test" name="TestCheckout"><failure message="got 3, want 4"/></testcase>',
    );
    // The same name in another target, which never passed there; and a test that passed, then failed, in one report.
    target(
      'search/search_test/test.xml',
      '<testcase classname="search/search_test" name="TestCheckout"><failure message="timed out"/></testcase>' +
        '<testcase classname="search/search_test" name="TestQuery"/>' +
        '<testcase classname="search/search_test" name="TestQuery"><failure message="flaked"/></testcase>',
    );
    await seedTests([]);
    const result = await gate(dir, { 'fail-on-verdict': 'any' });
    expect(parsed(result.outputs['unquarantined-failures'])).toEqual([
      expect.objectContaining({ name: 'TestCheckout', message: 'timed out' }),
    ]);
    expect(String(result.summary)).toContain('2 passed on a retry');
  });
});

describe('bad reports', () => {
  it.each([
    ['truncated.xml', /truncated\.xml is not well-formed JUnit XML at line 5, column \d+: Unclosed root tag/],
    [
      'mismatched.xml',
      /mismatched\.xml is not well-formed JUnit XML at line 3, column \d+: Unexpected close tag/,
    ],
  ])('%s is named with the position where it breaks', async (name, expected) => {
    const dir = checkout();
    mkdirSync(join(dir, 'reports'));
    cpSync(join(FIXTURES, name), join(dir, 'reports', name));
    const message = await failureOf(gate(dir));
    expect(message).toMatch(/^Input "junit-paths": reports\//);
    expect(message).toMatch(expected);
  });

  it('names a report with an attribute longer than the gate reads', async () => {
    const dir = checkout();
    mkdirSync(join(dir, 'reports'));
    const message = 'x'.repeat(2 * MAX_TOKEN_CHARS);
    writeFileSync(
      join(dir, 'reports', 'huge.xml'),
      `<testsuite name="s"><testcase name="t"><failure message="${message}"/></testcase></testsuite>`,
    );
    expect(await failureOf(gate(dir))).toMatch(
      /^Input "junit-paths": reports\/huge\.xml has an attribute, tag name or comment longer than 1 MiB at line 1, column \d+/,
    );
  });

  it('refuses a report that is a symlink to a fifo in the checkout, at once, with one line', async () => {
    const dir = checkout();
    mkdirSync(join(dir, 'reports'));
    mkfifo(join(dir, 'pipe'));
    symlinkSync(join(dir, 'pipe'), join(dir, 'reports', 'junit.xml'));
    expect(await failureOf(gate(dir))).toBe(
      `Input "junit-paths": reports/junit.xml is a fifo, not a regular file. Leave it out of junit-paths, or make the path lead to the report the test runner wrote.`,
    );
  });

  it('refuses a report that is a symlink to /dev/zero, outside the checkout, at once, with one line', async () => {
    const dir = checkout();
    mkdirSync(join(dir, 'reports'));
    symlinkSync('/dev/zero', join(dir, 'reports', 'junit.xml'));
    expect(await failureOf(gate(dir))).toBe(
      'Input "junit-paths": "reports/junit.xml" leads outside the working directory (a symlink, or a path with ..), where nothing is read. Have the test runner write its reports as plain files inside the directory junit-paths names.',
    );
  });

  it('says which globs matched nothing', async () => {
    const message = await failureOf(gate(checkout(), { 'junit-paths': 'out/*.xml, build/{a,b}/*.xml' }));
    expect(message).toMatch(
      /^Input "junit-paths": "out\/\*\.xml", "build\/\{a,b\}\/\*\.xml" matched no file under/,
    );
  });
});

describe('a hostile checkout', () => {
  it('reads no CODEOWNERS that is a symlink to /dev/zero, and searches no test file that is a fifo', async () => {
    await seedTests([]);
    const dir = checkout();
    mkdirSync(join(dir, 'reports'));
    mkdirSync(join(dir, '.github'));
    symlinkSync('/dev/zero', join(dir, '.github', 'CODEOWNERS'));
    mkfifo(join(dir, 'stuck.test.js'));
    writeFileSync(
      join(dir, 'reports', 'junit.xml'),
      '<testsuite name="s"><testcase name="hangs nothing" file="stuck.test.js"><failure message="boom"/></testcase></testsuite>',
    );
    const result = await gate(dir);
    expect(result.outputs['failed-count']).toBe(1);
    expect(parsed(result.outputs['unquarantined-failures'])).toEqual([
      expect.objectContaining({ name: 'hangs nothing', file: 'stuck.test.js', verdict: 'new' }),
    ]);
    expect(result.annotations).toEqual([
      expect.objectContaining({
        level: 'error',
        file: 'stuck.test.js',
        title: 'Likely caused by this PR: hangs nothing',
      }),
    ]);
    expect(result.annotations[0]).not.toHaveProperty('line');
  });
});

describe('during an outage of the service', () => {
  let dir: string;
  beforeAll(() => {
    dir = checkout();
    mkdirSync(join(dir, 'reports'));
    cpSync(join(FIXTURES, 'gotestsum.xml'), join(dir, 'reports', 'go.xml'));
  });

  afterEach(async () => {
    await fetch(`${emulator.origin}/_emulator/faults`, {
      method: 'DELETE',
      headers: { 'x-api-token': TOKEN },
    });
  });

  async function outage(): Promise<void> {
    const response = await fetch(`${emulator.origin}/_emulator/faults`, {
      method: 'POST',
      headers: { 'x-api-token': TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({
        path: '/flaky-tests/list-quarantined-tests',
        // A 503, then no answer at all until timeout-seconds runs out.
        faults: [
          { kind: 'status', status: 503, body: 'Service Unavailable' },
          ...Array(50).fill({ kind: 'hang' }),
        ],
      }),
    });
    expect(response.ok).toBe(true);
  }

  it('passes with a loud warning by default: an outage alone never turns the build red', async () => {
    await seedTests([]);
    await outage();
    const result = await gate(dir, { 'timeout-seconds': '1' });
    expect(result.failure).toBeUndefined();
    expect(result.outputs['service-error']).toMatch(
      /^listQuarantinedTests failed: no complete answer within [\d.]+s\. Gave up after/,
    );
    expect(result.warnings.join('\n')).toMatch(/could not be reached .* 2 failed tests were NOT checked/);
    expect(String(result.summary)).toMatch(/^## ⚠️ 2 failed tests not checked/);
    expect(result.annotations.filter((a) => a.level === 'warning')).toHaveLength(2);
  });

  it('fails with on-service-error: fail', async () => {
    await outage();
    const result = await gate(dir, { 'timeout-seconds': '1', 'on-service-error': 'fail' });
    expect(result.failure).toMatch(/could not be reached .*the step fails because on-service-error is fail/);
  });

  it('does not take a refusal (a wrong token) for an outage', async () => {
    const message = await failureOf(gate(dir, { 'api-token': 'wrong-token' }));
    expect(message).toMatch(/401/);
  });
});

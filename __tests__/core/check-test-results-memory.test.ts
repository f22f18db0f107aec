// What the quarantine gate remembers of hundreds of thousands of test cases: the string table (every
// string back as it went in, one id each, across its blocks), the passed log (a fingerprint per passed
// case, and which report logged it), and the merge of a test's attempts across reports, where a test that
// passed before it failed is found by reading its report again.
import { describe, expect, it } from '@jest/globals';
import {
  TestResults,
  type TestCaseRead,
} from '../../src/core/operations/flaky-tests/check-test-results/results.js';
import { StringIds } from '../../src/core/operations/flaky-tests/check-test-results/string-ids.js';
import {
  fingerprintOf,
  PassedLog,
  type TestIdentity,
} from '../../src/core/operations/flaky-tests/check-test-results/passed-log.js';

describe('the string table', () => {
  it('gives each distinct string of a group one id and the string back, across many blocks', () => {
    const ids = new StringIds();
    // Multi-byte characters (›, emoji) and about 6 MB in all: many blocks and several table doublings.
    const texts = Array.from(
      { length: 60_000 },
      (_, i) => `pkg-${i % 180} › Feature ${i} 🧪 ${'x'.repeat(i % 200)}`,
    );
    const given = texts.map((text) => ids.idOf(0, text, true));
    expect(given).toEqual(texts.map((_, i) => i));
    expect(ids.size).toBe(texts.length);
    for (let i = 0; i < texts.length; i += 997) {
      expect(ids.text(i)).toBe(texts[i]);
      expect(ids.idOf(0, texts[i]!, false)).toBe(i);
      expect(ids.idOf(0, texts[i]!, true)).toBe(i);
    }
    expect(ids.size).toBe(texts.length);
  });

  it('keeps a string longer than a block, and the strings around it', () => {
    const ids = new StringIds();
    const long = `${'é'.repeat(700_000)}end`;
    const before = ids.idOf(0, 'before', true);
    const big = ids.idOf(0, long, true);
    const after = ids.idOf(0, 'after', true);
    expect([ids.text(before), ids.text(big), ids.text(after)]).toEqual(['before', long, 'after']);
    expect(ids.idOf(0, long, false)).toBe(big);
    expect(ids.idOf(0, long.slice(0, -1), false)).toBe(-1);
  });

  it('tells the same string of two groups apart, and finds nothing it was not given', () => {
    const ids = new StringIds();
    const first = ids.idOf(1, 'name', true);
    const second = ids.idOf(2, 'name', true);
    expect(first).not.toBe(second);
    expect(ids.idOf(3, 'name', false)).toBe(-1);
    expect(ids.idOf(1, 'nam', false)).toBe(-1);
    expect(ids.idOf(1, '', false)).toBe(-1);
    expect(ids.idOf(1, '', true)).toBe(2);
    expect(ids.text(2)).toBe('');
  });
});

describe('the passed log', () => {
  const identity = (
    name: string,
    classname = 'cart',
    file = 'cart.test.ts',
    suite = 'cart',
  ): TestIdentity => ({
    name,
    classname,
    file,
    suite,
  });
  const printOf = (test: TestIdentity) => {
    const print = new Int32Array(2);
    fingerprintOf(test, print);
    return print;
  };

  it('gives a test the same fingerprint every time, and another to a test whose strings split otherwise', () => {
    expect(printOf(identity('adds'))).toEqual(printOf(identity('adds')));
    const prints = [
      identity('adds'),
      identity('adds', 'cart2'),
      identity('adds', 'cart', 'cart.test.ts', ''),
      identity('b', 'a'),
      identity('', 'ab'),
      identity('ab', ''),
      identity('addś'),
    ].map((test) => printOf(test).join(','));
    expect(new Set(prints).size).toBe(prints.length);
  });

  it('names the reports that logged a fingerprint, across blocks and reports that logged none', () => {
    const log = new PassedLog();
    // 150,000 cases over reports 0, 2, 3 and 7 (1, 4, 5 and 6 logged nothing): three blocks.
    const reportOf = (i: number) => [0, 2, 3, 7][Math.floor(i / 37_500)]!;
    for (let i = 0; i < 150_000; i++) log.add(printOf(identity(`test ${i}`)), reportOf(i));
    expect(log.size).toBe(150_000);
    expect(log.reportsWith([printOf(identity('test 0'))])).toEqual([0]);
    expect(log.reportsWith([printOf(identity('test 37500'))])).toEqual([2]);
    expect(log.reportsWith([printOf(identity('test 149999')), printOf(identity('test 80000'))])).toEqual([
      3, 7,
    ]);
    expect(log.reportsWith([printOf(identity('test 150000')), printOf(identity('test 1', 'other'))])).toEqual(
      [],
    );
    expect(log.reportsWith([])).toEqual([]);
  });
});

function testCase(name: string, classname: string, outcome: TestCaseRead['outcome']): TestCaseRead {
  return {
    name,
    classname,
    suite: 'packages/cart/src/__tests__/checkout.test.ts',
    file: 'packages/cart/src/__tests__/checkout.test.ts',
    line: 0,
    outcome,
    message: outcome === 'failed' ? 'expected 1200, received 1199' : '',
    passedOnRerun: false,
    report: 'junit.xml',
  };
}

/** The cases of each report added in turn, then the reports the results name read again, as reports.ts does. */
function gate(reports: TestCaseRead[][]): { results: TestResults; reread: number[] } {
  const results = new TestResults();
  for (const report of reports) {
    for (const test of report) results.add(test);
    results.reports++;
  }
  const reread = results.reportsToRecheck();
  for (const index of reread) for (const test of reports[index]!) results.recheck(test);
  return { results, reread };
}

describe("a test's attempts", () => {
  const classname = 'cart › checkout';

  it('merges the attempts of a test in either order, reading again only the report where it passed first', () => {
    const { results, reread } = gate([
      [testCase('applies the code', classname, 'passed'), testCase('rounds down', classname, 'passed')],
      [testCase('keeps the total', classname, 'failed'), testCase('expires', classname, 'passed')],
      [
        testCase('applies the code', classname, 'failed'),
        testCase('keeps the total', classname, 'passed'),
        testCase('rounds up', classname, 'failed'),
      ],
    ]);
    expect(results.failed().map((test) => test.name)).toEqual(['rounds up']);
    expect(results.passedOnRetry()).toBe(2);
    expect(reread).toEqual([0]);
  });

  it('reads nothing again when no failed test passed before', () => {
    const { results, reread } = gate([
      [testCase('applies the code', classname, 'passed')],
      [testCase('keeps the total', classname, 'failed'), testCase('keeps the total', classname, 'failed')],
    ]);
    expect(reread).toEqual([]);
    expect(results.failed().map((test) => [test.name, test.attempts])).toEqual([['keeps the total', 2]]);
  });

  it('keeps a failure whose report read again holds only other tests that passed', () => {
    const results = new TestResults();
    results.add(testCase('applies the code', classname, 'failed'));
    results.add(testCase('applies the code', classname, 'passed'));
    results.reports++;
    results.add(testCase('keeps the total', classname, 'passed'));
    results.add(testCase('keeps the total', 'cart', 'failed'));
    // The first test passed after it failed; the second failed in another classname than it passed in.
    results.recheck(testCase('keeps the total', classname, 'passed'));
    results.recheck(testCase('keeps the total', 'cart', 'skipped'));
    expect(results.failed().map((test) => `${test.classname}: ${test.name}`)).toEqual([
      'cart: keeps the total',
    ]);
    expect(results.passedOnRetry()).toBe(1);
  });

  it('lists a test skipped, passed, then failed as passed on retry, and one skipped then failed as failed', () => {
    const { results } = gate([
      [testCase('applies the code', classname, 'skipped'), testCase('keeps the total', classname, 'passed')],
      [testCase('applies the code', classname, 'passed'), testCase('keeps the total', classname, 'skipped')],
      [
        testCase('applies the code', classname, 'failed'),
        testCase('keeps the total', classname, 'failed'),
        testCase('rounds down', classname, 'skipped'),
        testCase('rounds down', classname, 'failed'),
      ],
    ]);
    expect(results.failed().map((test) => [test.name, test.attempts])).toEqual([['rounds down', 2]]);
    expect(results.passedOnRetry()).toBe(2);
  });

  it('keeps tests of other classnames, files or suites apart, whatever their names', () => {
    const { results } = gate([
      [testCase(`${classname} applies the code`, classname, 'passed')],
      [
        testCase(`${classname} applies the code`, 'cart', 'failed'),
        testCase(`${classname} applies the code`, `${classname} applies`, 'failed'),
        { ...testCase(`${classname} applies the code`, classname, 'failed'), file: 'other.test.ts' },
        { ...testCase(`${classname} applies the code`, classname, 'failed'), suite: 'other' },
      ],
    ]);
    expect(results.failed()).toHaveLength(4);
    expect(results.passedOnRetry()).toBe(0);
  });
});

// What the quarantine gate remembers of hundreds of thousands of test cases, kept outside the JS heap:
// the string table (every string back as it went in, one id each, across its blocks) and the merge of a
// test's attempts when jest names tests `{classname} {title}`.
import { describe, expect, it } from '@jest/globals';
import {
  TestResults,
  type TestCaseRead,
} from '../../src/core/operations/flaky-tests/check-test-results/results.js';
import { StringIds } from '../../src/core/operations/flaky-tests/check-test-results/string-ids.js';

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

describe('test cases named `{classname} {title}`', () => {
  const classname = 'cart › checkout';

  it('merges the attempts of a test in either order', () => {
    const results = new TestResults();
    results.add(testCase(`${classname} applies the code`, classname, 'passed'));
    results.add(testCase(`${classname} applies the code`, classname, 'failed'));
    results.add(testCase(`${classname} keeps the total`, classname, 'failed'));
    results.add(testCase(`${classname} keeps the total`, classname, 'passed'));
    results.add(testCase(`${classname} rounds down`, classname, 'failed'));
    expect(results.failed().map((test) => test.name)).toEqual([`${classname} rounds down`]);
    expect(results.passedOnRetry()).toBe(2);
  });

  it('never takes a title for the same title after the classname', () => {
    const results = new TestResults();
    // The title alone, and the classname then the title: two tests of the same classname.
    results.add(testCase('applies the code', classname, 'passed'));
    results.add(testCase(`${classname} applies the code`, classname, 'failed'));
    results.add(testCase(`${classname}applies the code`, classname, 'failed'));
    results.add(testCase(classname, classname, 'failed'));
    expect(results.failed().map((test) => test.name)).toEqual([
      `${classname} applies the code`,
      `${classname}applies the code`,
      classname,
    ]);
    expect(results.passedOnRetry()).toBe(0);
  });

  it('keeps tests of other classnames apart, whatever their names', () => {
    const results = new TestResults();
    results.add(testCase(`${classname} applies the code`, classname, 'passed'));
    results.add(testCase(`${classname} applies the code`, 'cart', 'failed'));
    results.add(testCase(`${classname} applies the code`, `${classname} applies`, 'failed'));
    expect(results.failed()).toHaveLength(2);
  });
});

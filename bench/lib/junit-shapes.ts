// JUnit reports shaped as the test runners users run write them, for the quarantine gate's benchmark.
// Each shape writes about the same number of bytes in its own layout: Maven Surefire (a file per class,
// the run's output in <system-out>), jest-junit (one file for a monorepo, `›`-joined titles, the file on
// each case, a stack trace as the failure's body), pytest (parametrized names, file and line, long
// assertion messages) and Bazel (a test.xml per target under bazel-testlogs/, nested <testsuites>).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** A failed test as the service would list it. */
export interface FailedTest {
  name: string;
  classname: string;
  file?: string;
}

export interface JUnitShape {
  id: string;
  label: string;
  /** The junit-paths glob that finds the reports under the shape's directory. */
  glob: string;
  /** About how many bytes a test case takes, to spread the same number of failures over each shape. */
  bytesPerCase: number;
  /** Writes the reports under `dir`, about `bytes` in all, one failure in `failureEvery` cases. */
  write(dir: string, bytes: number, failureEvery: number): { failures: FailedTest[]; cases: number };
}

const xml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const LOG_LINE = 'log line from the test run, with some noise 0123456789\n';

function filler(bytes: number, line = LOG_LINE): string {
  return line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes);
}

function writeReport(path: string, text: string): number {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return Buffer.byteLength(text);
}

const surefire: JUnitShape = {
  id: 'surefire',
  label: 'Maven Surefire (a file per class, output in <system-out>)',
  glob: 'surefire-reports/*.xml',
  bytesPerCase: 2100,
  write(dir, bytes, failureEvery) {
    const failures: FailedTest[] = [];
    const output = filler(1_900);
    let written = 0;
    let n = 0;
    for (let report = 0; written < bytes; report++) {
      const classname = `com.acme.shop.checkout.service.Suite${report}`;
      const cases: string[] = [];
      for (let i = 0; i < 500; i++, n++) {
        const name = `handlesCase${n}`;
        const failed = n % failureEvery === 0;
        if (failed) failures.push({ name, classname });
        const failure = failed
          ? `<failure message="expected:&lt;200&gt; but was:&lt;503&gt;" type="org.opentest4j.AssertionFailedError">at ${classname}.${name}(Suite${report}.java:${40 + i})</failure>`
          : '';
        cases.push(
          `<testcase name="${name}" classname="${classname}" time="0.012">${failure}<system-out>${output}</system-out></testcase>`,
        );
      }
      written += writeReport(
        join(dir, 'surefire-reports', `TEST-${classname}.xml`),
        `<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="${classname}" tests="500">\n${cases.join('\n')}\n</testsuite>\n`,
      );
    }
    return { failures, cases: n };
  },
};

const jest: JUnitShape = {
  id: 'jest',
  label: 'jest-junit (a monorepo in files of 20 MB, titles joined by ›, a stack trace per failure)',
  glob: 'jest/*.xml',
  bytesPerCase: 330,
  write(dir, bytes, failureEvery) {
    const failures: FailedTest[] = [];
    const stack = xml(
      filler(1_400, '    at Object.<anonymous> (packages/cart/src/__tests__/checkout.test.ts:42:17)\n'),
    );
    let written = 0;
    let n = 0;
    for (let report = 0; written < bytes; report++) {
      const suites: string[] = [];
      for (let size = 0; size < 20e6;) {
        const pkg = `pkg-${n % 180}`;
        const file = `packages/${pkg}/src/__tests__/feature-${Math.floor(n / 40)}.test.ts`;
        const cases: string[] = [];
        for (let i = 0; i < 40; i++, n++) {
          const classname = `${pkg} › Feature ${Math.floor(n / 40)} › when the cart holds item ${i % 7}`;
          const name = `${classname} applies the discount code and keeps the total ${n}`;
          const failed = n % failureEvery === 0;
          if (failed) failures.push({ name, classname, file });
          const failure = failed
            ? `<failure>Error: expect(received).toBe(expected) // Object.is equality\n\nExpected: 1200\nReceived: 1199\n${stack}</failure>`
            : '';
          const line = `<testcase classname="${xml(classname)}" name="${xml(name)}" time="0.004" file="${file}">${failure}</testcase>`;
          cases.push(line);
          size += line.length;
        }
        suites.push(
          `<testsuite name="${file}" tests="40" failures="0" errors="0" skipped="0" timestamp="2026-11-25T08:00:00" time="1.2">\n${cases.join('\n')}\n</testsuite>`,
        );
      }
      written += writeReport(
        join(dir, 'jest', `junit-${report}.xml`),
        `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="jest tests">\n${suites.join('\n')}\n</testsuites>\n`,
      );
    }
    return { failures, cases: n };
  },
};

const pytest: JUnitShape = {
  id: 'pytest',
  label: 'pytest (parametrized names, file and line, assertion diffs in the message)',
  glob: 'pytest/*.xml',
  bytesPerCase: 560,
  write(dir, bytes, failureEvery) {
    const failures: FailedTest[] = [];
    const diff = xml(
      `AssertionError: assert {'id': 17, 'total': 1200, ${"'region': 'eu-west-1', ".repeat(20)}} == {...}`,
    );
    const traceback = xml(filler(1_200, 'tests/integration/test_orders.py:88: in test_create_order\n'));
    let written = 0;
    let n = 0;
    for (let report = 0; written < bytes; report++) {
      const cases: string[] = [];
      for (let size = 0; size < 5e6; n++) {
        const module = `test_orders_${n % 300}`;
        const classname = `tests.integration.${module}`;
        const name = `test_create_order[payload${n % 97}-eu-west-1-${n % 2 === 0 ? 'True' : 'False'}-${n}]`;
        const file = `tests/integration/${module}.py`;
        const failed = n % failureEvery === 0;
        if (failed) failures.push({ name, classname, file });
        const failure = failed ? `<failure message="${diff}">${traceback}</failure>` : '';
        const out = n % 3 === 0 ? `<system-out>${filler(600)}</system-out>` : '';
        const line = `<testcase classname="${classname}" name="${xml(name)}" file="${file}" line="${n % 400}" time="0.031">${failure}${out}</testcase>`;
        cases.push(line);
        size += line.length;
      }
      written += writeReport(
        join(dir, 'pytest', `results-${report}.xml`),
        `<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" errors="0" failures="0" skipped="0" tests="${cases.length}" time="300.1" hostname="runner">${cases.join('')}</testsuite></testsuites>\n`,
      );
    }
    return { failures, cases: n };
  },
};

const bazel: JUnitShape = {
  id: 'bazel',
  label: 'Bazel (a test.xml per target under bazel-testlogs/, nested <testsuites>)',
  glob: 'bazel-testlogs/**/test.xml',
  bytesPerCase: 1040,
  write(dir, bytes, failureEvery) {
    const failures: FailedTest[] = [];
    const output = filler(900);
    let written = 0;
    let n = 0;
    for (let target = 0; written < bytes; target++) {
      const path = `services/component-${String(target % 400).padStart(4, '0')}/pkg_${Math.floor(target / 400)}`;
      const label = `//${path}:library_test`;
      const cases: string[] = [];
      for (let i = 0; i < 40; i++, n++) {
        const classname = `${path}/library_test`;
        const name = `TestLibrary/case_${n}`;
        const failed = n % failureEvery === 0;
        if (failed) failures.push({ name, classname });
        const failure = failed
          ? `<failure message="library_test.go:${i}: got 3, want 4" type=""></failure>`
          : '';
        cases.push(
          `<testcase classname="${classname}" name="${name}" time="0.01">${failure}<system-out>${output}</system-out></testcase>`,
        );
      }
      written += writeReport(
        join(dir, 'bazel-testlogs', path, 'library_test', 'test.xml'),
        `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites><testsuite name="${label}" tests="40" failures="0" errors="0">\n${cases.join('\n')}\n</testsuite></testsuites>\n`,
      );
    }
    return { failures, cases: n };
  },
};

export const JUNIT_SHAPES: readonly JUnitShape[] = [surefire, jest, pytest, bazel];

// Which test the service means: its identity is the test's name, its classname or parent (the suite it
// is in), its file and its variant, as the service's uploader reads them from the same JUnit reports.
// docs/flaky-tests.md spells the rule out; in short, the name and variant must be equal, and the
// classname, parent and file are compared only where both sides know them.
import { text } from '../tests.js';
import type { TestCaseResult } from './results.js';

/**
 * A test the service knows (a quarantined, unhealthy or failing one): its identity, and its page for the
 * summary's link. Nothing else of the listed entry is kept: 10,000 of them arrive while reports are read.
 */
export interface KnownTest {
  name: string;
  classname: string;
  parent: string;
  file: string;
  variant: string;
  /** '' when the listing does not give one (quarantined tests). */
  htmlUrl: string;
}

/** Reads a listed test; quarantined tests say `file`, the others `file_path`. */
export function knownTest(entry: Record<string, unknown>): KnownTest {
  return {
    name: text(entry.name).trim(),
    classname: text(entry.classname).trim(),
    parent: text(entry.parent).trim(),
    file: text(entry.file ?? entry.file_path).trim(),
    variant: text(entry.variant).trim(),
    htmlUrl: text(entry.html_url),
  };
}

/** The service's tests by name, so that 50,000 results are matched against 10,000 tests in a moment. */
export class TestIndex {
  private readonly byName = new Map<string, KnownTest[]>();

  constructor(tests: Iterable<KnownTest>) {
    for (const test of tests) {
      const same = this.byName.get(test.name);
      if (same) same.push(test);
      else this.byName.set(test.name, [test]);
    }
  }

  /** The service's test for this result in this variant, if it knows it. */
  find(result: TestCaseResult, variant: string): KnownTest | undefined {
    return this.byName.get(result.name)?.find((known) => sameTest(known, result, variant));
  }
}

function sameTest(known: KnownTest, result: TestCaseResult, variant: string): boolean {
  if (known.variant !== variant) return false;
  if (known.classname && result.classname) {
    if (known.classname !== result.classname) return false;
  } else if (known.parent && known.parent !== result.suite && known.parent !== result.classname) {
    return false;
  }
  return !known.file || !result.file || samePath(known.file, result.file);
}

/**
 * One path ends the other, segment by segment: the service stores paths relative to the repository,
 * while reports often name them absolute (`/home/runner/work/repo/repo/src/a.test.ts`).
 */
export function samePath(a: string, b: string): boolean {
  const left = segments(a);
  const right = segments(b);
  const [shorter, longer] = left.length <= right.length ? [left, right] : [right, left];
  if (!shorter.length) return false;
  const offset = longer.length - shorter.length;
  return shorter.every((segment, index) => segment === longer[offset + index]);
}

function segments(path: string): string[] {
  return path
    .replace(/\\/g, '/')
    .split('/')
    .filter((segment) => segment && segment !== '.');
}

// Which test the service means: its identity is the test's name, its classname or parent (the suite it
// is in), its file and its variant, as the service's uploader reads them from the same JUnit reports.
// docs/flaky-tests.md spells the rule out; in short, the name and variant must be equal, and the
// classname, parent and file are compared only where both sides know them.
import { text } from '../tests.js';
import type { TestCaseResult } from './results.js';
import { grown, StringIds } from './string-ids.js';

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

/**
 * The service's tests by name, so that 50,000 results are matched against 10,000 tests in a moment. Kept
 * as bytes outside the JS heap (string-ids.ts says why): each name once, and each test as the JSON of
 * its other fields, decoded only for a result of the same name.
 */
export class TestIndex {
  private readonly names = new StringIds();
  /** Within its name's id: [classname, parent, file, variant, htmlUrl]. */
  private readonly entries = new StringIds();
  /** Per name id, 1 + its first and last entry; per entry, 1 + the next entry of the same name. */
  private firsts = new Int32Array(1024);
  private lasts = new Int32Array(1024);
  private nexts = new Int32Array(1024);
  /** Tests added, repeated ones included. */
  listed = 0;

  add(test: KnownTest): void {
    this.listed++;
    const name = this.names.idOf(0, test.name, true);
    const known = this.entries.size;
    const fields = [test.classname, test.parent, test.file, test.variant, test.htmlUrl];
    const entry = this.entries.idOf(name, JSON.stringify(fields), true);
    // The same test listed again answers as the first did.
    if (entry < known) return;
    if (name >= this.firsts.length) {
      this.firsts = grown(this.firsts);
      this.lasts = grown(this.lasts);
    }
    if (entry >= this.nexts.length) this.nexts = grown(this.nexts);
    const last = this.lasts[name] as number;
    if (last) this.nexts[last - 1] = entry + 1;
    else this.firsts[name] = entry + 1;
    this.lasts[name] = entry + 1;
  }

  /** The service's test for this result in this variant, if it knows it. */
  find(result: TestCaseResult, variant: string): KnownTest | undefined {
    const name = this.names.idOf(0, result.name, false);
    if (name < 0) return undefined;
    for (let entry = this.firsts[name] as number; entry; entry = this.nexts[entry - 1] as number) {
      const [classname, parent, file, knownVariant, htmlUrl] = JSON.parse(
        this.entries.text(entry - 1),
      ) as string[];
      const known: KnownTest = {
        name: result.name,
        classname: classname ?? '',
        parent: parent ?? '',
        file: file ?? '',
        variant: knownVariant ?? '',
        htmlUrl: htmlUrl ?? '',
      };
      if (sameTest(known, result, variant)) return known;
    }
    return undefined;
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

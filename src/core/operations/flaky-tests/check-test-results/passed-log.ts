// The test cases that simply passed, as the gate remembers them: not their names but a fingerprint of
// each test (two 32-bit hashes of its classname, file, suite and name) and the report it was read in.
// A passed case only matters if the same test fails in another attempt, and failures are few: when a
// failed test's fingerprint is in the log, the reports that logged it are read again and the test's
// identity compared in full (results.ts, reports.ts). A fingerprint says where to look, never decides:
// two tests that hash alike cost a second read of a report, not a wrong answer.
//
// How it works: fingerprints are appended in pairs to fixed blocks of an Int32Array, never copied as the
// log grows (8 bytes a case: 360,000 passed cases of jest's reports take 2.9 MB). Cases are logged report
// after report, so `reportStarts` keeps where each report's fingerprints begin, and a position in the log
// finds its report by binary search.

/** What sets one test apart from another in the reports. */
export interface TestIdentity {
  classname: string;
  file: string;
  suite: string;
  name: string;
}

/** Fingerprint pairs per block: 512 KiB each. */
const BLOCK_PAIRS = 64 * 1024;

export class PassedLog {
  private readonly blocks: Int32Array[] = [];
  /** Pairs logged. */
  private count = 0;
  /** Per report (by its index in the run), the position of its first pair; a report that logged none shares the next one's. */
  private readonly reportStarts: number[] = [];

  get size(): number {
    return this.count;
  }

  /** Logs a passed case of report `report` (reports come in order: never a lower index than the last). */
  add(print: Int32Array, report: number): void {
    while (this.reportStarts.length <= report) this.reportStarts.push(this.count);
    const at = this.count % BLOCK_PAIRS;
    if (at === 0) this.blocks.push(new Int32Array(2 * BLOCK_PAIRS));
    const block = this.blocks[this.blocks.length - 1]!;
    block[2 * at] = print[0]!;
    block[2 * at + 1] = print[1]!;
    this.count++;
  }

  /** The reports, in order, that logged any of `prints` (pairs as fingerprintOf writes them). */
  reportsWith(prints: Int32Array[]): number[] {
    const wanted = new Map<number, number[]>();
    for (const print of prints) wanted.set(print[0]!, [...(wanted.get(print[0]!) ?? []), print[1]!]);
    const reports = new Set<number>();
    for (let position = 0; position < this.count; position++) {
      const block = this.blocks[Math.floor(position / BLOCK_PAIRS)]!;
      const at = 2 * (position % BLOCK_PAIRS);
      if (wanted.get(block[at]!)?.includes(block[at + 1]!)) reports.add(this.reportAt(position));
    }
    return [...reports].sort((a, b) => a - b);
  }

  /** The last report whose first pair is at or before `position`. */
  private reportAt(position: number): number {
    let low = 0;
    let high = this.reportStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((this.reportStarts[middle] as number) <= position) low = middle;
      else high = middle - 1;
    }
    return low;
  }
}

/**
 * Writes the test's fingerprint into `into` (two 32-bit lanes hashed over its four strings and their
 * lengths, reading the strings' UTF-16 code units: no encoding, no string built).
 */
export function fingerprintOf(test: TestIdentity, into: Int32Array): void {
  let first = 0x811c9dc5;
  let second = 0x2545f491;
  for (const text of [test.classname, test.file, test.suite, test.name]) {
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      first = Math.imul(first ^ code, 0x01000193);
      second = Math.imul(((second << 5) | (second >>> 27)) ^ code, 0x9e3779b1);
    }
    first = Math.imul(first ^ text.length, 0x01000193);
    second = Math.imul(((second << 5) | (second >>> 27)) ^ text.length, 0x9e3779b1);
  }
  into[0] = first;
  into[1] = second;
}

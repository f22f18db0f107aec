// The test cases of many reports, as the gate needs them: a test case seen again is another attempt of
// the same test, and a test failed only when no attempt passed. Only the tests that did not simply pass
// (failed, skipped, passed on a rerun: few) are kept by their exact identity, as bytes outside the JS
// heap; a case that simply passed goes to the passed log as a fingerprint (passed-log.ts), 8 bytes. A
// failed test whose fingerprint the log holds may have passed before it failed: `reportsToRecheck` names
// the reports to read again, and `recheck` compares their cases with the failures exactly.
import { fingerprintOf, PassedLog, type TestIdentity } from './passed-log.js';
import { grown, StringIds } from './string-ids.js';

export type Outcome = 'passed' | 'failed' | 'skipped';

/** One test case as a report says it, before it is merged with the other attempts of the same test. */
export interface TestCaseRead {
  name: string;
  classname: string;
  /** The innermost <testsuite>'s name: the test's parent as the service records it. */
  suite: string;
  /** The file as the report names it (may be absolute); '' when it does not. */
  file: string;
  /** 0 when the report does not say. */
  line: number;
  outcome: Outcome;
  /** failure or error, when failed. */
  kind?: 'failure' | 'error';
  /** The failure's message (its attribute, else the first line of its text), capped. */
  message: string;
  /** Passed after Surefire's reruns within the case (<flakyFailure>/<flakyError>, no final failure). */
  passedOnRerun: boolean;
  /** The report the test came from. */
  report: string;
}

/** A test with all its attempts merged. */
export interface TestCaseResult extends Omit<TestCaseRead, 'passedOnRerun'> {
  /** How many times the test case appears; more than one is a retry. */
  attempts: number;
  /** Failed at least once and passed on a retry. */
  passedOnRetry: boolean;
}

/** A test that passed, at last, after a skipped attempt. */
const PASSED = 1;
/** Passed after failing: on a retry (a repeated test case) or on a rerun within the case. */
const PASSED_ON_RETRY = 2;

/** A test skipped so far: a retry may still fail, and the failure then takes the skipped case's place. */
class Skipped {
  constructor(
    readonly seq: number,
    public attempts: number,
  ) {}
}

type Seen = TestCaseResult | Skipped | typeof PASSED | typeof PASSED_ON_RETRY;

export class TestResults {
  /** The tests that did not simply pass, by their exact identity (string-ids.ts says why off-heap). */
  private readonly identities = new StringIds();
  /** Per identity: PASSED, PASSED_ON_RETRY, or -(1 + its index in `held`). */
  private states = new Int32Array(1024);
  /** The failed and skipped tests: what a state that is not a number points at. */
  private readonly held: (TestCaseResult | Skipped)[] = [];
  /** The failed tests, each with the position of its test's first case: failures are listed in that order. */
  private readonly failures = new Map<TestCaseResult, number>();
  /** The first lane of the fingerprints of the tests in `identities`: a passed case of another test is logged at once. */
  private readonly heldPrints = new Set<number>();
  private readonly passed = new PassedLog();
  private readonly print = new Int32Array(2);
  reports = 0;
  cases = 0;

  /** `onFirstFailure` is told when the first failed test case is read (to start asking the service). */
  constructor(private onFirstFailure?: () => void) {}

  /** One test case of the report being read (its index is `reports`). */
  add(test: TestCaseRead): void {
    const seq = this.cases++;
    const failed = test.outcome === 'failed';
    if (failed && this.onFirstFailure) {
      this.onFirstFailure();
      this.onFirstFailure = undefined;
    }
    const plainPass = test.outcome === 'passed' && !test.passedOnRerun;
    fingerprintOf(test, this.print);
    const id =
      plainPass && !this.heldPrints.has(this.print[0]!)
        ? -1
        : this.identities.idOf(0, identityOf(test), !plainPass);
    if (id < 0) {
      this.passed.add(this.print, this.reports);
      return;
    }
    this.heldPrints.add(this.print[0]!);
    const seen = this.seenAt(id);
    if (seen === PASSED || seen === PASSED_ON_RETRY) {
      if (failed || test.passedOnRerun) this.states[id] = PASSED_ON_RETRY;
    } else if (seen === undefined || seen instanceof Skipped) {
      this.firstOfItsKind(id, test, seen, seq);
    } else {
      // Failed before: the first failed attempt's details are kept, they say what went wrong.
      seen.attempts++;
      if (test.outcome === 'passed') {
        this.states[id] = PASSED_ON_RETRY;
        this.failures.delete(seen);
      } else {
        seen.line ||= test.line;
      }
    }
  }

  /**
   * The reports to read again, through `recheck`: those whose passed cases include a test that then
   * failed, or one that hashes alike. None in a run without retries.
   */
  reportsToRecheck(): number[] {
    const prints = [...this.failures.keys()].map((result) => {
      const print = new Int32Array(2);
      fingerprintOf(result, print);
      return print;
    });
    return prints.length ? this.passed.reportsWith(prints) : [];
  }

  /** A test case read again: when it passed and is a failed test, that test passed on a retry. */
  recheck(test: TestCaseRead): void {
    if (test.outcome !== 'passed') return;
    const id = this.identities.idOf(0, identityOf(test), false);
    const seen = id < 0 ? undefined : this.seenAt(id);
    if (seen instanceof Skipped || typeof seen !== 'object' || !this.failures.has(seen)) return;
    seen.attempts++;
    this.states[id] = PASSED_ON_RETRY;
    this.failures.delete(seen);
  }

  /** Tests that failed at first and passed on a retry. */
  passedOnRetry(): number {
    let count = 0;
    for (let id = 0; id < this.identities.size; id++) if (this.states[id] === PASSED_ON_RETRY) count++;
    return count;
  }

  /** The failed tests, in the order the reports first name them. */
  failed(): TestCaseResult[] {
    return [...this.failures].sort(([, a], [, b]) => a - b).map(([result]) => result);
  }

  /** The first case of a test that is not a plain pass, or the first after its skipped ones. */
  private firstOfItsKind(id: number, test: TestCaseRead, seen: Skipped | undefined, seq: number): void {
    if (test.outcome === 'passed') {
      this.states[id] = test.passedOnRerun ? PASSED_ON_RETRY : PASSED;
    } else if (test.outcome === 'failed') {
      const { passedOnRerun, ...read } = test;
      const result = { ...read, attempts: (seen?.attempts ?? 0) + 1, passedOnRetry: passedOnRerun };
      this.hold(id, result);
      this.failures.set(result, seen?.seq ?? seq);
    } else if (seen) {
      seen.attempts++;
    } else {
      this.hold(id, new Skipped(seq, 1));
    }
  }

  private seenAt(id: number): Seen | undefined {
    if (id === this.states.length) this.states = grown(this.states);
    const state = this.states[id] as number;
    if (state === 0) return undefined;
    return state > 0 ? (state as Seen) : this.held[-state - 1];
  }

  private hold(id: number, seen: TestCaseResult | Skipped): void {
    this.states[id] = -this.held.push(seen);
  }
}

/** The test's four strings as one, each but the last preceded by its length: no two tests share one. */
function identityOf({ classname, file, suite, name }: TestIdentity): string {
  return `${classname.length}:${file.length}:${suite.length}:${classname}${file}${suite}${name}`;
}

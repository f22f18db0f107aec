// The test cases of many reports, as the gate needs them: a test case seen again is another attempt of
// the same test, and a test failed only when no attempt passed. Only failures are kept whole; a passed
// test is its name and a small integer, so that 50,000 passed cases cost a few megabytes.

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

/** A test that passed, at last: a small integer, as 50,000 of them are remembered. */
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
  /** By (classname, file, suite), then by name: within a group a test costs its name and a number. */
  private readonly groups = new Map<string, Map<string, Seen>>();
  /** The failed tests, each with the position of its test's first case: failures are listed in that order. */
  private readonly failures = new Map<TestCaseResult, number>();
  private last?: { classname: string; file: string; suite: string; tests: Map<string, Seen> };
  reports = 0;
  cases = 0;

  /** `onFirstFailure` is told when the first failed test case is read (to start asking the service). */
  constructor(private onFirstFailure?: () => void) {}

  add(test: TestCaseRead): void {
    const seq = this.cases++;
    const failed = test.outcome === 'failed';
    if (failed && this.onFirstFailure) {
      this.onFirstFailure();
      this.onFirstFailure = undefined;
    }
    const tests = this.groupOf(test);
    const seen = tests.get(test.name);
    if (seen === PASSED || seen === PASSED_ON_RETRY) {
      if (failed || test.passedOnRerun) tests.set(test.name, PASSED_ON_RETRY);
    } else if (seen === undefined || seen instanceof Skipped) {
      if (test.outcome === 'passed') {
        tests.set(test.name, test.passedOnRerun ? PASSED_ON_RETRY : PASSED);
      } else if (failed) {
        const { passedOnRerun, ...read } = test;
        const result = { ...read, attempts: (seen?.attempts ?? 0) + 1, passedOnRetry: passedOnRerun };
        tests.set(test.name, result);
        this.failures.set(result, seen?.seq ?? seq);
      } else if (seen) {
        seen.attempts++;
      } else {
        tests.set(test.name, new Skipped(seq, 1));
      }
    } else {
      // Failed before: the first failed attempt's details are kept, they say what went wrong.
      seen.attempts++;
      if (test.outcome === 'passed') {
        tests.set(test.name, PASSED_ON_RETRY);
        this.failures.delete(seen);
      } else {
        seen.line ||= test.line;
      }
    }
  }

  /** Tests that failed at first and passed on a retry. */
  passedOnRetry(): number {
    let count = 0;
    for (const tests of this.groups.values()) {
      for (const test of tests.values()) if (test === PASSED_ON_RETRY) count++;
    }
    return count;
  }

  /** The failed tests, in the order the reports first name them. */
  failed(): TestCaseResult[] {
    return [...this.failures].sort(([, a], [, b]) => a - b).map(([result]) => result);
  }

  /** Consecutive test cases nearly always share their classname, file and suite: one lookup per change. */
  private groupOf(test: TestCaseRead): Map<string, Seen> {
    const last = this.last;
    if (last && test.classname === last.classname && test.file === last.file && test.suite === last.suite) {
      return last.tests;
    }
    const group = `${test.classname}\u0000${test.file}\u0000${test.suite}`;
    let tests = this.groups.get(group);
    if (!tests) this.groups.set(group, (tests = new Map()));
    this.last = { classname: test.classname, file: test.file, suite: test.suite, tests };
    return tests;
  }
}

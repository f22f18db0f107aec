// The test cases of many reports, as the gate needs them: a test case seen again is another attempt of
// the same test, and a test failed only when no attempt passed. Only failures are kept whole; a passed
// test is its name, as bytes outside the JS heap, and a small integer: 50,000 passed cases cost about a
// megabyte that no garbage collection copies. jest-junit names a test `{classname} {title}` by default:
// within its classname's group only the title is kept, which halves what jest's reports cost.
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

/** Groups remembered as JS strings too, for a quick lookup: a few hundred kilobytes at most. */
const RECENT_GROUPS = 1024;

type Seen = TestCaseResult | Skipped | typeof PASSED | typeof PASSED_ON_RETRY;

export class TestResults {
  /** A number per (classname, file, suite): a test is its name within that group. */
  private readonly groups = new StringIds();
  /** The tests' names within their groups, as bytes outside the JS heap (string-ids.ts says why). */
  private readonly names = new StringIds();
  /** Per name id: PASSED, PASSED_ON_RETRY, or -(1 + its index in `held`); 0 before its first case. */
  private states = new Int32Array(1024);
  /** The failed and skipped tests (few): what a state that is not a number points at. */
  private readonly held: (TestCaseResult | Skipped)[] = [];
  /** The failed tests, each with the position of its test's first case: failures are listed in that order. */
  private readonly failures = new Map<TestCaseResult, number>();
  private readonly recentGroups = new Map<string, number>();
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
    const id = this.nameId(test);
    const seen = this.seenAt(id);
    if (seen === PASSED || seen === PASSED_ON_RETRY) {
      if (failed || test.passedOnRerun) this.states[id] = PASSED_ON_RETRY;
    } else if (seen === undefined || seen instanceof Skipped) {
      if (test.outcome === 'passed') {
        this.states[id] = test.passedOnRerun ? PASSED_ON_RETRY : PASSED;
      } else if (failed) {
        const { passedOnRerun, ...read } = test;
        const result = { ...read, attempts: (seen?.attempts ?? 0) + 1, passedOnRetry: passedOnRerun };
        this.hold(id, result);
        this.failures.set(result, seen?.seq ?? seq);
      } else if (seen) {
        seen.attempts++;
      } else {
        this.hold(id, new Skipped(seq, 1));
      }
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

  /** Tests that failed at first and passed on a retry. */
  passedOnRetry(): number {
    let count = 0;
    for (let id = 0; id < this.names.size; id++) if (this.states[id] === PASSED_ON_RETRY) count++;
    return count;
  }

  /** The failed tests, in the order the reports first name them. */
  failed(): TestCaseResult[] {
    return [...this.failures].sort(([, a], [, b]) => a - b).map(([result]) => result);
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

  /** The test's name within its group; the two halves of a group tell a name cut of its classname apart. */
  private nameId(test: TestCaseRead): number {
    const group = this.groupOf(test);
    const { name, classname } = test;
    const cut = classname.length + 1;
    if (classname && name.length > cut && name[cut - 1] === ' ' && name.startsWith(classname)) {
      return this.names.idOf(group * 2 + 1, name.slice(cut), true);
    }
    return this.names.idOf(group * 2, name, true);
  }

  /**
   * Consecutive test cases take turns among a few groups (jest: a file's describe blocks; pytest: the
   * modules), looked up in a small map of the recent ones before the off-heap table.
   */
  private groupOf(test: TestCaseRead): number {
    const key = `${test.classname}\u0000${test.file}\u0000${test.suite}`;
    let group = this.recentGroups.get(key);
    if (group === undefined) {
      group = this.groups.idOf(0, key, true);
      if (this.recentGroups.size === RECENT_GROUPS) this.recentGroups.clear();
      this.recentGroups.set(key, group);
    }
    return group;
  }
}

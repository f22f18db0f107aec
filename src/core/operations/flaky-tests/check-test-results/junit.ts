// Reads JUnit XML reports as a stream (sax, strict), one file at a time, keeping only what the gate needs:
// each test case's identity, where it is, and how it ended. The dialects differ in where they put things:
// jest-junit and the node test runner name the file on <testcase file>, pytest adds `line`, gotestsum
// puts the package in `classname`, Maven Surefire records reruns as <rerunFailure>/<flakyFailure>, Bazel
// wraps a target's cases in <testsuites>/<testsuite>, and suites may nest. A test that ran more than once
// (retries recorded as repeated test cases) failed only when no attempt passed.
import { createReadStream } from 'node:fs';
import sax from 'sax';
import { InputError } from '../../../errors.js';

export type Outcome = 'passed' | 'failed' | 'skipped';

export interface TestCaseResult {
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
  /** How many times the test case appears; more than one is a retry. */
  attempts: number;
  /** Failed at least once and passed on a retry. */
  passedOnRetry: boolean;
  /** The report the test came from. */
  report: string;
}

const MAX_MESSAGE_CHARS = 500;
/** Text kept from a failure's body to find its first line; the rest (stack traces, output) is skipped. */
const MAX_BODY_CHARS = 4096;

/** The sax options of every read, shared with the benchmark's floor so that both parse alike. */
export const SAX_OPTIONS = { trim: false, normalize: false, position: true, xmlns: false } as const;

/** A test that did not fail, kept small: 50,000 of them are counted, not remembered. */
interface NotFailed {
  outcome: 'passed' | 'skipped';
  attempts: number;
  passedOnRetry: boolean;
}

/** Collects the test cases of many reports; a case seen again is an attempt of the same test. */
export class TestResults {
  private readonly byIdentity = new Map<string, TestCaseResult | NotFailed>();
  reports = 0;
  cases = 0;

  /** `onFirstFailure` is told when the first failed test case is read (to start asking the service). */
  constructor(private onFirstFailure?: () => void) {}

  add(result: TestCaseResult): void {
    this.cases++;
    if (result.outcome === 'failed' && this.onFirstFailure) {
      this.onFirstFailure();
      this.onFirstFailure = undefined;
    }
    const key = `${result.classname}\u0000${result.name}\u0000${result.file}\u0000${result.suite}`;
    const seen = this.byIdentity.get(key);
    const attempts = (seen?.attempts ?? 0) + result.attempts;
    const everPassed = seen?.outcome === 'passed' || result.outcome === 'passed';
    const everFailed =
      seen?.outcome === 'failed' ||
      result.outcome === 'failed' ||
      seen?.passedOnRetry ||
      result.passedOnRetry;
    if (everPassed) {
      this.byIdentity.set(key, { outcome: 'passed', attempts, passedOnRetry: Boolean(everFailed) });
    } else if (everFailed) {
      // The first failed attempt's details are kept: they say what went wrong.
      const kept = seen?.outcome === 'failed' ? (seen as TestCaseResult) : result;
      this.byIdentity.set(key, { ...kept, line: kept.line || result.line, attempts });
    } else {
      this.byIdentity.set(key, { outcome: 'skipped', attempts, passedOnRetry: false });
    }
  }

  /** Tests that failed at first and passed on a retry. */
  passedOnRetry(): number {
    let count = 0;
    for (const test of this.byIdentity.values()) if (test.passedOnRetry) count++;
    return count;
  }

  failed(): TestCaseResult[] {
    return [...this.byIdentity.values()].filter((test): test is TestCaseResult => test.outcome === 'failed');
  }
}

interface OpenCase {
  result: TestCaseResult;
  /** Inside <failure>/<error> (or a Surefire rerun of one): text is kept for the message. */
  body?: string;
  /** Passed after Surefire's reruns: <flakyFailure>/<flakyError> without a final failure. */
  flaky: boolean;
}

/** Reads one report into `results`; malformed or truncated XML is an InputError naming file and position. */
export async function readJUnitReport(path: string, shownAs: string, results: TestResults): Promise<void> {
  const parser = sax.parser(true, SAX_OPTIONS);
  const suites: string[] = [];
  const suiteFiles: string[] = [];
  let open: OpenCase | undefined;
  let sawRoot = false;
  let parseError: string | undefined;

  parser.onopentag = (tag) => {
    sawRoot = true;
    const attributes = tag.attributes as Record<string, string>;
    switch (tag.name) {
      case 'testsuite':
        suites.push(attributes.name ?? '');
        suiteFiles.push(attributes.file ?? attributes.filepath ?? suiteFiles.at(-1) ?? '');
        return;
      case 'testcase':
        open = {
          flaky: false,
          result: {
            name: (attributes.name ?? '').trim(),
            classname: (attributes.classname ?? '').trim(),
            suite: suites.at(-1) ?? '',
            file: attributes.file ?? attributes.filepath ?? suiteFiles.at(-1) ?? '',
            line: positiveInteger(attributes.line),
            outcome: skippedByStatus(attributes) ? 'skipped' : 'passed',
            message: '',
            attempts: 1,
            passedOnRetry: false,
            report: shownAs,
          },
        };
        return;
    }
    if (!open) return;
    if (FAILURE_TAGS.has(tag.name)) {
      if (open.result.outcome !== 'failed') {
        open.result.outcome = 'failed';
        open.result.kind = tag.name.toLowerCase().endsWith('error') ? 'error' : 'failure';
        open.result.message = cap(attributes.message ?? '');
      }
      if (!open.result.message) open.body = '';
    } else if (tag.name === 'flakyFailure' || tag.name === 'flakyError') {
      open.flaky = true;
    } else if (tag.name === 'skipped' && open.result.outcome === 'passed') {
      open.result.outcome = 'skipped';
    }
  };
  parser.ontext = parser.oncdata = (text) => {
    if (open?.body !== undefined && open.body.length < MAX_BODY_CHARS) {
      open.body += text.slice(0, MAX_BODY_CHARS);
    }
  };
  parser.onclosetag = (name) => {
    if (name === 'testsuite') {
      suites.pop();
      suiteFiles.pop();
    } else if (name === 'testcase' && open) {
      const { result, flaky } = open;
      if (flaky && result.outcome === 'passed') result.passedOnRetry = true;
      results.add(result);
      open = undefined;
    } else if (open?.body !== undefined && FAILURE_TAGS.has(name)) {
      if (!open.result.message) open.result.message = cap(firstLine(open.body));
      open.body = undefined;
    }
  };
  parser.onerror = (error) => {
    parseError ??= error.message;
  };

  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 256 * 1024 });
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      parser.write(chunk);
      if (parseError) break;
    }
    if (!parseError) parser.close();
  } catch (error) {
    if (parseError) throw malformed(shownAs, parseError);
    throw new InputError(
      'junit-paths',
      `${shownAs} could not be read (${(error as Error).message})`,
      'Check that the file exists and is readable.',
    );
  } finally {
    stream.destroy();
  }
  if (parseError) throw malformed(shownAs, parseError);
  if (!sawRoot) throw malformed(shownAs, 'the file holds no XML element (it is empty or not XML)');
  results.reports++;
}

const FAILURE_TAGS = new Set(['failure', 'error', 'rerunFailure', 'rerunError']);

/** Bazel marks a target that did not run with status="notrun"; some runners write result="skipped". */
function skippedByStatus(attributes: Record<string, string>): boolean {
  const status = (attributes.status ?? attributes.result ?? '').toLowerCase();
  return status === 'notrun' || status === 'skipped' || status === 'disabled';
}

/** sax says `message\nLine: 3\nColumn: 7\nChar: x`: one line with the position first. */
function malformed(shownAs: string, saxMessage: string): InputError {
  const [what = 'malformed XML', ...rest] = saxMessage.split('\n');
  const position = Object.fromEntries(
    rest.map((line) => line.split(': ')).filter((pair) => pair.length === 2) as [string, string][],
  );
  const at =
    position.Line !== undefined ? ` at line ${Number(position.Line) + 1}, column ${position.Column}` : '';
  return new InputError(
    'junit-paths',
    `${shownAs} is not well-formed JUnit XML${at}: ${what.replace(/\.$/, '')}`,
    'A truncated report usually means the test runner was killed while writing it; run the tests again, or leave the file out of junit-paths.',
  );
}

function firstLine(text: string): string {
  return (
    text
      .split(/\r?\n/)
      .map((line) => line.trim())
      .find(Boolean) ?? ''
  );
}

function cap(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > MAX_MESSAGE_CHARS ? `${line.slice(0, MAX_MESSAGE_CHARS)}…` : line;
}

function positiveInteger(value: string | undefined): number {
  const number = Number(value);
  return Number.isInteger(number) && number > 0 ? number : 0;
}

// Reads JUnit XML reports as a stream (sax, strict), one file at a time, keeping only what the gate needs:
// each test case's identity, where it is, and how it ended. The dialects differ in where they put things:
// jest-junit and the node test runner name the file on <testcase file>, pytest adds `line`, gotestsum
// puts the package in `classname`, Maven Surefire records reruns as <rerunFailure>/<flakyFailure>, Bazel
// wraps a target's cases in <testsuites>/<testsuite>, and suites may nest. A test that ran more than once
// (retries recorded as repeated test cases) failed only when no attempt passed.
import { closeSync, constants, readSync } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { StringDecoder } from 'node:string_decoder';
import sax from 'sax';
import { InputError } from '../../../errors.js';
import { openRegularFileSync, sizeOf } from '../../../files.js';
import type { TestCaseRead } from './results.js';

const MAX_MESSAGE_CHARS = 500;
/** Text kept from a failure's body to find its first line; the rest (stack traces, output) is skipped. */
const MAX_BODY_CHARS = 4096;
/**
 * Reports are read into one buffer of this size, reused for every chunk and every report: memory stays
 * at one chunk however large the reports are, and no chunk is left for the garbage collector.
 */
export const CHUNK_BYTES = 32 * 1024;

/** The sax options of every read, shared with the benchmark's floor so that both parse alike. */
export const SAX_OPTIONS = { trim: false, normalize: false, position: true, xmlns: false } as const;
/**
 * The longest attribute, name or comment read (sax's own limit is 64 KiB, checked once per chunk): a
 * failure message attribute can be longer (a large assertion diff). Text is handed over in parts.
 */
export const MAX_TOKEN_CHARS = 1024 * 1024;
(sax as unknown as { MAX_BUFFER_LENGTH: number }).MAX_BUFFER_LENGTH = MAX_TOKEN_CHARS;

/** Where a report's test cases go, each as its </testcase> closes (the object is reused: copy what is kept). */
export type TestCaseSink = (test: TestCaseRead) => void;

/** How much more of the run's reports may be read, shared by every report of the run. */
export interface ReadBudget {
  bytesLeft: number;
  maxBytes: number;
}

/**
 * Reads one report into `sink` through `buffer`, by its real path (no symlink followed); malformed or
 * truncated XML is an InputError naming file and position, and so is a read past the run's budget.
 */
export async function readJUnitReport(
  path: string,
  shownAs: string,
  sink: TestCaseSink,
  buffer: Buffer,
  budget: ReadBudget,
): Promise<void> {
  const reader = new JUnitReader(shownAs, sink);
  let opened: ReturnType<typeof openRegularFileSync>;
  try {
    opened = openRegularFileSync(path, constants.O_NOFOLLOW);
  } catch (error) {
    throw unreadable(shownAs, error);
  }
  if ('notAFile' in opened) throw notAFile(shownAs, opened.notAFile);
  const { fd } = opened;
  try {
    const decoder = new StringDecoder('utf8');
    for (;;) {
      // Each chunk is read synchronously (a report was just written: it is in the page cache), after a
      // turn of the event loop, so that the service's pages are handled between chunks. Asynchronous
      // reads left the parse waiting on the thread pool (figures in bench/lib/speed-tricks.ts).
      await nextTurn();
      const bytesRead = readSync(fd, buffer, 0, buffer.length, null);
      if (!bytesRead) break;
      budget.bytesLeft -= bytesRead;
      if (budget.bytesLeft < 0) throw overBudget(shownAs, budget.maxBytes);
      reader.write(decoder.write(bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead)));
      if (reader.parseError) break;
    }
    if (!reader.parseError) reader.end(decoder.end());
  } catch (error) {
    if (error instanceof InputError) throw error;
    if (!reader.parseError) throw unreadable(shownAs, error);
  } finally {
    closeSync(fd);
  }
  if (reader.parseError) throw malformed(shownAs, reader.parseError);
  if (!reader.sawRoot) throw malformed(shownAs, 'the file holds no XML element (it is empty or not XML)');
}

/** One report's parse: each test case as its tags open and close, handed to the sink when it ends. */
class JUnitReader {
  sawRoot = false;
  parseError: string | undefined;
  private readonly parser = sax.parser(true, SAX_OPTIONS);
  private readonly suites: string[] = [];
  private readonly suiteFiles: string[] = [];
  // The test case being read (one object, reset at each <testcase>), and the failure text kept for its
  // message while inside <failure>/<error> without a message attribute.
  private readonly testCase: TestCaseRead;
  private inCase = false;
  private flaky = false;
  private body: string | undefined;

  constructor(
    shownAs: string,
    private readonly sink: TestCaseSink,
  ) {
    this.testCase = {
      name: '',
      classname: '',
      suite: '',
      file: '',
      line: 0,
      outcome: 'passed',
      message: '',
      passedOnRerun: false,
      report: shownAs,
    };
    this.parser.onopentag = (tag) => this.openTag(tag.name, tag.attributes as Record<string, string>);
    this.parser.ontext = this.parser.oncdata = (text) => this.text(text);
    this.parser.onclosetag = (name) => this.closeTag(name);
    this.parser.onerror = (error) => {
      this.parseError ??= error.message;
    };
  }

  write(text: string): void {
    this.parser.write(text);
  }

  end(rest: string): void {
    this.parser.write(rest);
    if (!this.parseError) this.parser.close();
  }

  private openTag(name: string, attributes: Record<string, string>): void {
    this.sawRoot = true;
    if (name === 'testsuite') {
      this.suites.push(attributes.name ?? '');
      this.suiteFiles.push(attributes.file ?? attributes.filepath ?? this.suiteFiles.at(-1) ?? '');
    } else if (name === 'testcase') {
      this.startCase(attributes);
    } else if (this.inCase) {
      this.caseChild(name, attributes);
    }
  }

  private startCase(attributes: Record<string, string>): void {
    const { testCase } = this;
    this.inCase = true;
    this.flaky = false;
    this.body = undefined;
    testCase.name = (attributes.name ?? '').trim();
    testCase.classname = (attributes.classname ?? '').trim();
    testCase.suite = this.suites.at(-1) ?? '';
    testCase.file = attributes.file ?? attributes.filepath ?? this.suiteFiles.at(-1) ?? '';
    testCase.line = positiveInteger(attributes.line);
    testCase.outcome = skippedByStatus(attributes) ? 'skipped' : 'passed';
    testCase.kind = undefined;
    testCase.message = '';
  }

  /** A tag inside a test case: how it ended (failure, error, skipped) or that a rerun passed. */
  private caseChild(name: string, attributes: Record<string, string>): void {
    const { testCase } = this;
    if (FAILURE_TAGS.has(name)) {
      if (testCase.outcome !== 'failed') {
        testCase.outcome = 'failed';
        testCase.kind = name.toLowerCase().endsWith('error') ? 'error' : 'failure';
        testCase.message = cap(attributes.message ?? '');
      }
      if (!testCase.message) this.body = '';
    } else if (name === 'flakyFailure' || name === 'flakyError') {
      this.flaky = true;
    } else if (name === 'skipped' && testCase.outcome === 'passed') {
      testCase.outcome = 'skipped';
    }
  }

  private text(text: string): void {
    if (this.body !== undefined && this.body.length < MAX_BODY_CHARS) {
      this.body += text.slice(0, MAX_BODY_CHARS);
    }
  }

  private closeTag(name: string): void {
    const { testCase } = this;
    if (name === 'testsuite') {
      this.suites.pop();
      this.suiteFiles.pop();
    } else if (name === 'testcase' && this.inCase) {
      testCase.passedOnRerun = this.flaky && testCase.outcome === 'passed';
      this.sink(testCase);
      this.inCase = false;
    } else if (this.body !== undefined && FAILURE_TAGS.has(name)) {
      if (!testCase.message) testCase.message = cap(firstLine(this.body));
      this.body = undefined;
    }
  }
}

function overBudget(shownAs: string, maxBytes: number): InputError {
  return new InputError(
    'junit-paths',
    `the reports are over ${sizeOf(maxBytes)} in all (reading ${shownAs})`,
    'Narrow the globs to the JUnit reports the test runner writes, e.g. `reports/**/*.xml`.',
  );
}

function notAFile(shownAs: string, kind: string): InputError {
  return new InputError(
    'junit-paths',
    `${shownAs} is ${kind}, not a regular file`,
    'Leave it out of junit-paths, or make the path lead to the report the test runner wrote.',
  );
}

function unreadable(shownAs: string, error: unknown): InputError {
  return new InputError(
    'junit-paths',
    `${shownAs} could not be read (${(error as Error).message})`,
    'Check that the file exists and is readable.',
  );
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
  if (what.startsWith('Max buffer length exceeded')) {
    return new InputError(
      'junit-paths',
      `${shownAs} has an attribute, tag name or comment longer than ${MAX_TOKEN_CHARS / 1024 / 1024} MiB${at}, more than the gate reads`,
      'Have the test runner write long failure messages in the failure text rather than an attribute, or leave the file out of junit-paths.',
    );
  }
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

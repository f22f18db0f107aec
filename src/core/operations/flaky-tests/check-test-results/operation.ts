// check-test-results, the quarantine gate: reads the run's JUnit reports, gives each failed test a
// verdict from what the service knows (quarantined, known flaky, failing on the target branch, or new),
// annotates the unquarantined ones at their file and line, and fails the step only for the verdicts in
// fail-on-verdict. When the service cannot be reached, on-service-error decides, and says so loudly.
import { resolve } from 'node:path';
import { describeOutage } from './outage.js';
import { rawResponse } from '../../common.js';
import type { Operation, OperationContext, OutputValue } from '../../types.js';
import { reportItem, writeListReportFile } from '../report-file.js';
import { plural } from '../../../report/words.js';
import { listedIn, nameOf, words, type Words } from '../../../words.js';
import { readCodeOwners } from './codeowners.js';
import { inCheckout, locateTest } from './locate.js';
import type { CheckTestResultsSettings } from './inputs.js';
import type { TestCaseResult, TestResults } from './results.js';
import { readReports } from './reports.js';
import { fetchServiceLists, isOutage, type ServiceLists } from './service-lists.js';
import { summarizeGate, type CheckedFailure, type GateOutcome } from './summary.js';
import { VERDICT_LABELS, verdictOf } from './verdicts.js';
import { withYoungGenerationHeld } from './young-generation.js';

/** The platforms show about 10 annotations of a level per step and drop the rest silently. */
export const MAX_ANNOTATIONS_PER_LEVEL = 10;
/** Failures listed in an output; the report file has every one. */
const MAX_OUTPUT_FAILURES = 200;

export const checkTestResults: Operation<CheckTestResultsSettings> = (op) =>
  withYoungGenerationHeld(() => gate(op));

async function gate(
  op: OperationContext<CheckTestResultsSettings>,
): ReturnType<Operation<CheckTestResultsSettings>> {
  const { onServiceError, failOnVerdicts } = op.settings;
  const checkoutDir = checkoutDirOf(op);
  const { results, lists, outage } = await readAndAsk(op, checkoutDir);
  const failures = results.failed();
  const codeOwners = failures.length ? await readCodeOwners(checkoutDir) : undefined;
  const checked = failures.map((test): CheckedFailure => {
    const known = lists && serviceEntries(lists, test, op.settings.variant);
    const verdict = known ? verdictOf(known.status) : 'unchecked';
    const file = inCheckout(test.file, checkoutDir);
    return {
      test,
      verdict,
      failsStep: verdict !== 'unchecked' && (failOnVerdicts as string[]).includes(verdict),
      owners: (file && codeOwners?.ownersOf(file)) || [],
      htmlUrl: known?.htmlUrl,
    };
  });
  const outcome: GateOutcome = {
    cases: results.cases,
    reports: results.reports,
    passedOnRetry: results.passedOnRetry(),
    failures: checked,
    outage,
    onServiceError,
    failOnVerdicts,
    quarantinedKnown: lists?.quarantinedCount,
    codeOwnersSource: codeOwners?.source,
  };
  await annotate(op, checked, outage !== undefined);
  if (outage) op.log.warning(outageLine(outage, failures.length, onServiceError));
  const failing = checked.filter((failure) => failure.failsStep);
  return {
    outputs: await gateOutputs(op, outcome, lists),
    summary: summarizeGate(op, outcome),
    failure: gateFailure(outcome, failing),
    failureTitle: outage
      ? 'Failed tests not checked: the flaky-tests service could not be reached'
      : failingHeadline(failing),
    details: { kind: 'test-results', gate: outcome },
  };
}

/**
 * The reports read, and the service's lists when a test failed: asked while the rest of the reports are
 * read, from the first failure on (a run without failures never asks). An outage is a verdict of its own.
 */
async function readAndAsk(
  op: OperationContext<CheckTestResultsSettings>,
  checkoutDir: string,
): Promise<{ results: TestResults; lists?: ServiceLists; outage?: string }> {
  let asked: Promise<ServiceLists> | undefined;
  const results = await readReports(op.settings.junitPaths, checkoutDir, () => {
    asked = fetchServiceLists(op);
    // Handled below; this keeps a report that turns out malformed from leaving it unhandled.
    asked.catch(() => undefined);
  });
  const failed = results.failed().length;
  op.log.info(
    `Read ${plural(results.cases, 'test case')} in ${plural(results.reports, 'report')}; ${plural(failed, 'test')} failed.`,
  );
  if (!failed || !asked) return { results };
  try {
    return { results, lists: await asked };
  } catch (error) {
    if (!isOutage(error)) throw error;
    return { results, outage: describeOutage(error, op.wording) };
  }
}

/** The step's outputs, and the report file with every failure. */
async function gateOutputs(
  op: OperationContext<CheckTestResultsSettings>,
  outcome: GateOutcome,
  lists: ServiceLists | undefined,
): Promise<Record<string, OutputValue>> {
  const checked = outcome.failures;
  // Each failure made into its piece of the file on its own: thousands of failures with their messages are
  // never one string (and its redacted and encoded copies) at once.
  const reportFile = await writeListReportFile(
    op,
    'test-results.json',
    {
      junit_paths: op.settings.junitPaths,
      variant: op.settings.variant,
      reports: outcome.reports,
      test_cases: outcome.cases,
      service_error: outcome.outage ?? null,
    },
    'failures',
    checked.map((failure) => reportItem(op, { ...failureOutput(failure), owners: failure.owners })),
  );
  return {
    response: rawResponse(lists?.response),
    'failed-count': checked.length,
    'quarantined-failures': failuresOutput(checked.filter((failure) => failure.verdict === 'quarantined')),
    'unquarantined-failures': failuresOutput(checked.filter((failure) => failure.verdict !== 'quarantined')),
    'step-failing-count': checked.filter((failure) => failure.failsStep).length,
    'service-error': outcome.outage ?? '',
    'report-file': reportFile,
  };
}

/** The line the step fails with: an outage when on-service-error says fail, or the failures that fail it. */
function gateFailure(outcome: GateOutcome, failing: CheckedFailure[]): Words | undefined {
  const { outage, onServiceError, failOnVerdicts, failures } = outcome;
  if (outage) {
    return onServiceError === 'fail' ? outageLine(outage, failures.length, onServiceError) : undefined;
  }
  if (!failing.length) return undefined;
  const quarantined = failures.filter((failure) => failure.verdict === 'quarantined').length;
  const verdicts = failOnVerdicts.map((v) => VERDICT_LABELS[v]).join(' or ');
  return words`${plural(failing.length, 'failed test')} ${failing.length === 1 ? 'is' : 'are'} ${verdicts} (${nameOf('fail-on-verdict')}: ${failOnVerdicts.join(',')}); quarantined: ${quarantined} of ${plural(failures.length, 'failure')}. ${listedIn('report-file')}.`;
}

/** "3 failures not quarantined: likely caused by this PR", naming the verdicts of the failures that fail. */
function failingHeadline(failing: CheckedFailure[]): string {
  const verdicts = [...new Set(failing.map((failure) => failure.verdict))].map((verdict) =>
    verdict === 'unchecked' ? 'not checked' : VERDICT_LABELS[verdict],
  );
  return `${plural(failing.length, 'failure')} not quarantined: ${verdicts.join(' or ')}`;
}

function serviceEntries(lists: ServiceLists, test: TestCaseResult, variant: string) {
  const quarantined = lists.quarantined.find(test, variant);
  const flaky = lists.flaky.find(test, variant);
  const broken = lists.broken.find(test, variant);
  const failing = lists.failing.find(test, variant);
  return {
    status: {
      quarantined: quarantined !== undefined,
      unhealthyStatus: flaky ? 'flaky' : broken ? 'broken' : undefined,
      failingInWindow: failing !== undefined,
    },
    htmlUrl: (flaky ?? broken ?? failing ?? quarantined)?.htmlUrl,
  };
}

function outageLine(outage: string, failed: number, onServiceError: string): Words {
  return onServiceError === 'fail'
    ? words`The flaky-tests service could not be reached (${outage}), so ${plural(failed, 'failed test')} could not be checked against the quarantine; the step fails because ${nameOf('on-service-error')} is fail.`
    : words`The flaky-tests service could not be reached (${outage}), so ${plural(failed, 'failed test')} ${failed === 1 ? 'was' : 'were'} NOT checked against the quarantine. The step passes because ${nameOf('on-service-error')} is pass-with-warning: look at the failures below before merging.`;
}

function checkoutDirOf(op: OperationContext<CheckTestResultsSettings>): string {
  return resolve(op.workingDirectory, op.settings.checkoutDir);
}

/**
 * Each failure that is not quarantined, at its test: errors for those that fail the step, warnings for
 * the rest; at most 10 of each, and one notice that says how many more there are.
 */
async function annotate(
  op: OperationContext<CheckTestResultsSettings>,
  failures: CheckedFailure[],
  unchecked: boolean,
): Promise<void> {
  const errors = failures.filter((failure) => failure.failsStep);
  const warnings = failures.filter((failure) => !failure.failsStep && failure.verdict !== 'quarantined');
  for (const [level, group] of [
    ['error', errors],
    ['warning', warnings],
  ] as const) {
    for (const failure of group.slice(0, MAX_ANNOTATIONS_PER_LEVEL)) {
      const location = await locateTest(failure.test, checkoutDirOf(op));
      const why = unchecked
        ? 'not checked: the service could not be reached'
        : VERDICT_LABELS[failure.verdict as keyof typeof VERDICT_LABELS];
      const title = `${why[0]!.toUpperCase()}${why.slice(1)}: ${testTitle(failure.test)}`;
      op.log.annotate(level, firstLine(failure.test.message) || 'Failed', { title, ...location });
    }
    const more = group.length - MAX_ANNOTATIONS_PER_LEVEL;
    if (more > 0) {
      op.log.annotate(
        'notice',
        `${plural(more, 'more failed test', 'more failed tests')} at ${level} level ${more === 1 ? 'is' : 'are'} not annotated (at most ${MAX_ANNOTATIONS_PER_LEVEL} each); the job summary and report-file list every one.`,
        { title: `${more} more failed tests not annotated` },
      );
    }
  }
}

/**
 * A message from a test report as one line: its first (an assertion's headline), the rest left to the
 * summary and the report, so that no annotation shows a line break as an escape.
 */
function firstLine(message: string): string {
  const lines = message
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  return lines.length > 1 ? `${lines[0]} …` : (lines[0] ?? '');
}

function testTitle(test: TestCaseResult): string {
  const title =
    test.classname && !test.name.includes(test.classname) ? `${test.classname} › ${test.name}` : test.name;
  return title.length > 200 ? `${title.slice(0, 200)}…` : title;
}

function failureOutput(failure: CheckedFailure) {
  const { test } = failure;
  return {
    name: test.name,
    classname: test.classname,
    file: test.file,
    ...(test.line ? { line: test.line } : {}),
    message: test.message,
    verdict: failure.verdict,
  };
}

function failuresOutput(failures: CheckedFailure[]): string {
  return JSON.stringify(failures.slice(0, MAX_OUTPUT_FAILURES).map(failureOutput));
}

// The checks that failed a PR's test run, from getMergeQueueTestingDetails: check runs and status checks,
// each once, with its link. Over v2, from the verification run's normalized checks, required ones first.
import { ANSWER_SHAPES, enumValue, type TestingDetails } from '../../../wire/index.js';
import { shapeProblem } from '../../api/answers.js';
import { wordsOf } from '../../failure.js';
import { words } from '../../words.js';
import { queueRef } from '../common.js';
import type { OperationContext } from '../types.js';
import { v2Of } from './v2/access.js';
import type { FailingCheck, TestRunReport } from './test-run-report.js';
import { verificationRunReport } from './v2/run-report.js';

const FAILED_CONCLUSIONS = new Set([
  'failure',
  'timed_out',
  'cancelled',
  'action_required',
  'startup_failure',
]);
const FAILED_STATES = new Set(['failure', 'error']);
const MAX_CHECKS = 50;

/** The test run's report; undefined (with a warning) when it cannot be read, since it only adds detail. */
export async function readTestRun(
  op: OperationContext<unknown>,
  testRunId: string,
): Promise<TestRunReport | undefined> {
  try {
    const access = v2Of(op);
    if (access) {
      const { data } = await access.v2.call('mergeQueueVerificationRuns.get', { path: { id: testRunId } });
      return verificationRunReport(data);
    }
    const response = await op.client.call('getMergeQueueTestingDetails', {
      ...queueRef(op.context),
      testRunId,
    });
    return testRunReport(testRunId, response.answer);
  } catch (error) {
    op.log.warning(words`Could not read test run ${testRunId} to name its failing checks: ${wordsOf(error)}`);
    return undefined;
  }
}

export function testRunReport(testRunId: string, details: TestingDetails): TestRunReport {
  const failing: FailingCheck[] = [];
  const seen = new Set<string>();
  const add = (name: string, conclusion: string | undefined, url: string | undefined) => {
    if (!name) return;
    const key = `${name}\n${url ?? ''}`;
    if (seen.has(key) || failing.length >= MAX_CHECKS) return;
    seen.add(key);
    failing.push({
      name: name.slice(0, 200),
      conclusion: String(conclusion).toUpperCase().slice(0, 40),
      url: url && /^https?:\/\//i.test(url) ? url.slice(0, 2000) : '',
    });
  };
  for (const suite of details.checkSuites) {
    for (const run of suite.checkRuns) {
      if (FAILED_CONCLUSIONS.has(enumValue(run.conclusion))) add(run.name, run.conclusion, run.url);
    }
  }
  for (const status of details.statusChecks) {
    if (FAILED_STATES.has(enumValue(status.state))) add(status.context, status.state, status.url);
  }
  const createdAtMs = details.createdAt ? Date.parse(details.createdAt) : NaN;
  return {
    testRunId,
    testBranch: details.testBranch,
    status: details.status === undefined ? undefined : enumValue(details.status),
    createdAtMs: Number.isNaN(createdAtMs) ? undefined : createdAtMs,
    failing: dropRepeatedChecks(failing),
    testedPrNumbers: details.testedPullRequests.map((pr) => pr.prNumber),
    impactedTargetsForTestedPrs: details.impactedTargetsForTestedPrs,
  };
}

/**
 * The testing details an operation's `response` output holds (the answer as the service sent it, which
 * the client checked), checked against their shape again; undefined when it holds none.
 */
export function testingDetailsIn(response: string): TestingDetails | undefined {
  let body: unknown;
  try {
    body = JSON.parse(response);
  } catch {
    return undefined;
  }
  const shape = ANSWER_SHAPES.getMergeQueueTestingDetails;
  return shape && !shapeProblem(shape, body) ? (body as TestingDetails) : undefined;
}

/** A status check that repeats a check run of the same name (GitHub reports both) is shown once. */
function dropRepeatedChecks(checks: FailingCheck[]): FailingCheck[] {
  const byName = new Map<string, FailingCheck>();
  for (const check of checks) if (!byName.has(check.name)) byName.set(check.name, check);
  return [...byName.values()];
}

export function describeFailingChecks(checks: FailingCheck[]): string {
  return checks.map((c) => `${c.name} concluded ${c.conclusion}${c.url ? ` (${c.url})` : ''}`).join('; ');
}

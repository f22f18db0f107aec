// The checks that failed a PR's test run, from getMergeQueueTestingDetails: check runs and status checks,
// each once, with its link. Over v2, from the verification run's normalized checks, required ones first.
import { isObject } from '../../../wire/index.js';
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
    return testRunReport(testRunId, response.json);
  } catch (error) {
    op.log.warning(
      `Could not read test run ${testRunId} to name its failing checks: ${error instanceof Error ? error.message : String(error)}`,
    );
    return undefined;
  }
}

export function testRunReport(testRunId: string, details: unknown): TestRunReport {
  const body = isObject(details) ? details : {};
  const failing: FailingCheck[] = [];
  const seen = new Set<string>();
  const add = (name: unknown, conclusion: unknown, url: unknown) => {
    if (typeof name !== 'string' || !name) return;
    const key = `${name}\n${typeof url === 'string' ? url : ''}`;
    if (seen.has(key) || failing.length >= MAX_CHECKS) return;
    seen.add(key);
    failing.push({
      name: name.slice(0, 200),
      conclusion: String(conclusion).toUpperCase().slice(0, 40),
      url: typeof url === 'string' && /^https?:\/\//i.test(url) ? url.slice(0, 2000) : '',
    });
  };
  for (const suite of arrayOf(body.checkSuites)) {
    for (const run of arrayOf(isObject(suite) ? suite.checkRuns : undefined)) {
      if (!isObject(run)) continue;
      const conclusion = String(run.conclusion ?? '').toLowerCase();
      if (FAILED_CONCLUSIONS.has(conclusion)) add(run.name, run.conclusion, run.url);
    }
  }
  for (const status of arrayOf(body.statusChecks)) {
    if (!isObject(status)) continue;
    if (FAILED_STATES.has(String(status.state ?? '').toLowerCase()))
      add(status.context, status.state, status.url);
  }
  const createdAtMs = typeof body.createdAt === 'string' ? Date.parse(body.createdAt) : NaN;
  return {
    testRunId,
    testBranch: typeof body.testBranch === 'string' ? body.testBranch : undefined,
    status: typeof body.status === 'string' ? body.status.toLowerCase() : undefined,
    createdAtMs: Number.isNaN(createdAtMs) ? undefined : createdAtMs,
    failing: dropRepeatedChecks(failing),
    testedPrNumbers: arrayOf(body.testedPullRequests)
      .map((pr) => (isObject(pr) ? pr.prNumber : undefined))
      .filter((n): n is number => typeof n === 'number'),
    impactedTargetsForTestedPrs: Array.isArray(body.impactedTargetsForTestedPrs)
      ? body.impactedTargetsForTestedPrs.filter((t): t is string => typeof t === 'string')
      : undefined,
  };
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

function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

// A verification run read into the report the PR summaries show (failing-checks.ts's TestRunReport):
// its failing checks from the normalized checks, the required ones first.
import { VERIFICATION_RUN_STATUS_V1, toV1, type V2 } from '../../../../wire/v2/index.js';
import type { TestRunReport } from '../test-run-report.js';
import { runChecks } from './checks.js';

const MAX_FAILING = 50;

export function verificationRunReport(run: V2<'VerificationRun'>): TestRunReport {
  const createdAtMs = Date.parse(run.createdAt);
  return {
    testRunId: run.id,
    testBranch: run.testBranch || undefined,
    status: toV1(VERIFICATION_RUN_STATUS_V1, run.status),
    createdAtMs: Number.isNaN(createdAtMs) ? undefined : createdAtMs,
    failing: runChecks(run)
      .filter((check) => check.failed)
      .slice(0, MAX_FAILING)
      .map(({ name, result, url, required }) => ({ name, conclusion: result, url, required })),
    testedPrNumbers: run.testedPullRequests.map((pr) => pr.number),
    impactedTargetsForTestedPrs: run.impactedTargets?.testedPullRequestsOnly?.impactedTargets,
  };
}

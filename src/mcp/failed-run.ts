// The failed run of a PR, through the core's get-merge-queue-testing-details: which PRs it tested, which
// it was built on, whether it was a bisection run, and when it ran (for the failing tests of its window).
import { z } from 'zod';
import { testingDetailsIn, testRunReport } from '../core/index.js';
import { dataText, dataUrl } from './data.js';
import { failingCheckSchema } from './pr-view.js';
import { requireSuccess, ToolFailure, type ToolContext } from './tool.js';

export const failedRunSchema = z.object({
  testRunId: z.string(),
  testBranch: z.string().nullable(),
  status: z.string().nullable(),
  createdAt: z.string().nullable(),
  testedPrNumbers: z.array(z.number().int()),
  builtOnPrNumbers: z.array(z.number().int()).describe('PRs ahead that the run was built on top of.'),
  failingChecks: z.array(failingCheckSchema),
});
export type FailedRun = z.infer<typeof failedRunSchema>;

export const bisectionSchema = z.object({
  isBisectionRun: z.boolean().nullable().describe('null when the v1 API cannot tell.'),
  evidence: z.string(),
});

/** v1 names a bisection run's id with this suffix (v2 no longer takes it). */
const BISECTION_SUFFIX = '-bisection';

export async function readFailedRun(
  tools: ToolContext,
  testRunId: string,
  targetBranch: string,
): Promise<FailedRun> {
  const { result } = await tools.runner.run('get-merge-queue-testing-details', {
    'test-run-id': testRunId,
    'target-branch': targetBranch,
  });
  requireSuccess(result);
  const body = testingDetailsIn(result.outputs.response ?? '');
  if (!body) {
    throw new ToolFailure(
      'get-merge-queue-testing-details gave no report of the test run it was asked about.',
    );
  }
  const report = testRunReport(testRunId, body);
  const dependent = body.dependentPrs ?? [];
  const redact = tools.runner.redact;
  return {
    testRunId: dataText(tools.runner.redact, testRunId),
    testBranch: report.testBranch ? dataText(tools.runner.redact, report.testBranch) : null,
    status: report.status ? dataText(tools.runner.redact, report.status, 40).toUpperCase() : null,
    createdAt: report.createdAtMs !== undefined ? new Date(report.createdAtMs).toISOString() : null,
    testedPrNumbers: report.testedPrNumbers,
    builtOnPrNumbers: dependent.filter((n): n is number => Number.isInteger(n)).slice(0, 50),
    failingChecks: report.failing.map((check) => ({
      name: dataText(redact, check.name),
      conclusion: dataText(redact, check.conclusion, 40),
      url: dataUrl(redact, check.url),
    })),
  };
}

/** Whether the run was a bisection run, as far as v1 says. */
export function bisectionOf(
  run: FailedRun,
  batching: boolean | null,
): { isBisectionRun: boolean | null; evidence: string } {
  if (run.testRunId.endsWith(BISECTION_SUFFIX)) {
    return { isBisectionRun: true, evidence: 'Its test run id is a bisection run’s.' };
  }
  if (batching === false) {
    return { isBisectionRun: false, evidence: 'The queue does not batch, so it never bisects.' };
  }
  if (run.testedPrNumbers.length > 1) {
    return {
      isBisectionRun: false,
      evidence: `A batch run of ${run.testedPrNumbers.length} PRs; a failed batch is bisected next.`,
    };
  }
  return {
    isBisectionRun: null,
    evidence:
      'The queue batches and this run tested the PR alone: a bisection run or a batch of one; v1 does not say which.',
  };
}

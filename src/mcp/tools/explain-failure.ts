// explain_failure: why a PR's run failed. The PR's look (failing checks with links), its failed run (what
// it tested, what it was built on, bisection or not), the PRs it was built on as they stand now, the
// failing tests marked flaky or quarantined, and a verdict with its evidence.
import { z } from 'zod';
import {
  bisectionOf,
  bisectionSchema,
  failedRunSchema,
  readFailedRun,
  type FailedRun,
} from '../failed-run.js';
import { FAILING_TEST_SOURCES, failingTestSchema, failingTestsOf } from '../failing-tests.js';
import { prStatusSchema, type PrStatus } from '../pr-view.js';
import type { PrArguments, ToolContext } from '../tool.js';
import { VERDICTS, verdictOf } from '../verdict.js';
import { lookAtPr } from './pr-status.js';
import { queueStatus } from './queue-status.js';

export const EXPLAIN_FAILURE_DESCRIPTION =
  'Why a pull request failed in the merge queue: its failing run (bisection or not, what it tested and was built on), the failing checks with links, which failing tests are known flaky or quarantined, and a verdict (likely this PR, a flake, a PR ahead, infrastructure) with the evidence. Give failedTests (names from the check’s log) to check those. Read-only.';

const MAX_BUILT_ON_LOOKS = 3;

export const explainFailureArguments = {
  failedTests: z
    .array(z.string().max(500))
    .max(100)
    .optional()
    .describe('Names of failing tests read from the check’s log, to check against the flaky-tests data.'),
  orgUrlSlug: z.string().max(100).optional().describe('Default: the server’s --org-url-slug.'),
};

export const explainFailureShape = {
  pullRequest: prStatusSchema,
  testRun: failedRunSchema.nullable(),
  bisection: bisectionSchema,
  builtOn: z.array(z.object({ prNumber: z.number().int(), state: z.string() })),
  failingTests: z.array(failingTestSchema),
  failingTestsSource: z.enum(FAILING_TEST_SOURCES),
  failingTestsNote: z.string().nullable(),
  verdict: z.enum(VERDICTS),
  evidence: z.array(z.string()),
};
type Explanation = z.infer<z.ZodObject<typeof explainFailureShape>>;

export interface ExplainArguments extends PrArguments {
  failedTests?: string[];
  orgUrlSlug?: string;
}

export async function explainFailure(tools: ToolContext, args: ExplainArguments): Promise<Explanation> {
  const { status, report } = await lookAtPr(tools, args);
  const failed = status.state === 'FAILED' || status.state === 'PENDING_FAILURE';
  const testRunId = typeof report.entry?.verifiedByTestRun === 'string' ? report.entry.verifiedByTestRun : '';
  const run = failed && testRunId ? await readFailedRun(tools, testRunId, status.targetBranch) : undefined;
  const batching = run ? ((await queueStatus(tools, status.targetBranch)).settings?.batch ?? null) : null;
  const bisection = run
    ? bisectionOf(run, batching)
    : { isBisectionRun: null, evidence: 'No failed run to look at.' };
  const builtOn = run ? await statesOf(tools, run, status) : [];
  const slug = args.orgUrlSlug || tools.options.inputs['org-url-slug'] || undefined;
  const tests = failed
    ? await failingTestsOf(tools, slug, run, args.failedTests)
    : { source: 'not_consulted' as const, tests: [], note: 'The PR has no failed run.' };
  const { verdict, evidence } = verdictOf({
    prNumber: status.prNumber,
    state: status.state ?? '',
    serviceReason: String(report.entry?.stateReason ?? '').toUpperCase(),
    checkConclusions: (run?.failingChecks ?? status.failingChecks).map((check) => check.conclusion),
    runStatus: run?.status?.toLowerCase() ?? undefined,
    testedPrNumbers: run?.testedPrNumbers ?? [],
    builtOn,
    isBisection: bisection.isBisectionRun,
    failingTests: tests.tests,
  });
  return {
    pullRequest: status,
    testRun: run ?? null,
    bisection,
    builtOn,
    failingTests: tests.tests,
    failingTestsSource: tests.source,
    failingTestsNote: tests.note,
    verdict,
    evidence,
  };
}

/** The PRs the run was built on, as they stand now (the first few: enough to blame one). */
async function statesOf(tools: ToolContext, run: FailedRun, status: PrStatus) {
  const states: { prNumber: number; state: string }[] = [];
  for (const prNumber of run.builtOnPrNumbers
    .filter((n) => n !== status.prNumber)
    .slice(0, MAX_BUILT_ON_LOOKS)) {
    const look = await lookAtPr(tools, { prNumber, targetBranch: status.targetBranch });
    states.push({ prNumber, state: look.status.state ?? 'NOT_IN_THE_QUEUE' });
  }
  return states;
}

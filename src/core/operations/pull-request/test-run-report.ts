// A test run as the failure summaries read it, whichever API answered: v1's testing details
// (failing-checks.ts) or v2's verification run (v2/run-report.ts).

export interface FailingCheck {
  name: string;
  conclusion: string;
  url: string;
  /** Known over v2 only: whether the run required it. */
  required?: boolean;
}

export interface TestRunReport {
  testRunId: string;
  testBranch?: string;
  status?: string;
  createdAtMs?: number;
  failing: FailingCheck[];
  testedPrNumbers: number[];
  impactedTargetsForTestedPrs?: string[];
}

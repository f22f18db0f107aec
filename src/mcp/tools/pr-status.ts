// pr_status: one look at a PR through the core's get-submitted-pull-request (the PR, its place in line,
// the failing checks of its last run when it left the queue), told as one of four situations.
import { detailsOf, type PrReport, type ResolvedContext } from '../../core/index.js';
import { prStatusOf, type PrStatus } from '../pr-view.js';
import { prInputs, requireSuccess, ToolFailure, type PrArguments, type ToolContext } from '../tool.js';

export interface PrLook {
  status: PrStatus;
  report: PrReport;
  context: ResolvedContext;
}

export const PR_STATUS_DESCRIPTION =
  'Where a pull request is in the merge queue and why: never queued, in the queue (state, place in line, what it waits for), left the queue (why, the failing checks with links) or merged; what holds it back, in words; and the next step. Read-only.';

export async function lookAtPr(tools: ToolContext, args: PrArguments): Promise<PrLook> {
  const { result, context } = await tools.runner.run('get-submitted-pull-request', prInputs(args));
  requireSuccess(result);
  const details = detailsOf(result);
  if (details?.kind !== 'pull-request' || !context) {
    throw new ToolFailure('get-submitted-pull-request gave no report of the PR.');
  }
  return { report: details.report, context, status: statusOf(tools, details.report, context) };
}

export function statusOf(tools: ToolContext, report: PrReport, context: ResolvedContext): PrStatus {
  return prStatusOf(report, {
    repo: context.repo,
    targetBranch: context.targetBranch ?? '',
    prNumber: context.prNumber ?? 0,
    canSubmit: tools.options.grants.has('submit'),
    redact: tools.runner.redact,
  });
}

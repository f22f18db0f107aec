// The writes, each offered only when the server's command line grants it: submit_pr (a PR already in the
// queue is reported, never queued twice), cancel_pr (confirm repeats the PR number) and restart_tests (once
// per head sha per server process). Each looks first, writes through the core's operation, and answers
// the PR as it stands after.
import { z } from 'zod';
import { detailsOf } from '../../core/index.js';
import { prStatusSchema, type PrStatus } from '../pr-view.js';
import { prInputs, requireSuccess, ToolFailure, type PrArguments, type ToolContext } from '../tool.js';
import { lookAtPr, statusOf } from './pr-status.js';

export const WRITE_ACTIONS = [
  'submitted',
  'already_queued',
  'cancelled',
  'not_in_queue',
  'restarted',
  'already_restarted',
] as const;
type WriteAction = (typeof WRITE_ACTIONS)[number];

export const writeShape = {
  action: z.enum(WRITE_ACTIONS).describe('What the tool did; already_* and not_in_queue wrote nothing.'),
  pullRequest: prStatusSchema,
};
type WriteResult = { action: WriteAction; pullRequest: PrStatus };

export const SUBMIT_DESCRIPTION =
  'Submits the pull request to the merge queue. A PR already in the queue is reported (action already_queued) and never queued twice. Priority urgent and skipping the line are not offered.';
export const CANCEL_DESCRIPTION =
  'Takes the pull request out of the merge queue; it loses its place in line. confirm must repeat the PR number.';
export const RESTART_DESCRIPTION =
  'Restarts the tests of a queued pull request, keeping its place; at most once per head sha for the life of this server (a second call for the same sha answers already_restarted).';

export const submitArguments = {
  priority: z.enum(['high', 'medium', 'low']).optional().describe('Default: the service’s (medium).'),
  noBatch: z.boolean().optional().describe('Test it alone, never in a batch.'),
};

export async function submitPr(
  tools: ToolContext,
  args: PrArguments & { priority?: string; noBatch?: boolean },
): Promise<WriteResult> {
  const before = await lookAtPr(tools, args);
  if (before.status.situation === 'in_queue')
    return { action: 'already_queued', pullRequest: { ...before.status, alreadyQueued: true } };
  const inputs = {
    ...prInputs(args),
    ...(args.priority ? { priority: args.priority } : {}),
    ...(args.noBatch ? { 'no-batch': 'true' } : {}),
  };
  const { result, context } = await tools.runner.run('submit-pull-request', inputs);
  requireSuccess(result);
  const details = detailsOf(result);
  if (details?.kind !== 'pull-request' || !context)
    throw new ToolFailure('submit-pull-request gave no report of the PR.');
  const alreadyQueued = details.alreadyQueued === true;
  return {
    action: alreadyQueued ? 'already_queued' : 'submitted',
    pullRequest: { ...statusOf(tools, details.report, context), alreadyQueued },
  };
}

export async function cancelPr(
  tools: ToolContext,
  args: PrArguments & { confirm: number },
): Promise<WriteResult> {
  if (args.confirm !== args.prNumber) {
    throw new ToolFailure(
      'confirm does not repeat prNumber, so nothing was cancelled. Give confirm equal to prNumber.',
    );
  }
  const before = await lookAtPr(tools, args);
  if (before.status.situation !== 'in_queue') return { action: 'not_in_queue', pullRequest: before.status };
  requireSuccess((await tools.runner.run('cancel-pull-request', prInputs(args))).result);
  return { action: 'cancelled', pullRequest: (await lookAtPr(tools, args)).status };
}

export async function restartTests(tools: ToolContext, args: PrArguments): Promise<WriteResult> {
  const before = await lookAtPr(tools, args);
  if (before.status.situation !== 'in_queue') return { action: 'not_in_queue', pullRequest: before.status };
  const key = `${before.status.repo}#${before.status.prNumber}@${before.status.headSha ?? ''}`;
  if (tools.restarted.has(key)) return { action: 'already_restarted', pullRequest: before.status };
  // Counted before the request, so that two calls at once cannot both restart; a refused one may retry.
  tools.restarted.add(key);
  try {
    requireSuccess((await tools.runner.run('restart-tests-on-pull-request', prInputs(args))).result);
  } catch (error) {
    tools.restarted.delete(key);
    throw error;
  }
  return { action: 'restarted', pullRequest: (await lookAtPr(tools, args)).status };
}

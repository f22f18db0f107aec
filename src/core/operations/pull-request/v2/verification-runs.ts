// list-verification-runs and get-verification-run (v2 only): the CI runs the queue started, for the PR or
// the whole queue, and one run in detail with its normalized checks, the required ones first.
import type { V2 } from '../../../../wire/v2/index.js';
import { realClock } from '../../../clock.js';
import { InputError } from '../../../errors.js';
import { codeSpan } from '../../../report/markdown.js';
import { rawResponse, requirePrNumber } from '../../common.js';
import type { Operation, OperationContext } from '../../types.js';
import { pullRequestIdOf, queueIdOf, requireV2, type V2Access } from './access.js';
import type { RunStatus, VerificationRunSettings } from './inputs.js';
import { runRows, runSummary, runsHeading, runsSummary } from './run-summaries.js';
import { runChecks } from './checks.js';
import { stateOutputOf } from './words.js';

const MAX_RUNS = 100;

const STATUS: Record<RunStatus, V2<'VerificationRunStatus'>> = {
  'in-progress': 'inProgress',
  failed: 'failed',
  cancelled: 'cancelled',
  succeeded: 'succeeded',
};

export const listVerificationRuns: Operation<VerificationRunSettings> = async (op) => {
  const access = requireV2(op);
  const { runsOf, runStatus } = op.settings;
  const ofQueue = runsOf === 'queue' || (runsOf === undefined && op.context.prNumber === undefined);
  const status = runStatus ? STATUS[runStatus] : undefined;
  const query = { limit: MAX_RUNS, ...(status ? { status } : {}) };
  const { data, response } = ofQueue
    ? await access.v2.call('mergeQueues.listVerificationRuns', {
        path: { id: await queueIdOf(op, access) },
        query,
      })
    : await access.v2.call('pullRequests.listVerificationRuns', {
        path: { id: await pullRequestIdOf(op, access) },
        query,
      });
  const runs = data.data;
  const branch = op.context.targetBranch ?? '';
  const pr = ofQueue ? '' : `PR #${requirePrNumber(op.context)}`;
  const now = response.serverTimeMs ?? (op.clock ?? realClock).now();
  const heading = (whose: string) => runsHeading(runs, whose, status, now, data.hasMore);
  const rows = runRows(runs, now);
  return {
    outputs: {
      response: rawResponse(response),
      count: runs.length,
      'has-more': data.hasMore,
      'run-ids': runs.map((run) => run.id).join(','),
      'latest-run-id': runs[0]?.id ?? '',
      'latest-status': stateOutputOf(runs[0]?.status),
    },
    summary: runsSummary(rows, heading(pr || `the queue for ${codeSpan(branch)}`)),
    details: {
      kind: 'verification-runs',
      heading: heading(pr || `the queue for ${branch}`),
      runs: rows,
      hasMore: data.hasMore,
    },
  };
};

export const getVerificationRun: Operation<VerificationRunSettings> = async (op) => {
  const access = requireV2(op);
  const id = op.settings.runId ?? op.context.testRunId ?? (await lastRunOf(op, access));
  const { data: run, response } = await access.v2.call('mergeQueueVerificationRuns.get', { path: { id } });
  const checks = runChecks(run);
  const failing = checks.filter((check) => check.failed);
  const now = response.serverTimeMs ?? (op.clock ?? realClock).now();
  return {
    outputs: {
      response: rawResponse(response),
      'verification-run-id': run.id,
      status: stateOutputOf(run.status),
      'test-branch': run.testBranch,
      'tested-pr-numbers': run.testedPullRequests.map((pr) => pr.number).join(','),
      'failing-checks': JSON.stringify(
        failing.map(({ name, result, url, required }) => ({ name, conclusion: result, url, required })),
      ),
      'required-statuses': run.requiredStatuses.join(','),
    },
    summary: runSummary(run, checks, now),
  };
};

/** The PR's last verification run, when no run id was given and this is not a test-branch run. */
async function lastRunOf(op: OperationContext<VerificationRunSettings>, access: V2Access): Promise<string> {
  if (op.context.prNumber === undefined) throw noRunId(op);
  const id = await pullRequestIdOf(op, access);
  const { data } = await access.v2.call('pullRequests.get', { path: { id } });
  const last = data.queueEntry?.verifiedByVerificationRunId;
  if (last) return last;
  const { data: runs } = await access.v2.call('pullRequests.listVerificationRuns', {
    path: { id },
    query: { limit: 1 },
  });
  if (runs.data[0]) return runs.data[0].id;
  throw noRunId(op, ` and PR #${op.context.prNumber} has no verification run yet`);
}

function noRunId(op: OperationContext<unknown>, more = ''): InputError {
  return new InputError(
    'test-run-id',
    `is empty, event ${op.context.trigger} is not a push to a trunk-merge/pr-<N>/<id> branch${more}`,
    'Set test-run-id to the verification run id (list them with operation list-verification-runs).',
  );
}

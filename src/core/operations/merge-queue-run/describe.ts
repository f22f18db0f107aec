// On a merge-queue test run (a trunk-merge/pr-<N>/<id> branch, or a merge_group event): which PRs it
// tests and the targets they impact, so that later jobs can skip work that no tested PR touches; and,
// with exit-if-dequeued, an early end when none of those PRs is still in the queue.
import { TERMINAL_PR_STATES, enumValue, type PrState } from '../../../wire/index.js';
import type { ServiceClient } from '../../api/client.js';
import { isMergeQueueRun, type ResolvedContext } from '../../context.js';
import { Markdown, escapeMarkdown, link } from '../../report/markdown.js';
import { pullRequestUrl, queueRef, stateOutput } from '../common.js';
import { testRunReport } from '../pull-request/failing-checks.js';
import { lookUp, runTitle } from '../pull-request/lookup.js';
import type { Operation, OperationContext, OutputValue } from '../types.js';
import type { MergeQueueRunSettings } from './inputs.js';

export interface MergeQueueRun {
  isRun: boolean;
  testRunId?: string;
  testBranch?: string;
  status?: string;
  testedPrNumbers: number[];
  /** The targets the tested PRs impact; ['ALL'] when any impacts everything; undefined when not known. */
  impactedTargets?: string[];
  /** getMergeQueueTestingDetails's answer as sent. */
  responseText?: string;
}

/** What the service says about the run; only the branch's facts when there is no test run id to ask about. */
export async function readMergeQueueRun(
  shared: { client: ServiceClient; context: ResolvedContext },
  testRunId = shared.context.testRunId,
): Promise<MergeQueueRun> {
  const { context } = shared;
  const isRun = isMergeQueueRun(context) || testRunId !== undefined;
  const fromBranch = context.prNumber !== undefined ? [context.prNumber] : [];
  if (!isRun) return { isRun, testedPrNumbers: [] };
  if (!testRunId) return { isRun, testedPrNumbers: fromBranch };
  const response = await shared.client.call('getMergeQueueTestingDetails', {
    ...queueRef(context),
    testRunId,
  });
  const report = testRunReport(testRunId, response.answer);
  return {
    isRun,
    testRunId,
    testBranch: report.testBranch,
    status: report.status,
    testedPrNumbers: report.testedPrNumbers.length ? report.testedPrNumbers : fromBranch,
    impactedTargets: report.impactedTargetsForTestedPrs,
    responseText: response.text,
  };
}

export function mergeQueueRunOutputs(run: MergeQueueRun): Record<string, OutputValue> {
  return {
    'is-merge-queue-run': run.isRun,
    'tested-pr-numbers': run.testedPrNumbers.join(','),
    'impacted-targets-for-tested-prs': run.impactedTargets ? JSON.stringify(run.impactedTargets) : '',
  };
}

const MAX_PRS_LOOKED_UP = 20;

export const describeMergeQueueRun: Operation<MergeQueueRunSettings> = async (op) => {
  const run = await readMergeQueueRun(op, op.settings.testRunId ?? op.context.testRunId);
  const outputs: Record<string, OutputValue> = {
    response: run.responseText ?? '',
    ...mergeQueueRunOutputs(run),
    'test-run-id': run.testRunId ?? '',
  };
  if (!run.isRun) {
    op.log.info(`This run (${op.context.trigger}) is not a merge-queue test run.`);
    return {
      outputs: { ...outputs, dequeued: false },
      summary: new Markdown()
        .heading('➖ Not a merge-queue test run')
        .paragraph(
          `This run (${escapeMarkdown(op.context.trigger)}) is not on a trunk-merge/pr-&lt;N&gt;/&lt;id&gt; branch nor a merge\\_group event; is-merge-queue-run is false.`,
        ),
    };
  }
  const states = await statesOf(op, run.testedPrNumbers);
  const stillQueued = [...states]
    .filter(([, state]) => state !== 'not_in_queue' && !TERMINAL_PR_STATES.includes(state as PrState))
    .map(([n]) => n);
  const dequeued = states.size > 0 && stillQueued.length === 0;
  outputs.dequeued = dequeued;
  outputs['prs-still-queued'] = stillQueued.join(',');
  const prs = run.testedPrNumbers.map((n) => `#${n}`).join(', ') || 'none named';
  const targets = describeTargets(run.impactedTargets);
  op.log.info(
    `Merge-queue test run ${run.testRunId ?? '(no id)'}: tests ${prs}; impacted targets: ${targets}.`,
  );

  const title = runTitle({ ...run, prNumbers: run.testedPrNumbers });
  const summary = new Markdown().headingMarkdown(
    `${dequeued ? '🛑 Obsolete merge-queue test run' : '🧪 Merge-queue test run'}${run.testBranch ? ': ' : ' '}${title}`,
  );
  summary.paragraph(
    dequeued
      ? 'None of the PRs it tests is still in the queue: its result no longer matters.'
      : `It tests ${escapeMarkdown(prs)}; later jobs can skip work that none of them touches.`,
  );
  summary.table(
    ['Tested PR', 'State now'],
    run.testedPrNumbers.map((n) => [
      link(`#${n}`, pullRequestUrl(op.context.repo, n)),
      escapeMarkdown(stateOutput(states.get(n)) || 'not looked up'),
    ]),
  );
  summary.paragraph(`**Impacted targets of the tested PRs:** ${escapeMarkdown(targets)}`);
  if (dequeued && op.settings.exitIfDequeued) {
    return {
      outputs,
      summary,
      failure: `None of the PRs this merge-queue run tests (${prs}) is still in the queue, so its result no longer matters; ending the job here (exit-if-dequeued).`,
    };
  }
  return { outputs, summary };
};

async function statesOf(op: OperationContext<unknown>, prNumbers: number[]): Promise<Map<number, string>> {
  const states = new Map<number, string>();
  for (const prNumber of prNumbers.slice(0, MAX_PRS_LOOKED_UP)) {
    const { entry } = await lookUp(op, prNumber);
    states.set(prNumber, enumValue(entry?.state) || 'not_in_queue');
  }
  return states;
}

function describeTargets(targets: string[] | undefined): string {
  if (!targets) return 'not known';
  if (targets.includes('ALL')) return 'ALL (every target)';
  if (!targets.length) return 'none';
  const shown = targets.slice(0, 20).join(', ');
  return targets.length > 20 ? `${shown} and ${targets.length - 20} more` : shown;
}

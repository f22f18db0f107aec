// An estimate of the time left in the queue, from the queue's own last-hour figures (the metrics'
// wait-before-testing and test-duration histograms, their medians). Always said to be an estimate.
import { queueRef, repoSlug } from '../common.js';
import type { OperationContext } from '../types.js';

export interface QueuePace {
  /** Median wait before testing, last hour. */
  waitP50Ms?: number;
  /** Median test duration, last hour. */
  testP50Ms?: number;
}

/** The queue's pace; undefined when the metrics cannot be read (the estimate is left out, not guessed). */
export async function readQueuePace(op: OperationContext<unknown>): Promise<QueuePace | undefined> {
  try {
    // The metrics' parser is loaded by a run that waits, not by every run of this area.
    const { figuresByQueue, parseMetricsText, quantile, total } =
      await import('../metrics/prometheus-text.js');
    const { repo, targetBranch } = queueRef(op.context);
    const response = await op.client.call('getMergeQueueMetrics', {
      repo: repoSlug(repo),
      repoHost: repo.host,
    });
    const rows = figuresByQueue(await parseMetricsText(response.text), {
      repo: repoSlug(repo),
      branch: targetBranch,
    }).filter((row) => row.queueType !== 'bisection');
    const figures = total(rows);
    const wait = quantile(figures.waitDuration, 0.5);
    const test = quantile(figures.testDuration, 0.5);
    if (!wait && !test) return undefined;
    return {
      waitP50Ms: wait && Number.isFinite(wait.estimateSeconds) ? wait.estimateSeconds * 1000 : undefined,
      testP50Ms: test && Number.isFinite(test.estimateSeconds) ? test.estimateSeconds * 1000 : undefined,
    };
  } catch {
    return undefined;
  }
}

/**
 * Time left for a PR in `state` that has been in it for `inStateMs`: the rest of a median wait (when
 * pending) plus the rest of a median test run; undefined when the figures needed are missing.
 */
export function timeLeftMs(
  pace: QueuePace | undefined,
  state: string,
  inStateMs: number,
): number | undefined {
  if (!pace) return undefined;
  const test = pace.testP50Ms;
  if (state === 'testing') return test === undefined ? undefined : Math.max(0, test - inStateMs);
  if (state === 'pending' || state === 'not_ready') {
    if (test === undefined || pace.waitP50Ms === undefined) return undefined;
    return Math.max(0, pace.waitP50Ms - inStateMs) + test;
  }
  if (state === 'pending_failure' || state === 'tests_passed') return 0;
  return undefined;
}

import { describe, expect, it } from '@jest/globals';
import {
  bucketCounts,
  figuresByQueue,
  parseMetricsText,
  quantile,
  total,
} from '../../src/core/operations/metrics/prometheus-text.js';

// Two repositories, labelled histograms and an escaped label value: the shapes where text parsers slip.
const TEXT = [
  '# HELP mq_depth_current PRs in the queue.',
  '# TYPE mq_depth_current gauge',
  'mq_depth_current{repo="acme/web",branch="main",queue_type="main"} 4',
  'mq_depth_current{repo="acme/web",branch="main",queue_type="bisection"} 2',
  'mq_depth_current{repo="acme/web",branch="release/1.x",queue_type="main"} 1',
  'mq_depth_current{repo="acme/api",branch="we\\"ird\\\\branch",queue_type="main"} 7',
  '# HELP mq_testing_slots_active Test runs in progress.',
  '# TYPE mq_testing_slots_active gauge',
  'mq_testing_slots_active{repo="acme/web",branch="main",queue_type="main"} 2',
  'mq_testing_slots_active{repo="acme/web",branch="main",queue_type="bisection"} 1',
  '# HELP mq_awaiting_mergeability PRs waiting for the host to call them mergeable.',
  '# TYPE mq_awaiting_mergeability gauge',
  'mq_awaiting_mergeability{repo="acme/web",branch="main",queue_type="main"} 1',
  '# HELP mq_pr_conclusions_1h_total PRs concluded in the last hour.',
  '# TYPE mq_pr_conclusions_1h_total gauge',
  'mq_pr_conclusions_1h_total{repo="acme/web",branch="main",queue_type="main",conclusion="merged"} 5',
  'mq_pr_conclusions_1h_total{repo="acme/web",branch="main",queue_type="main",conclusion="failed"} 1',
  'mq_pr_conclusions_1h_total{repo="acme/web",branch="main",queue_type="main",conclusion="cancelled"} 0',
  'mq_pr_conclusions_1h_total{repo="acme/api",branch="we\\"ird\\\\branch",queue_type="main",conclusion="merged"} 9',
  '# HELP mq_pr_time_in_queue_1h_seconds Time from submission to conclusion.',
  '# TYPE mq_pr_time_in_queue_1h_seconds histogram',
  'mq_pr_time_in_queue_1h_seconds_bucket{repo="acme/web",branch="main",queue_type="main",le="60"} 0',
  'mq_pr_time_in_queue_1h_seconds_bucket{repo="acme/web",branch="main",queue_type="main",le="600"} 4',
  'mq_pr_time_in_queue_1h_seconds_bucket{repo="acme/web",branch="main",queue_type="main",le="+Inf"} 6',
  'mq_pr_time_in_queue_1h_seconds_sum{repo="acme/web",branch="main",queue_type="main"} 3600',
  'mq_pr_time_in_queue_1h_seconds_count{repo="acme/web",branch="main",queue_type="main"} 6',
  'mq_pr_time_in_queue_1h_seconds_bucket{repo="acme/api",branch="we\\"ird\\\\branch",queue_type="main",le="60"} 1',
  'mq_pr_time_in_queue_1h_seconds_bucket{repo="acme/api",branch="we\\"ird\\\\branch",queue_type="main",le="600"} 2',
  'mq_pr_time_in_queue_1h_seconds_bucket{repo="acme/api",branch="we\\"ird\\\\branch",queue_type="main",le="+Inf"} 2',
  'mq_pr_time_in_queue_1h_seconds_sum{repo="acme/api",branch="we\\"ird\\\\branch",queue_type="main"} 400',
  'mq_pr_time_in_queue_1h_seconds_count{repo="acme/api",branch="we\\"ird\\\\branch",queue_type="main"} 2',
  '',
].join('\n');

describe('metrics text', () => {
  it('keeps each queue apart, labelled histograms included', async () => {
    const rows = figuresByQueue(await parseMetricsText(TEXT));
    expect(rows.map((row) => [row.repo, row.branch, row.queueType])).toEqual([
      ['acme/api', 'we"ird\\branch', 'main'],
      ['acme/web', 'main', 'bisection'],
      ['acme/web', 'main', 'main'],
      ['acme/web', 'release/1.x', 'main'],
    ]);
    const webMain = rows[2]!;
    expect(webMain).toMatchObject({
      depth: 4,
      testing: 2,
      awaitingMergeability: 1,
      conclusions: { merged: 5, failed: 1, cancelled: 0 },
      timeInQueue: { count: 6, sumSeconds: 3600 },
    });
    expect(rows[0]!.timeInQueue).toEqual({
      count: 2,
      sumSeconds: 400,
      buckets: new Map([
        [60, 1],
        [600, 2],
        [Infinity, 2],
      ]),
    });
  });

  it('gives percentiles from the histogram buckets, interpolated inside the bucket', () => {
    const durations = {
      count: 10,
      sumSeconds: 0,
      buckets: new Map([
        [60, 4],
        [300, 8],
        [600, 10],
        [Infinity, 10],
      ]),
    };
    // The 5th of 10 falls in 60..300, the first of its 4: 60 + 240 * 1/4.
    expect(quantile(durations, 0.5)).toEqual({ lowSeconds: 60, highSeconds: 300, estimateSeconds: 120 });
    expect(quantile(durations, 0.9)).toEqual({ lowSeconds: 300, highSeconds: 600, estimateSeconds: 450 });
    expect(quantile({ count: 0, sumSeconds: 0, buckets: new Map() }, 0.5)).toBeUndefined();
    expect(bucketCounts(durations).map((b) => b.count)).toEqual([4, 4, 2, 0]);
  });

  it('adds up one repository across its branches and lanes, or one branch of it', async () => {
    const metrics = await parseMetricsText(TEXT);
    const web = total(figuresByQueue(metrics, { repo: 'acme/web' }));
    // PRs being bisected are in their main queue's depth already; their test runs are extra.
    expect(web).toMatchObject({ depth: 5, testing: 3, conclusions: { merged: 5, failed: 1, cancelled: 0 } });
    const release = total(figuresByQueue(metrics, { repo: 'acme/web', branch: 'release/1.x' }));
    expect(release).toMatchObject({ depth: 1, testing: 0, conclusions: { merged: 0 } });
    expect(figuresByQueue(metrics, { repo: 'acme/none' })).toEqual([]);
  });

  it('refuses text that is not Prometheus text, with the line it stopped at', async () => {
    await expect(parseMetricsText('<html><body>Sign in</body></html>')).rejects.toThrow(/Sign in/);
  });
});

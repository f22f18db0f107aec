// The vendor's own worked examples, replayed: answers that follow from the queue's documented rules alone.
// Batching: 20 PRs of 30-minute CI in batches of four cost 5 runs (150 CI minutes) instead of 20 (600).
// Bisection: a batch of four whose last PR broke it is split in halves tested at once, the second on top
// of the first; the three others merge (what passed bisection goes back to the main queue to be tested
// again before it merges), the culprit fails, and skip-redundant bisection reuses the failures the split
// would only repeat.
import { describe, expect, it } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { replay } from '../../src/queue-model/replay.js';
import { SeededRandom } from '../../src/queue-model/random.js';
import { SampledCi } from '../../src/queue-model/sampled-ci.js';
import type { QueueSettingsState } from '../../src/queue-model/types.js';
import { runCli } from '../helpers/cli-runner.js';

const CWD = mkdtempSync(join(tmpdir(), 'plan-worked-'));
const CI_MS = 30 * 60_000;

describe('worked examples', () => {
  it('batches of four: 20 PRs of 30-minute CI take 5 runs and 150 CI minutes instead of 20 and 600', async () => {
    const run = await runCli(
      [
        'plan-queue-settings',
        ...['--prs', '20', '--arrivals', 'burst', '--ci-duration', '30m'],
        ...['--vary', 'allowBatching=true', '--vary', 'batchingMinSize=4', '--grid', 'full', '--json'],
      ],
      { env: { TMPDIR: CWD }, cwd: CWD },
    );
    const report = JSON.parse(run.stdout).response;
    const one = report.candidates.find(
      (c: { settings: { allowBatching: boolean } }) => !c.settings.allowBatching,
    );
    const four = report.candidates.find(
      (c: { settings: { allowBatching: boolean; batchingMinSize: number } }) =>
        c.settings.allowBatching && c.settings.batchingMinSize === 4,
    );
    expect(one.metrics).toMatchObject({ merged: 20, ciRuns: 20, ciMinutes: 600, ciMinutesPerMerge: 30 });
    expect(four.metrics).toMatchObject({ merged: 20, ciRuns: 5, ciMinutes: 150, ciMinutesPerMerge: 7.5 });
    expect(report.recommendation.patch).toEqual({ allowBatching: true });
  });

  const batchOfFourWithCulpritLast = (settings: Partial<QueueSettingsState>) =>
    replay({
      settings: { batch: true, batchingMinSize: 4, concurrency: 2, ...settings },
      arrivals: [1, 2, 3, 4].map((prNumber) => ({ at: 0, prNumber })),
      ci: (clock) =>
        new SampledCi({
          random: new SeededRandom(1),
          duration: { kind: 'fixed', ms: CI_MS },
          flakeRate: 0,
          isCulprit: (pr) => pr === 4,
          now: () => clock.now(),
        }),
      seed: 1,
      isCulprit: (pr) => pr === 4,
    }).metrics;

  it('bisects a failed batch of four: three merge, the culprit fails, four isolation runs', () => {
    // The batch; [1,2], and [3,4] on top of it; [3] and [4] on top of what passed; [1,2] and [3] again
    // in the main queue.
    expect(batchOfFourWithCulpritLast({ optimizationMode: 'off' })).toMatchObject({
      merged: 3,
      failed: 1,
      innocentEvictions: 0,
      ciRuns: 7,
      isolationRunsPerFailedBatch: 4,
    });
  });

  it('with skip-redundant bisection, never re-runs the PRs that already failed together', () => {
    // [3,4] on top of [1,2], and [4] on top of [1,2,3], are the failed batch again: reused, not run;
    // the batch, [1,2], [3], and [1,2] and [3] again in the main queue.
    expect(batchOfFourWithCulpritLast({ optimizationMode: 'bisection_skip_redundant_tests' })).toMatchObject({
      merged: 3,
      failed: 1,
      ciRuns: 5,
      isolationRunsPerFailedBatch: 2,
    });
  });
});

// `--runner-cap N`: CI runs at most N runs at once, so a run that finds every runner busy waits for one
// and time in queue grows with load. Waiting is not CI time: CI minutes count only what executed. And a
// run the queue cancels gives its runner back at once, as CI does, for the runs started after it.
import { describe, expect, it } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { replay } from '../../src/queue-model/replay.js';
import { SeededRandom } from '../../src/queue-model/random.js';
import { SampledCi } from '../../src/queue-model/sampled-ci.js';
import { runCli } from '../helpers/cli-runner.js';

const CWD = mkdtempSync(join(tmpdir(), 'plan-runners-'));
const CI_MS = 30 * 60_000;

interface Candidate {
  settings: { concurrency: number };
  metrics: { merged: number; p50Minutes: number; p90Minutes: number; ciMinutesPerMerge: number };
}

async function candidates(extra: string[]): Promise<Candidate[]> {
  const run = await runCli(
    [
      'plan-queue-settings',
      ...['--prs', '8', '--arrivals', 'burst', '--ci-duration', '30m', '--vary', 'concurrency=4'],
      ...extra,
      '--json',
    ],
    { env: { TMPDIR: CWD }, cwd: CWD },
  );
  expect(run.exitCode).toBe(0);
  return (JSON.parse(run.stdout) as { response: { candidates: Candidate[] } }).response.candidates;
}

describe('plan-queue-settings --runner-cap', () => {
  it('8 PRs at once, concurrency 4 on 2 runners: merges two every 30 minutes, 30 CI minutes each', async () => {
    const free = (await candidates([])).find((c) => c.settings.concurrency === 4)!;
    const capped = (await candidates(['--runner-cap', '2'])).find((c) => c.settings.concurrency === 4)!;
    // Four runners' worth of runs: four merge at 30 minutes, four at 60.
    expect(free.metrics).toMatchObject({ merged: 8, p50Minutes: 30, p90Minutes: 60, ciMinutesPerMerge: 30 });
    // Two runners: merges at 30, 30, 60, 60, ..., 120; each run still executes 30 minutes.
    expect(capped.metrics).toMatchObject({
      merged: 8,
      p50Minutes: 60,
      p90Minutes: 120,
      ciMinutesPerMerge: 30,
    });
  });

  it('a run cancelled while it waits for a runner frees it for the runs that replace it', () => {
    // PRs 1-4 at once, PR 1 broken, concurrency 4 on 2 runners. [1] and [2 on 1] run 0-30, [3 on 1,2] and
    // [4 on 1,2,3] wait for 30-60. At 30 PR 1 fails: the three are tested again without it, two at
    // once from 30 (the cancelled runs' runners are free) and the third from 60: merges at 60, 60, 90.
    const metrics = replay({
      settings: { concurrency: 4 },
      arrivals: [1, 2, 3, 4].map((prNumber) => ({ at: 0, prNumber })),
      ci: (clock) =>
        new SampledCi({
          random: new SeededRandom(1),
          duration: { kind: 'fixed', ms: CI_MS },
          flakeRate: 0,
          isCulprit: (pr) => pr === 1,
          runners: 2,
          now: () => clock.now(),
        }),
      seed: 1,
      isCulprit: (pr) => pr === 1,
    }).metrics;
    expect(metrics).toMatchObject({ merged: 3, failed: 1, p50Minutes: 60, p90Minutes: 90 });
  });
});

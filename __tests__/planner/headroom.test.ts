// Headroom: each candidate replays once more with arrivals 1.5x and 2x as fast. A queue offered 12 PRs an
// hour of 30-minute CI (synthetic, evenly spaced, no failures) can merge concurrency x 2 PRs an hour:
// concurrency 7 keeps up (14/h) but not at 18/h or 24/h, 10 (20/h) at 18/h but not at 24/h, 13 (26/h)
// at both.
import { describe, expect, it } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli-runner.js';

const CWD = mkdtempSync(join(tmpdir(), 'plan-headroom-'));

interface Candidate {
  settings: { concurrency: number };
  stable: boolean;
  headroom: { 'x1.5': boolean; x2: boolean };
}

describe('plan-queue-settings headroom runs', () => {
  it('12 PRs an hour of 30-minute CI: headroom as concurrency x 2 PRs an hour allows', async () => {
    const run = await runCli(
      [
        'plan-queue-settings',
        ...['--prs', '600', '--arrivals', 'every:5m', '--ci-duration', '30m', '--seeds', '1'],
        ...['--vary', 'concurrency=7,10,13', '--json'],
      ],
      { env: { TMPDIR: CWD }, cwd: CWD },
    );
    expect(run.exitCode).toBe(0);
    const candidates = (JSON.parse(run.stdout) as { response: { candidates: Candidate[] } }).response
      .candidates;
    const at = (concurrency: number) => {
      const c = candidates.find((candidate) => candidate.settings.concurrency === concurrency)!;
      return { stable: c.stable, ...c.headroom };
    };
    expect(at(7)).toEqual({ stable: true, 'x1.5': false, x2: false });
    expect(at(10)).toEqual({ stable: true, 'x1.5': true, x2: false });
    expect(at(13)).toEqual({ stable: true, 'x1.5': true, x2: true });
  });
});

// A queue whose broken PRs fail fast: every 20th PR fails its CI in 2 minutes, the others take 40. The
// fit draws failed runs' durations from the failed runs and passed runs' from the passed ones (what
// issue 44 calls empirical CI durations, passed and failed): drawn from all runs alone, a failing run
// would last as long as a passing one, hold its slot 38 minutes too long, and the backtest would put the
// p90 time in queue a fifth too high.
import { beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Scenario } from '../../emulator/scenario.js';
import { plannedPullRequests, plannerAction } from '../helpers/planner-history.js';
import { useEmulator } from '../helpers/emulator.js';

const START = Date.UTC(2026, 5, 1);
const REPO = 'acme/fail-fast';
const PRS = 330;
const GAP_MINUTES = 12;
const END_MINUTES = PRS * GAP_MINUTES + 900;
const iso = (minutes: number) => new Date(START + minutes * 60_000).toISOString();

function scenario(): Scenario {
  const pullRequests = plannedPullRequests(REPO, PRS, (i) => i * GAP_MINUTES).map((pr) => ({
    ...pr,
    ci: { ...pr.ci!, durationMinutes: pr.ci!.outcome === 'fail' ? 2 : 40 },
  }));
  return { queues: [{ repo: REPO, targetBranch: 'main', concurrency: 4 }], pullRequests };
}

const emulator = useEmulator({ startTime: START, scenario: scenario() });
const history = join(mkdtempSync(join(tmpdir(), 'plan-fail-fast-')), 'queue-history.jsonl');

const act = plannerAction(emulator, REPO);

beforeAll(async () => {
  await emulator.control('POST', '/clock/advance', { minutes: END_MINUTES });
  const exported = await act({
    operation: 'export-queue-history',
    history,
    since: iso(-60),
    until: iso(END_MINUTES),
  });
  if (exported.error) throw new Error(`export: ${exported.error}`);
});

describe('a backtest of a queue whose failures are fast', () => {
  it('replays failed runs as short as they were: p90 and CI minutes within a tenth of what happened', async () => {
    const plan = await act({ operation: 'plan-queue-settings', history, vary: 'concurrency=5' });
    expect(plan.error).toBe('');
    const { fit, backtest } = JSON.parse(plan.outputs.response!);
    expect(fit).toBe(true);
    const { recorded, replayed } = backtest;
    expect(replayed.merged).toBe(recorded.merged);
    expect(Math.abs(replayed.p90Minutes - recorded.p90Minutes)).toBeLessThanOrEqual(
      0.1 * recorded.p90Minutes,
    );
    expect(Math.abs(replayed.ciMinutesPerMerge - recorded.ciMinutesPerMerge)).toBeLessThanOrEqual(
      0.1 * recorded.ciMinutesPerMerge,
    );
  });
});

// The same PR on the same queue gives the same times over v1 and v2: a wait's summary times the PR by
// the service's own timestamps (when it entered each state), never by when this run happened to look.
// The emulator's clock runs 600x real time, so a 20-minute CI run takes two seconds; nothing here
// depends on how long the run took.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { useEmulator } from '../helpers/emulator.js';
import { overVersion, VERSIONS, type Version } from '../helpers/over-versions.js';
import { startCheckingProxy, type CheckingProxy } from '../helpers/v2-requests.js';
import { formatDuration } from '../../src/core/report/duration.js';

const emulator = useEmulator({ timeScale: 600 });
let proxy: CheckingProxy;

beforeAll(async () => {
  proxy = await startCheckingProxy(emulator.current.origin);
});

afterAll(async () => {
  await proxy.close();
});

/** PR 17 submitted and waited on until merged, after a 20-minute CI run; the summary and the service's history. */
async function mergedAfterTwentyMinutes(version: Version) {
  const { queue, act } = overVersion(emulator, () => proxy, version, `octo-org/wait-times-${version}`, {
    'pr-number': '17',
    'wait-timeout-minutes': '5',
  });
  await queue.create();
  await queue.ci(17, { outcome: 'pass', durationMinutes: 20 });
  const run = await act({ operation: 'submit-pull-request', 'wait-for': 'merged' });
  expect(run.failed).toBe(false);
  const steps = (await queue.history()).filter((e) => e.kind === 'pr_state' && e.prNumber === 17);
  const testing = Date.parse(steps.find((e) => e.to === 'testing')!.at);
  const merged = Date.parse(steps.find((e) => e.to === 'merged')!.at);
  return { summary: run.summary, testing, merged };
}

describe('times in a wait summary', () => {
  it('are the service timestamps, the same over v1 and v2', async () => {
    const said: Record<string, string> = {};
    for (const version of VERSIONS) {
      const { summary, testing, merged } = await mergedAfterTwentyMinutes(version);
      // The service's own history: tested for the whole CI run.
      expect(merged - testing).toBeGreaterThanOrEqual(20 * 60_000);
      const inQueue = formatDuration(merged - testing);
      expect(summary).toMatch(new RegExp(`^## ✅ Merged after ${inQueue}: `));
      expect(summary).toContain('\n\nTested once.\n');
      expect(summary).not.toContain('in the queue:'); // the time is said once, in the heading
      // The chart's bar runs from when the service says testing began to when it says the PR merged.
      expect(summary).toMatch(new RegExp(`Testing[^\\n]*, ${testing}, ${merged}\\n`));
      said[version] = summary.split('\n')[0]!.replace(/wait-times-v\d/, '');
    }
    expect(said.v2).toBe(said.v1);
  });
});

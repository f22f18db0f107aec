// The emulator serves the queue model unchanged: the same random scripts (helpers/queue-scripts.ts)
// played through HTTP give the same history as on the engine directly (determinism).
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { startEmulator } from '../../emulator/server.js';
import { BRANCH, command, repo, runScript } from '../helpers/queue-scripts.js';

// One instant for both: each clock left to start at the real time, to the second, could start a second
// apart when the two starts straddle a second.
const START = Date.UTC(2026, 0, 5, 9);

describe('the emulator over the queue model', () => {
  it('give the same history through HTTP as on the engine directly', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { maxLength: 25 }), async (commands) => {
        const direct = runScript(commands, 7, {}, START).engine;
        const emulator = await startEmulator({ seed: 7, startTime: START });
        try {
          const call = async (path: string, body: unknown, prefix = emulator.url) =>
            fetch(`${prefix}${path}`, {
              method: 'POST',
              headers: { 'x-api-token': emulator.token, 'content-type': 'application/json' },
              body: JSON.stringify(body),
            });
          const control = (path: string, body: unknown) => call(path, body, `${emulator.origin}/_emulator`);
          const ref = { repo, targetBranch: BRANCH };
          await call('/createQueue', ref);
          let sha = 1;
          for (const c of commands) {
            if (c.kind === 'submit')
              await call('/submitPullRequest', {
                ...ref,
                pr: { number: c.pr },
                priority: c.priority,
                noBatch: c.noBatch,
              });
            if (c.kind === 'cancel') await call('/cancelPullRequest', { ...ref, pr: { number: c.pr } });
            if (c.kind === 'restart')
              await call('/restartTestsOnPullRequest', { ...ref, pr: { number: c.pr } });
            if (c.kind === 'targets') {
              const head = emulator.engine.core.pullRequest(repo, c.pr).headSha;
              const target = c.fresh || head === undefined ? `sha-${sha++}` : head;
              await call('/setImpactedTargets', {
                ...ref,
                pr: { number: String(c.pr), sha: target },
                impactedTargets: c.targets,
              });
            }
            if (c.kind === 'newSha')
              await control('/pull-requests', { repo, number: c.pr, headSha: `sha-${sha++}` });
            if (c.kind === 'update') await call('/updateQueue', { ...ref, ...c.settings });
            if (c.kind === 'ci')
              await control('/ci', {
                repo,
                prNumber: c.pr,
                outcome: c.outcome,
                durationMinutes: c.durationMinutes,
              });
            if (c.kind === 'advance') await control('/clock/advance', { minutes: c.minutes });
          }
          await call('/updateQueue', { ...ref, state: 'running' });
          await control('/clock/run-until-idle', { maxMinutes: 30 * 24 * 60 });
          const history = await (
            await fetch(`${emulator.origin}/_emulator/history`, {
              headers: { 'x-api-token': emulator.token },
            })
          ).json();
          const expected = direct.history.map((e) => ({ ...e, at: new Date(e.at).toISOString() }));
          expect((history as { events: unknown[] }).events).toEqual(expected);
        } finally {
          await emulator.close();
        }
      }),
      { numRuns: 15 },
    );
  }, 180_000); // fifteen emulators started and played through: a minute on a loaded machine
});

// Property-based tests of the queue model: random scripts of operations (helpers/queue-scripts.ts),
// checked against the queue's invariants after every event.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { queueSettings, runScript, script } from '../helpers/queue-scripts.js';

describe('merge-queue invariants', () => {
  it('hold over random sequences of operations', () => {
    fc.assert(
      fc.property(
        script,
        fc.integer({ min: 1, max: 1000 }),
        queueSettings(true),
        (commands, seed, settings) => {
          const { checker } = runScript(commands, seed, settings);
          expect(checker.violations).toEqual([]);
        },
      ),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 400) },
    );
  });
});

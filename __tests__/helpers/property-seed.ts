// CI replays one fixed seed in every property test, so that a landing is never decided by a draw; a local
// run explores new ones, and PROPERTY_SEED replays any seed a failure printed.
import fc from 'fast-check';

const seed = process.env.PROPERTY_SEED
  ? Number(process.env.PROPERTY_SEED)
  : process.env.CI
    ? 20_261_123
    : undefined;
if (seed !== undefined) fc.configureGlobal({ seed });

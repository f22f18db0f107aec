// The action's entry (action.yml runs it): the CLI's bundle, started as the action's run
// (src/cli/index.ts). Written by scripts/normalize-dist.mjs.
globalThis[Symbol.for('merge-queue-action.github-action')] = true;
await import('./cli/index.js');

#!/usr/bin/env node
// The one bundle's entry (dist/cli/index.js): the CLI (`merge-queue-action` in package.json's bin), the
// MCP server, and the action, whose entry (dist/index.js) marks the process as the action's run and
// imports this bundle, so that the action and the CLI ship one copy of the code they share. The action's
// run is in this file's chunk (the core and the GitHub Actions host, which every command loads too); the
// CLI's command line and the MCP server are chunks that only they load.
import { runAction } from '../github-action/index.js';

const argv = process.argv.slice(2);
if ((globalThis as Record<symbol, unknown>)[Symbol.for('merge-queue-action.github-action')]) {
  process.exitCode = await runAction();
} else if (argv[0] === 'mcp') {
  // The MCP server reads the command line itself.
  await import('../mcp/index.js');
} else {
  await import('./command-line.js');
}

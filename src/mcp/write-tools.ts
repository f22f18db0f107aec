// Registers each write whose grant was given (--allow submit, cancel, restart); the others do not exist
// for the client, so an agent cannot call or even see them.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { McpOptions } from './options.js';
import { prArguments, type Run } from './tool.js';
import {
  CANCEL_DESCRIPTION,
  RESTART_DESCRIPTION,
  SUBMIT_DESCRIPTION,
  cancelPr,
  restartTests,
  submitArguments,
  submitPr,
  writeShape,
} from './tools/writes.js';

const WRITE = { readOnlyHint: false, openWorldHint: true };

export function registerWrites(server: McpServer, options: McpOptions, run: Run): void {
  const grants = options.grants;
  if (grants.has('submit')) {
    server.registerTool(
      'submit_pr',
      {
        title: 'Submit a pull request',
        description: SUBMIT_DESCRIPTION,
        inputSchema: { ...prArguments, ...submitArguments },
        outputSchema: writeShape,
        annotations: { ...WRITE, destructiveHint: false, idempotentHint: true },
      },
      (args, extra) => run(extra, (tools) => submitPr(tools, args)),
    );
  }
  if (grants.has('cancel')) {
    server.registerTool(
      'cancel_pr',
      {
        title: 'Cancel a pull request in the queue',
        description: CANCEL_DESCRIPTION,
        inputSchema: {
          ...prArguments,
          confirm: z.number().int().describe('The PR number again, to confirm the cancellation.'),
        },
        outputSchema: writeShape,
        annotations: { ...WRITE, destructiveHint: true, idempotentHint: true },
      },
      (args, extra) => run(extra, (tools) => cancelPr(tools, args)),
    );
  }
  if (grants.has('restart')) {
    server.registerTool(
      'restart_tests',
      {
        title: 'Restart a pull request’s tests',
        description: RESTART_DESCRIPTION,
        inputSchema: prArguments,
        outputSchema: writeShape,
        annotations: { ...WRITE, destructiveHint: true, idempotentHint: false },
      },
      (args, extra) => run(extra, (tools) => restartTests(tools, args)),
    );
  }
}

// Registers each write whose grant was given (--allow submit, cancel, restart); the others do not exist
// for the client, so an agent cannot call or even see them.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { prArguments, type ToolContext } from './tool.js';
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

type Run = (work: () => Promise<object>) => Promise<CallToolResult>;

const WRITE = { readOnlyHint: false, openWorldHint: true };

export function registerWrites(server: McpServer, tools: ToolContext, run: Run): void {
  const grants = tools.options.grants;
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
      (args) => run(() => submitPr(tools, args)),
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
      (args) => run(() => cancelPr(tools, args)),
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
      (args) => run(() => restartTests(tools, args)),
    );
  }
}

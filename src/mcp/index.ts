#!/usr/bin/env node
// The MCP server's entry point: `merge-queue-action mcp` loads it, as chunks of the CLI's bundle (dist/cli/)
// that no other command loads; `tsx src/mcp/index.ts` runs it from the source. stdout carries protocol messages only: anything else that
// would write there (a stray console.log in a dependency) is sent to stderr.
import { MCP_HELP, McpUsageError, readMcpOptions, type McpOptions } from './options.js';
import { operationRunner } from './runner.js';
import { createServer } from './server.js';
import { LineTransport } from './stdio.js';

const args = process.argv.slice(2);
if (args[0] === 'mcp') args.shift();

const stdout = process.stdout;
const options = readOptions();
if (options?.help) stdout.write(MCP_HELP);
else if (options) await serve(options);

function readOptions(): McpOptions | undefined {
  try {
    return readMcpOptions(args, process.env);
  } catch (error) {
    if (!(error instanceof McpUsageError)) throw error;
    process.stderr.write(`merge-queue-action mcp: ${error.message}\n`);
    process.exitCode = 2;
    return undefined;
  }
}

async function serve(options: McpOptions): Promise<void> {
  const transport = new LineTransport(process.stdin, stdout, (why) =>
    process.stderr.write(`merge-queue-action mcp: ${why}\n`),
  );
  console.log = console.info = console.debug = console.error;
  const runner = operationRunner(options, { env: process.env, cwd: process.cwd(), stderr: process.stderr });
  const server = createServer(options, runner);
  if (!options.token) {
    process.stderr.write(
      'merge-queue-action mcp: no token in MERGE_QUEUE_API_TOKEN or TRUNK_API_TOKEN; every tool will say so until the server is started with one.\n',
    );
  }
  await server.connect(transport);
  const grants = [...options.grants].join(', ') || 'none (read-only)';
  process.stderr.write(`merge-queue-action mcp: serving on stdio; writes granted: ${grants}.\n`);
}

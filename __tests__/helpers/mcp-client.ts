// Starts the built MCP server (`merge-queue-action mcp`, through dist/cli/index.js as an agent host runs
// it) in a child process with only the variables given, and connects the SDK's own client to it over
// stdio. Its stderr is kept for the test to read.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { TEST_TOKEN } from './emulator.js';

export const CLI = join(process.cwd(), 'dist/cli/index.js');

export interface McpSession {
  client: Client;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  close(): Promise<void>;
}

/** The variables an agent host would give the server: the emulator, its token, the repository. */
export function serverEnvironment(
  emulator: { current: { url: string } },
  repo: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    MERGE_QUEUE_API_URL: emulator.current.url,
    MERGE_QUEUE_API_TOKEN: TEST_TOKEN,
    MERGE_QUEUE_REPO: repo,
    MERGE_QUEUE_TARGET_BRANCH: 'main',
    ...extra,
  };
}

export async function startMcp(
  args: string[],
  env: Record<string, string>,
  cwd = mkdtempSync(join(tmpdir(), 'mcp-test-')),
): Promise<McpSession> {
  if (!existsSync(CLI)) {
    throw new Error('dist/cli is missing: run `npm run bundle` first.');
  }
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', ...args],
    env,
    cwd,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'merge-queue-action-tests', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

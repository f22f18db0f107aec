// The MCP server's command line: `merge-queue-action mcp [--allow submit,cancel,restart] [--api-url ...]`.
// Where the API is and which repository are taken as the CLI takes them (a flag, else its MERGE_QUEUE_*
// variable, else the checkout's origin remote); the token only from MERGE_QUEUE_API_TOKEN or
// TRUNK_API_TOKEN, never from a flag or a tool's arguments, so that it stays out of an agent's context.
import { parseArgs } from 'node:util';
import type { Environment } from '../hosts/common/pipeline-context.js';

/** The writes a user may grant; queue administration, urgent priority and target uploads are never offered. */
export const GRANTS = ['submit', 'cancel', 'restart'] as const;
export type Grant = (typeof GRANTS)[number];

/** Inputs the server hands every operation it runs, as the CLI names them. */
const SERVER_INPUTS = ['api-url', 'repo', 'repo-host', 'target-branch', 'org-url-slug', 'timeout-seconds'];

export const TOKEN_VARIABLES = ['MERGE_QUEUE_API_TOKEN', 'TRUNK_API_TOKEN'];

export interface McpOptions {
  grants: ReadonlySet<Grant>;
  /** Inputs by name ('' when not given): from their flags, else their variables. */
  inputs: Record<string, string>;
  token: string;
  /** The first wait between two looks of wait_for_pr; it grows from there. */
  pollIntervalMs: number;
  help: boolean;
}

/** A command line the server cannot start with: one line saying what to do. */
export class McpUsageError extends Error {
  override name = 'McpUsageError';
}

const MAX_POLL_SECONDS = 60;

export function readMcpOptions(args: string[], env: Environment): McpOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: {
        allow: { type: 'string', multiple: true },
        'poll-interval-seconds': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        ...Object.fromEntries(SERVER_INPUTS.map((name) => [name, { type: 'string' as const }])),
      },
      strict: true,
      allowPositionals: false,
    });
  } catch (error) {
    throw new McpUsageError(usageMessage(error as NodeJS.ErrnoException));
  }
  const values = parsed.values as Record<string, string | string[] | boolean | undefined>;
  const inputs: Record<string, string> = {};
  for (const name of SERVER_INPUTS) {
    const flag = values[name];
    inputs[name] = typeof flag === 'string' ? flag : (env[variableOf(name)] ?? '');
  }
  return {
    grants: readGrants((values.allow as string[] | undefined) ?? []),
    inputs,
    token: TOKEN_VARIABLES.map((name) => env[name]?.trim()).find(Boolean) ?? '',
    pollIntervalMs: readPollSeconds(values['poll-interval-seconds'] as string | undefined) * 1000,
    help: values.help === true,
  };
}

function variableOf(input: string): string {
  return `MERGE_QUEUE_${input.toUpperCase().replace(/-/g, '_')}`;
}

function readGrants(given: string[]): Set<Grant> {
  const grants = new Set<Grant>();
  for (const word of given.flatMap((value) => value.split(',')).map((w) => w.trim().toLowerCase())) {
    if (!word) continue;
    if (!(GRANTS as readonly string[]).includes(word)) {
      const shown = /^[a-z-]{1,30}$/.test(word) ? `"${word}"` : `(${word.length} characters)`;
      throw new McpUsageError(
        `--allow ${shown} is not a write this server offers. Give submit, cancel or restart (comma-separated or --allow repeated); queue administration is never offered.`,
      );
    }
    grants.add(word as Grant);
  }
  return grants;
}

function readPollSeconds(given: string | undefined): number {
  if (given === undefined) return 5;
  const seconds = Number(given);
  if (!/^\d+(\.\d+)?$/.test(given.trim()) || seconds < 0.1 || seconds > MAX_POLL_SECONDS) {
    throw new McpUsageError(
      `--poll-interval-seconds must be a number from 0.1 to ${MAX_POLL_SECONDS}. Give it like --poll-interval-seconds 5.`,
    );
  }
  return seconds;
}

/** parseArgs names the flag, never a value; a token given as a flag is refused with where it belongs. */
function usageMessage(error: NodeJS.ErrnoException): string {
  if (/--api-token\b/.test(error.message)) {
    return `the token is never a flag. Set ${TOKEN_VARIABLES.join(' or ')} in the server's environment instead.`;
  }
  const said = error.message.replace(/\s+/g, ' ').trim().replace(/\.$/, '');
  return `${said}. Run \`merge-queue-action mcp --help\` for the flags.`;
}

export const MCP_HELP = `merge-queue-action mcp: a Model Context Protocol server on stdio for coding agents.

Read-only tools by default: queue_status, pr_status, wait_for_pr, explain_failure, flaky_tests.

  --allow <submit|cancel|restart>  Also offer submit_pr, cancel_pr, restart_tests (comma-separated or repeated).
  --api-url <url>                  The API (MERGE_QUEUE_API_URL; default https://api.trunk.io/v1).
  --repo <owner/name>              The repository (MERGE_QUEUE_REPO; default the origin remote).
  --repo-host <host>               Its host (MERGE_QUEUE_REPO_HOST; default the remote's).
  --target-branch <branch>         The queue's branch (MERGE_QUEUE_TARGET_BRANCH; default the remote's default).
  --org-url-slug <slug>            For flaky-test data (MERGE_QUEUE_ORG_URL_SLUG).
  --timeout-seconds <n>            The deadline of one API request (MERGE_QUEUE_TIMEOUT_SECONDS; default 60).
  --poll-interval-seconds <n>      wait_for_pr's first wait between looks, growing from there (default 5).

The token is read from ${TOKEN_VARIABLES.join(' or ')} only. stdout carries protocol messages only; the log goes to stderr.
`;

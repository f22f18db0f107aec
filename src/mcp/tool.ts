// What every tool shares: its result as structured content (with the same JSON as text, for clients that
// read only text), one error boundary that turns any failure into one line with secrets hidden, and the
// arguments that name a PR.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { oneLine } from '../core/report/control-syntax.js';
import { clip, LOG_LINE_CHARS } from '../core/report/clip.js';
import type { RunResult } from '../core/run.js';
import type { McpOptions } from './options.js';
import type { OperationRunner } from './runner.js';

/** A tool could not do its work: the line says what and what to do. */
export class ToolFailure extends Error {
  override name = 'ToolFailure';
}

/** What every tool is handed. */
export interface ToolContext {
  runner: OperationRunner;
  options: McpOptions;
  /** Head shas whose tests this server process has restarted, as `owner/name#pr@sha`. */
  restarted: Set<string>;
}

export const prArguments = {
  prNumber: z.number().int().min(1).max(4294967295).describe('The pull request number.'),
  targetBranch: z
    .string()
    .min(1)
    .max(255)
    .optional()
    .describe(
      'The queue’s branch. Default: the server’s --target-branch, else the repository’s default branch.',
    ),
};

export interface PrArguments {
  prNumber: number;
  targetBranch?: string;
}

/** The operation inputs that name a PR. */
export function prInputs(args: PrArguments): Record<string, string> {
  return {
    'pr-number': String(args.prNumber),
    ...(args.targetBranch ? { 'target-branch': args.targetBranch } : {}),
  };
}

export function structured<T extends object>(data: T): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(data) }],
    structuredContent: data as Record<string, unknown>,
  };
}

/** A run that failed is the tool's failure, with the run's own line (secrets already hidden). */
export function requireSuccess(result: RunResult): void {
  if (result.exitCode !== 0) throw new ToolFailure(result.failure ?? 'The operation failed.');
}

/** Runs a tool's work; whatever fails becomes one line of text marked as an error, never a stack. */
export async function guarded(
  redact: (text: string) => string,
  work: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  try {
    return await work();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const line = clip(oneLine(redact(message)), LOG_LINE_CHARS);
    return {
      content: [{ type: 'text', text: line || 'The tool failed for an unknown reason.' }],
      isError: true,
    };
  }
}

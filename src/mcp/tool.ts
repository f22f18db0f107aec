// What every tool shares: its result as structured content (with the same JSON as text, for clients that
// read only text), one error boundary that turns any failure into one line with secrets hidden, and the
// arguments that name a PR.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { clip, LOG_LINE_CHARS, oneLine, type RunResult } from '../core/index.js';
import { dataText, MESSAGE_CHARS } from './data.js';
import type { McpOptions } from './options.js';
import type { OperationRunner } from './runner.js';

/**
 * A tool could not do its work: the line says what and what to do, in our words only; `serviceSaid` is
 * the service's own text about it, which reaches the agent only as a data field.
 */
export class ToolFailure extends Error {
  override name = 'ToolFailure';
  constructor(
    line: string,
    readonly serviceSaid?: string,
  ) {
    super(line);
  }
}

/** What every tool is handed. */
export interface ToolContext {
  /** Runs operations for this call: they are called off with it. */
  runner: OperationRunner;
  options: McpOptions;
  /** Head shas whose tests this server process has restarted, as `owner/name#pr@sha`. */
  restarted: Set<string>;
  /** Aborts when the agent cancels the call or its time is up. */
  signal: AbortSignal;
}

/** Runs one tool call: bounded in time (by `seconds`), called off with the agent's cancellation. */
export type Run = (
  extra: { signal: AbortSignal },
  work: (tools: ToolContext) => Promise<object>,
  seconds?: number,
) => Promise<CallToolResult>;

/** How long a tool call may take unless the server's --timeout-seconds says otherwise. */
const DEFAULT_CALL_SECONDS = 60;

/** The time one tool call may take: the server's --timeout-seconds (as the CLI's runs), else 60 s. */
export function callSeconds(options: McpOptions): number {
  const given = Number(options.inputs['timeout-seconds']);
  return Number.isFinite(given) && given > 0 ? given : DEFAULT_CALL_SECONDS;
}

/**
 * Runs one tool call within `seconds`: its operations are called off (the request in flight dropped,
 * nothing more sent) when the agent cancels the call or the time is up, and the call then answers at once
 * with one line, whatever is still winding down.
 */
export async function boundedCall<T>(
  tools: Omit<ToolContext, 'signal'>,
  cancelled: AbortSignal,
  seconds: number,
  work: (call: ToolContext) => Promise<T>,
): Promise<T> {
  const timeUp = AbortSignal.timeout(Math.ceil(seconds * 1000));
  const signal = AbortSignal.any([cancelled, timeUp]);
  const call = { ...tools, runner: tools.runner.calledOffBy(signal), signal };
  let stop: () => void = () => {};
  const gaveUp = new Promise<never>((_, reject) => {
    stop = () =>
      reject(
        new ToolFailure(
          timeUp.aborted
            ? `No answer within ${seconds} s, the time this tool has (the server's --timeout-seconds, or wait_for_pr's timeoutSeconds); its requests were called off. Try again later.`
            : 'The call was cancelled; its requests were called off.',
        ),
      );
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
  });
  try {
    return await Promise.race([work(call), gaveUp]);
  } finally {
    signal.removeEventListener('abort', stop);
    gaveUp.catch(() => undefined);
  }
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
  if (result.exitCode !== 0)
    throw new ToolFailure(result.failure ?? 'The operation failed.', result.serviceSaid);
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
    const line = clip(oneLine(redact(message)), LOG_LINE_CHARS) || 'The tool failed for an unknown reason.';
    const said = error instanceof ToolFailure ? error.serviceSaid : undefined;
    if (!said) return { content: [{ type: 'text', text: line }], isError: true };
    const failure = { error: line, serviceSaid: dataText(redact, said, MESSAGE_CHARS) };
    return {
      content: [
        { type: 'text', text: line },
        { type: 'text', text: JSON.stringify({ serviceSaid: failure.serviceSaid }) },
      ],
      structuredContent: failure,
      isError: true,
    };
  }
}

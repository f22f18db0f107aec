// Runs one core operation for a tool, as the CLI runs one for a person: on the generic host (a laptop's
// context: the flags and variables, else the checkout's origin remote), its log on stderr, nothing written
// to stdout (which carries the protocol) and no outputs or summary file. What the run found comes back as
// run()'s result, secrets already hidden from its failure line and its outputs.
import {
  COMMON_INPUTS,
  isOperationName,
  OPERATIONS,
  redactor,
  type ResolvedContext,
  run,
  type RunResult,
} from '../core/index.js';
import { PLAIN_DIALECT, type LogStream } from '../hosts/common/log.js';
import type { Environment, PipelineFacts } from '../hosts/common/pipeline-context.js';
import { genericFacts } from '../hosts/generic.js';
import { filePublisher, pipelineHost } from '../hosts/common/pipeline-host.js';
import type { McpOptions } from './options.js';
import { mcpWording } from './wording.js';

/** What an operation is given beside the server's own inputs: the PR, a wait, a listing's filters. */
export type OperationInputs = Record<string, string>;

export interface Ran<T> {
  result: RunResult;
  /** The repository, PR and branch the run worked on, when it got that far. */
  context?: ResolvedContext;
  kept?: T;
}

export interface OperationRunner {
  /**
   * Runs `operation`; `keep` reads what the run left (a report file) before its scratch directory is
   * removed.
   */
  run<T = undefined>(
    operation: string,
    inputs: OperationInputs,
    keep?: (result: RunResult) => Promise<T>,
  ): Promise<Ran<T>>;
  /** Hides the token in every spelling from text that leaves the server. */
  redact(text: string): string;
  /** The same runner, its runs called off by `signal` (a tool call cancelled, or past its time). */
  calledOffBy(signal: AbortSignal): OperationRunner;
  /** The same runner, each progress line of its runs also handed to `listener` (secrets hidden). */
  reportingTo(listener: (line: string) => void): OperationRunner;
}

export interface RunnerIo {
  env: Environment;
  cwd: string;
  stderr: LogStream;
}

export function operationRunner(options: McpOptions, io: RunnerIo): OperationRunner {
  // The checkout's remote is read at the first call only: a server serves one repository.
  let facts: Promise<PipelineFacts> | undefined;
  const readFacts = (env: Environment, cwd: string) => (facts ??= genericFacts(env, cwd));
  const redact = redactor([options.token]);
  const runnerWith = (signal?: AbortSignal, onProgress?: (line: string) => void): OperationRunner => ({
    async run(operation, inputs, keep) {
      const values: Record<string, string> = {
        ...serverInputsFor(operation, options.inputs),
        ...inputs,
        operation,
        'api-token': options.token,
        summary: 'false',
      };
      const host = pipelineHost(
        { name: 'generic', dialect: PLAIN_DIALECT, facts: readFacts, publish: filePublisher },
        {
          env: io.env,
          cwd: io.cwd,
          input: (name) => values[name] ?? '',
          logStream: io.stderr,
          files: {},
          wording: mcpWording(new Set(Object.keys(inputs))),
        },
      );
      let context: ResolvedContext | undefined;
      const resolveContext = host.resolveContext;
      host.resolveContext = async (request) => (context = await resolveContext(request));
      const result = await run(host, { contextNotes: false, signal, onProgress, serviceTextApart: true });
      try {
        const kept = keep && result.exitCode === 0 ? await keep(result) : undefined;
        return { result, context, kept };
      } finally {
        await host.finish(result.exitCode);
      }
    },
    redact,
    calledOffBy: (called) => runnerWith(called, onProgress),
    reportingTo: (listener) => runnerWith(signal, listener),
  });
  return runnerWith();
}

/** The server's inputs the operation reads: any other given would be ignored with a warning in the log. */
function serverInputsFor(operation: string, inputs: Record<string, string>): Record<string, string> {
  const row = isOperationName(operation) ? OPERATIONS[operation] : undefined;
  const reads = new Set([...COMMON_INPUTS, ...(row?.inputs ?? [])].map((spec) => spec.name));
  return Object.fromEntries(Object.entries(inputs).filter(([name]) => reads.has(name)));
}

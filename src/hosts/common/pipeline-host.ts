// What every host but GitHub Actions shares: inputs handed in by the entry point, secrets hidden from the
// log and the files, the context from the CI's facts, log lines in the CI's dialect. Each host adds how
// it reads its variables and where its outputs and summary go.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Host, HostName } from '../../core/host.js';
import { colourEnabled, type ColourChoice } from './colour.js';
import { appendedFile, jsonOutputsFile } from './files.js';
import { streamLog, Secrets, type LogDialect, type LogStream } from './log.js';
import { resolvePipelineContext, type Environment, type PipelineFacts } from './pipeline-context.js';
import type { Wording } from '../../core/words.js';

export type { Environment } from './pipeline-context.js';

/** What the entry point (the CLI) hands a host. */
export interface HostOptions {
  env: Environment;
  /** An input as the user gave it ('' when not given). */
  input: (name: string) => string;
  /** Where log lines go (stdout; stderr when stdout carries JSON or a file given as -). */
  logStream: LogStream;
  /** Where a file given as - is written (stdout); without it, nowhere. */
  stdout?: LogStream;
  /** Paths the user gave for outputs, the summary and a dotenv report. */
  files: { outputs?: string; summary?: string; dotenv?: string };
  cwd: string;
  /** What was piped to the command, for an input file given as `-`. */
  stdin?: AsyncIterable<Buffer | string>;
  /** The outputs are shown to the caller (the CLI's --json): files they name must outlive the run. */
  outputsShown?: boolean;
  /** --color as given (auto when not given). */
  colour?: ColourChoice;
  /** How the user names and gives an input on this command line, for messages (`--pr-number or MERGE_QUEUE_PR_NUMBER`). */
  wording?: Wording;
}

/** A host the CLI runs: told the run's exit code at the end, for what is published only then. */
export interface PipelineHost extends Host {
  finish(exitCode: number): Promise<void>;
}

export interface HostParts {
  name: HostName;
  dialect: LogDialect;
  /** What the CI says; may look at the checkout in `cwd` (the generic host asks git). */
  facts: (env: Environment, cwd: string) => PipelineFacts | Promise<PipelineFacts>;
  /** Publishes outputs and the summary; given the shared pieces it may need. */
  publish: (tools: PublishTools) => Publisher;
}

export type Publisher = Pick<PipelineHost, 'setOutputs' | 'writeSummary' | 'finish'> & {
  /** False when no later step can learn the outputs: files the run writes for them are then removed. */
  outputsReadLater?: boolean;
};

export interface PublishTools {
  options: HostOptions;
  log: Host['log'];
  secrets: Secrets;
  /** How many warnings the log has shown so far. */
  warningsLogged: () => number;
}

export function pipelineHost(parts: HostParts, options: HostOptions): PipelineHost {
  const secrets = new Secrets();
  const colour = colourEnabled({
    choice: options.colour,
    env: options.env,
    isTerminal: options.logStream.isTTY === true,
    viewerShowsColour: parts.dialect.viewerShowsColour,
  });
  const stream = streamLog(options.logStream, parts.dialect, secrets, colour);
  let warnings = 0;
  const log: Host['log'] = {
    ...stream,
    warning: (message, annotation) => {
      warnings++;
      stream.warning(message, annotation);
    },
  };
  const publisher = parts.publish({ options, log, secrets, warningsLogged: () => warnings });
  const scratch =
    publisher.outputsReadLater === false && !options.outputsShown
      ? scratchDirectory(tempDirOf(options.env))
      : undefined;
  return {
    name: parts.name,
    input: options.input,
    mask: (secret) => secrets.add(secret),
    wording: options.wording,
    resolveContext: async (request) =>
      resolvePipelineContext(request, await parts.facts(options.env, options.cwd), options.env),
    setOutputs: (outputs) =>
      publisher.setOutputs(
        Object.fromEntries(Object.entries(outputs).map(([name, value]) => [name, secrets.hide(value)])),
      ),
    writeSummary: (markdown) => publisher.writeSummary(secrets.hide(markdown)),
    async finish(exitCode) {
      stream.endProgress();
      try {
        await publisher.finish(exitCode);
      } finally {
        scratch?.remove();
      }
    },
    log,
    get tempDir() {
      return scratch ? scratch.path() : tempDirOf(options.env);
    },
    workingDirectory: options.cwd,
    stdin: options.stdin,
  };
}

/** A private directory made on first use and removed with what is in it when the run ends. */
function scratchDirectory(base: string): { path(): string; remove(): void } {
  let made: string | undefined;
  return {
    path: () => (made ??= mkdtempSync(join(base, 'merge-queue-action-run-'))),
    remove: () => {
      if (made) rmSync(made, { recursive: true, force: true });
    },
  };
}

/**
 * The shared temp folder of the job's environment (TMPDIR, as os.tmpdir() would read it from the process),
 * under which each file we write gets a directory of its own, made for the run (step-file.ts).
 */
function tempDirOf(env: Environment): string {
  return env.TMPDIR || env.TEMP || env.TMP || tmpdir();
}

/**
 * Outputs as a JSON object in --outputs-file and the summary appended to --summary-file (CircleCI,
 * Jenkins, generic, and the CLI on GitHub Actions beside the runner's files). Without the flags they are
 * not written.
 */
export function filePublisher({ options, log }: Pick<PublishTools, 'options' | 'log'>): Publisher {
  const stdout = standardOutput(options);
  const outputs = options.files.outputs
    ? jsonOutputsFile(options.files.outputs, options.cwd, stdout)
    : undefined;
  const summary = options.files.summary
    ? appendedFile(options.files.summary, options.cwd, stdout, '--summary-file')
    : undefined;
  return {
    outputsReadLater: outputs !== undefined,
    async setOutputs(values) {
      if (outputs) return outputs.set(values);
    },
    async writeSummary(markdown) {
      if (!summary) return;
      try {
        await summary.append(`${markdown}\n`);
      } catch (error) {
        log.warning(`The summary was not written: ${(error as Error).message}`);
      }
    },
    async finish() {
      await outputs?.finish();
      await summary?.finish();
    },
  };
}

/** Where a file given as - goes: the stream the entry point named, else nowhere. */
export function standardOutput(options: HostOptions): LogStream {
  return options.stdout ?? { write: () => undefined };
}

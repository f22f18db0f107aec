// The CLI: the command line and MERGE_QUEUE_* variables in, one operation run on the detected (or named)
// host, the exit code out: the result on stdout (a page for a person, or --json's object), the log on stderr.
import { InputError } from '../core/errors.js';
import { toKebabCase, isOperationName } from '../core/operations/registry.js';
import { EXIT_CODES, run, type RunResult } from '../core/run.js';
import { VERSION } from '../core/version.js';
import type { LogStream } from '../hosts/common/log.js';
import type { Environment } from '../hosts/common/pipeline-context.js';
import { createHost } from '../hosts/create.js';
import { detectHost } from '../hosts/detect.js';
import { parseCommandLine, UsageError, type CommandLine } from './args.js';
import { COMMAND, generalHelp, operationHelp, variableOf } from './help.js';
import { colourByDefault, presentResult } from './present/index.js';

export interface CliIo {
  argv: string[];
  env: Environment;
  cwd: string;
  stdout: LogStream;
  stderr: LogStream;
  /** stdout is a terminal (a person reads it): colour by default. */
  stdoutIsTerminal?: boolean;
}

export async function runCli(io: CliIo): Promise<number> {
  let line: CommandLine;
  try {
    line = parseCommandLine(io.argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`${COMMAND}: ${error.message}\n`);
    return EXIT_CODES.badInput;
  }
  if (line.version) {
    io.stdout.write(`${VERSION}\n`);
    return EXIT_CODES.done;
  }
  const operation = line.operation ?? io.env.MERGE_QUEUE_OPERATION?.trim();
  if (line.help) {
    const name = operation && toKebabCase(operation);
    io.stdout.write(name && isOperationName(name) ? operationHelp(name) : generalHelp());
    return EXIT_CODES.done;
  }
  if (!operation) {
    io.stderr.write(`${COMMAND}: no operation given. Run \`${COMMAND} --help\` for the operations.\n`);
    return EXIT_CODES.badInput;
  }

  // stdout carries the result (the page for a person, or --json's object); the log goes to stderr, so
  // that a pipe gets the result alone while a terminal shows both.
  const log = io.stderr;
  const input = (name: string): string => {
    if (name === 'operation') return operation;
    return line.inputs[name] ?? io.env[variableOf(name)] ?? '';
  };
  let result: RunResult;
  try {
    const forced = line.host
      ? { value: line.host, source: '--host' }
      : io.env.MERGE_QUEUE_HOST
        ? { value: io.env.MERGE_QUEUE_HOST, source: 'MERGE_QUEUE_HOST' }
        : undefined;
    const detected = detectHost(io.env, forced);
    const host = await createHost(detected.name, {
      env: io.env,
      input,
      logStream: log,
      files: line.files,
      cwd: io.cwd,
      outputsShown: line.json,
    });
    // Where the context came from helps a CI log and --json's; in a terminal the result says enough.
    const contextNotes = line.json || detected.name !== 'generic';
    if (contextNotes) host.log.info(`host: ${detected.name} (${detected.reason})`);
    result = await run(host, { contextNotes });
    await host.finish(result.exitCode);
  } catch (error) {
    // Only choosing the host can fail here; run() turns every failure of its own into a result.
    const failure = error instanceof Error ? error.message : String(error);
    io.stderr.write(`${COMMAND}: ${failure}\n`);
    const exitCode = error instanceof InputError ? EXIT_CODES.badInput : EXIT_CODES.failed;
    result = { exitCode, outputs: {}, failure };
  }
  if (line.json) io.stdout.write(`${JSON.stringify(jsonResult(result, operation))}\n`);
  else
    io.stdout.write(presentResult(result, { colour: colourByDefault(io.env, io.stdoutIsTerminal === true) }));
  return result.exitCode;
}

/** The --json object: the operation, its exit code, every output, the parsed answer, the failure. */
function jsonResult(result: RunResult, given: string) {
  return {
    operation: result.operation ?? given,
    exitCode: result.exitCode,
    outputs: result.outputs,
    response: parsedResponse(result.outputs.response),
    failure: result.failure ?? null,
  };
}

function parsedResponse(text: string | undefined): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

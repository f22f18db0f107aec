// The CLI: the command line and MERGE_QUEUE_* variables in, one operation run on the detected (or named)
// host, the exit code out: the result on stdout (a page for a person, or --json's object), the log on stderr.
import {
  closestMatches,
  EXIT_CODES,
  exitCodeOf,
  failureOf,
  isOperationName,
  OPERATION_NAMES,
  run,
  type RunResult,
  toKebabCase,
  VERSION,
} from '../core/index.js';
import { colourEnabled, paint } from '../hosts/common/colour.js';
import { STANDARD_STREAM } from '../hosts/common/files.js';
import { errorLine, warningLine, withoutControlCharacters, type LogStream } from '../hosts/common/log.js';
import type { Environment } from '../hosts/common/pipeline-context.js';
import { createHost } from '../hosts/create.js';
import { detectHost, logShowsColour } from '../hosts/detect.js';
import { parseCommandLine, UsageError, type CommandLine } from './args.js';
import { COMMAND, generalHelp, operationHelp, variablesOf } from './help.js';
import { completionScript, SHELLS } from './completion.js';
import { ask, questionFor } from './confirm.js';
import { pagesOn } from './pager.js';
import { jsonResult } from './json-result.js';
import { CLI_WORDING, TERMINAL_WORDING } from './wording.js';
import { unknownVariableWarnings } from './variables.js';

export interface CliIo {
  argv: string[];
  env: Environment;
  cwd: string;
  /** What is piped to the command (read for an input file given as `-`, or a yes to a question). */
  stdin?: AsyncIterable<Buffer | string> & { isTTY?: boolean };
  stdout: LogStream;
  stderr: LogStream;
  /** Shows a long page through a pager on the terminal stdout is (given by the entry point). */
  page?: (text: string) => Promise<void>;
}

export async function runCli(io: CliIo): Promise<number> {
  if (io.argv[0] === 'completion') return completion(io, io.argv.slice(1));
  let line: CommandLine;
  try {
    line = parseCommandLine(io.argv);
    checkStdoutIsClaimedOnce(line);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return usageError(io, error.message);
  }
  if (line.version) {
    io.stdout.write(`${VERSION}\n`);
    return EXIT_CODES.done;
  }
  const operation = line.operation ?? io.env.MERGE_QUEUE_OPERATION?.trim();
  if (line.help || line.helpCommand) return help(io, line.helpCommand ? line.operation : operation);
  // Nothing at all asks what the command does, as with gh: the help, and success.
  if (!operation && !io.argv.length) return help(io, undefined);
  if (!operation) {
    return usageError(io, `no operation given. Run \`${COMMAND} help\` for the operations.`);
  }
  if (line.operation && !isOperationName(toKebabCase(line.operation))) {
    return usageError(io, unknownOperation(line.operation));
  }

  if (!(await confirmedIfAsked(io, line, toKebabCase(operation)))) {
    io.stderr.write('Nothing was done (answer y, or give --yes, to go ahead).\n');
    return EXIT_CODES.failed;
  }

  // stdout carries the result (the page for a person, --json's object, or a file given as -); the log goes
  // to stderr, so that a pipe gets the result alone while a terminal shows both.
  const log = io.stderr;
  const viewerShowsColour = ciLogShowsColour(io.env, line);
  const colourOn = (stream: { isTTY?: boolean }) =>
    colourEnabled({ choice: line.colour, env: io.env, isTerminal: stream.isTTY === true, viewerShowsColour });
  const style = paint(colourOn(log));
  for (const warning of unknownVariableWarnings(io.env)) log.write(`${warningLine(warning, style)}\n`);
  const result = await runOperation(io, line, operation, log);
  if (line.json) io.stdout.write(`${JSON.stringify(jsonResult(result, operation))}\n`);
  else if (!stdoutCarriesData(line)) {
    // The page for a person is loaded only to be shown: measuring text for a terminal (string-width and
    // its Unicode tables) costs a program reading --json tens of milliseconds at start-up.
    const { presentResult } = await import('./present/index.js');
    io.stdout.write(presentResult(result, { colour: colourOn(io.stdout) }));
  }
  return result.exitCode;
}

/** No CI runs this (a person's shell, or their script): secrets come from the shell, not a job. */
function onALaptop(env: Environment, host: string): boolean {
  return host === 'generic' && !(env.CI && env.CI !== 'false');
}

/** The host --host or MERGE_QUEUE_HOST names, if either does. */
function forcedHost(env: Environment, line: CommandLine): { value: string; source: string } | undefined {
  if (line.host) return { value: line.host, source: '--host' };
  if (env.MERGE_QUEUE_HOST) return { value: env.MERGE_QUEUE_HOST, source: 'MERGE_QUEUE_HOST' };
  return undefined;
}

/**
 * Whether the job log of the CI this runs on shows colours (GitLab's does, although a job's output is no
 * terminal). A host named wrongly is runOperation's to report: here it is no colour.
 */
function ciLogShowsColour(env: Environment, line: CommandLine): boolean {
  try {
    return logShowsColour(detectHost(env, forcedHost(env, line)).name);
  } catch {
    return false;
  }
}

async function runOperation(
  io: CliIo,
  line: CommandLine,
  operation: string,
  log: LogStream,
): Promise<RunResult> {
  try {
    const detected = detectHost(io.env, forcedHost(io.env, line));
    const host = await createHost(detected.name, {
      env: io.env,
      input: inputReader(io.env, line, operation),
      logStream: log,
      stdout: io.stdout,
      files: line.files,
      cwd: io.cwd,
      stdin: io.stdin,
      outputsShown: line.json,
      colour: line.colour,
      wording: onALaptop(io.env, detected.name) ? TERMINAL_WORDING : CLI_WORDING,
    });
    // Where the context came from helps a CI log and a program's run; in a terminal the result says enough.
    const contextNotes = stdoutCarriesData(line) || detected.name !== 'generic';
    if (contextNotes) host.log.info(`host: ${detected.name} (${detected.reason})`);
    const result = await run(host, { contextNotes });
    await host.finish(result.exitCode);
    return result;
  } catch (error) {
    // Only choosing the host can fail here; run() turns every failure of its own into a result.
    const failure = failureOf(error, CLI_WORDING).line;
    io.stderr.write(`${errorLine(failure)}\n`);
    return { exitCode: exitCodeOf(error), outputs: {}, failure };
  }
}

/** True unless a person at a terminal was asked about an operation that cannot be undone and said no. */
async function confirmedIfAsked(io: CliIo, line: CommandLine, operation: string): Promise<boolean> {
  if (line.yes) return true;
  const input = inputReader(io.env, line, operation);
  const question = questionFor(operation, io, {
    repo: input('repo'),
    branch: input('target-branch'),
    prNumber: input('pr-number'),
  });
  return question === undefined || ask(question, io);
}

/** An input as given: the flag, else its variable (the token also from TRUNK_API_TOKEN). */
function inputReader(env: Environment, line: CommandLine, operation: string) {
  return (name: string): string => {
    if (name === 'operation') return operation;
    const flag = line.inputs[name];
    if (flag !== undefined) return flag;
    return (
      variablesOf(name)
        .map((variable) => env[variable])
        .find(Boolean) ?? ''
    );
  };
}

/** `completion <shell>`: the shell's script on stdout. */
function completion(io: CliIo, args: string[]): number {
  const script = args.length === 1 ? completionScript(args[0]) : undefined;
  if (!script) {
    return usageError(
      io,
      `completion takes one shell: ${SHELLS.join(', ')} (e.g. source <(${COMMAND} completion bash)).`,
    );
  }
  io.stdout.write(script);
  return EXIT_CODES.done;
}

function usageError(io: CliIo, message: string): number {
  // A flag's name is shown as written: it must not act on the terminal.
  io.stderr.write(`${errorLine(withoutControlCharacters(message).replace(/\n/g, ' '))}\n`);
  return EXIT_CODES.badInput;
}

async function help(io: CliIo, operation: string | undefined): Promise<number> {
  const name = operation === undefined ? undefined : toKebabCase(operation);
  if (name !== undefined && !isOperationName(name)) return usageError(io, unknownOperation(operation!));
  const text = name === undefined ? generalHelp() : operationHelp(name);
  if (io.page && pagesOn(io)) await io.page(text);
  else io.stdout.write(text);
  return EXIT_CODES.done;
}

/**
 * A word that names no operation is shown only when it is plainly a word (letters and dashes): anything
 * else may be a secret pasted in the wrong place.
 */
function unknownOperation(given: string): string {
  const shown =
    /^[a-z]+(?:[-_][a-z]+)*$/i.test(given) && given.length <= 40
      ? `"${given}"`
      : `(${given.length} characters)`;
  const [closest] = closestMatches(toKebabCase(given), OPERATION_NAMES, 1);
  const hint = closest ? `Did you mean ${closest}? ` : '';
  return `unknown operation ${shown}. ${hint}Run \`${COMMAND} help\` for the operations.`;
}

/** --json and every file flag given as - write to stdout; only one of them may. */
function checkStdoutIsClaimedOnce(line: CommandLine): void {
  const claims = [
    line.json && '--json',
    ...Object.entries(line.files)
      .filter(([, path]) => path === STANDARD_STREAM)
      .map(([file]) => `--${file}-file -`),
  ].filter(Boolean);
  if (claims.length > 1) {
    throw new UsageError(
      `${claims.join(' and ')} would all write to stdout. Give one of them, and a file path to the others.`,
    );
  }
}

/** Stdout carries a result for a program (JSON, or a file given as -): the log goes to stderr. */
export function stdoutCarriesData(line: Pick<CommandLine, 'json' | 'files'>): boolean {
  return line.json || Object.values(line.files).includes(STANDARD_STREAM);
}

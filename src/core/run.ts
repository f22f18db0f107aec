// run(host): the operation's registry row -> its inputs -> the context -> the operation -> outputs and a
// summary. The one error boundary: whatever fails ends as one line and a summary that says what to do,
// never a stack trace, never a token, and an exit code that says what kind of failure it was.
import { ApiClient, type ClientOptions } from './api/client.js';
import { ApiError } from './api/errors.js';
import { COMMON_INPUTS, readCommonSettings, type CommonSettings } from './common-inputs.js';
import { checkResolvedContext } from './context.js';
import { ContextError, InputError } from './errors.js';
import type { Clock } from './clock.js';
import type { Host } from './host.js';
import { Inputs, quoted } from './inputs.js';
import {
  OPERATIONS,
  OPERATION_NAMES,
  isOperationName,
  toKebabCase,
  type OperationName,
  type RegisteredOperation,
  type SharedContext,
} from './operations/registry.js';
import { writeStepFile } from './operations/step-file.js';
import { detailsOf, type OperationDetails } from './operations/details.js';
import type { OperationResult, OutputValue } from './operations/types.js';
import { LOG_LINE_CHARS, clip } from './report/clip.js';
import { oneLine } from './report/control-syntax.js';
import { failureSummary } from './report/failure-summary.js';
import {
  isMergeQueueRun,
  mergeQueueRunOutputs,
  readMergeQueueRun,
} from './operations/merge-queue-run/describe.js';
import { SecretSet, type Redact } from './report/redact.js';
import { closestMatches } from './suggest.js';

/** The CLI's exit codes, and what the action's failure means: documented, stable. */
export const EXIT_CODES = {
  done: 0,
  /** The operation's outcome is a failure: the PR failed, fail-on tripped, a wait timed out. */
  failed: 1,
  /** An input or the pipeline's context cannot be used. */
  badInput: 2,
  /** The service refused the request (4xx). */
  refused: 3,
  /** The service could not be reached, or kept failing. */
  unreachable: 4,
} as const;

export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

export interface RunResult {
  exitCode: ExitCode;
  operation?: OperationName;
  /** Every output as published (secrets hidden). */
  outputs: Record<string, string>;
  /** The one line the run failed with, when it did. */
  failure?: string;
  /** What the operation found, as data (not yet redacted: show it through `redact`). */
  details?: OperationDetails;
  /** Hides the run's secrets in text made from `details` or `outputs`. */
  redact?: Redact;
}

/** Every input any operation reads, for warning about inputs given to one that does not read them. */
const ALL_INPUT_NAMES = [
  ...new Set(Object.values(OPERATIONS).flatMap((row) => row.inputs.map((input) => input.name))),
];

export interface RunOptions {
  /** Real time unless given (tests give the emulator's virtual clock). */
  clock?: Clock;
  /**
   * Whether the log says where the repository, PR and branch came from (true unless given): a CI log
   * keeps it, a terminal that shows the result itself leaves it out.
   */
  contextNotes?: boolean;
}

export async function run(host: Host, options: RunOptions = {}): Promise<RunResult> {
  const masked = new Set<string>();
  // Every secret read (the tokens, and a webhook URL as its operation reads it) is hidden from all the run
  // writes from then on.
  const secrets = new SecretSet();
  // Each secret is masked once, however many readers meet it: the first thing the log shows.
  const mask = (secret: string) => {
    if (masked.has(secret)) return;
    masked.add(secret);
    host.mask(secret);
    secrets.add(secret);
  };
  for (const name of ['api-token', 'github-token']) {
    const secret = host.input(name).trim();
    if (secret) mask(secret);
  }
  const redact = secrets.redact;
  /** Every line core writes to the log: secrets hidden, one line however the text was made, cut to read. */
  const logLine = (message: string) => clip(oneLine(redact(message)), LOG_LINE_CHARS);
  const published: Record<string, string> = {};
  const publish = async (outputs: Record<string, OutputValue>) => {
    const values = Object.fromEntries(
      Object.entries(outputs).map(([name, value]) => [name, redact(String(value))]),
    );
    Object.assign(published, values);
    await host.setOutputs(values);
  };
  let operation: OperationName | undefined;
  let summaryWanted = true;
  let runUrl: string | undefined;
  try {
    // Known before the other inputs are read, so that a failure of theirs names the operation.
    const named = toKebabCase(host.input('operation').trim());
    if (isOperationName(named)) operation = named;
    const prepared = prepareOperation(
      { input: (name) => host.input(name), mask, log: host.log, howToGive: host.howToGive },
      redact,
    );
    operation = prepared.operation;
    const { common, start, row } = prepared;
    summaryWanted = common.summary;

    const context = await host.resolveContext({
      overrides: common.context,
      needs: row.needs,
      githubToken: common.githubToken,
    });
    runUrl = context.runUrl;
    if (options.contextNotes !== false) for (const note of context.notes) host.log.info(logLine(note));
    for (const warning of context.warnings) host.log.warning(logLine(warning), { title: operation });
    checkResolvedContext(context);
    await publish({
      repo: `${context.repo.owner}/${context.repo.name}`,
      'pr-number': context.prNumber ?? '',
      'target-branch': context.targetBranch ?? '',
      'is-merge-queue-test-run': context.isMergeQueueTestRun,
    });

    const clientOptions: ClientOptions = {
      baseUrl: common.apiUrl,
      token: common.apiToken,
      deadlineMs: common.timeoutMs,
      // A retry's message quotes what the service said, which may echo a secret back.
      onRetry: (message) => host.log.info(logLine(message)),
      redact,
      proxy: host.proxy,
    };
    const client = new ApiClient(clientOptions);
    if (operation !== 'describe-merge-queue-run' && isMergeQueueRun(context)) {
      await publish(
        await mergeQueueRunFacts({ client, context }, (m) =>
          host.log.warning(logLine(m), { title: operation }),
        ),
      );
    }
    const result = await start({
      operation,
      common,
      context,
      client,
      clientOptions,
      // Read only when a file is written: a host may make its directory on first use.
      get tempDir() {
        return host.tempDir;
      },
      redact,
      log: {
        info: (message) => host.log.info(logLine(message)),
        warning: (message) => host.log.warning(logLine(message), { title: operation }),
        annotate: (level, message, at) => {
          const annotation = { ...at, title: logLine(at.title ?? operation ?? '') };
          if (level === 'notice') {
            if (host.log.notice) host.log.notice(logLine(message), annotation);
            else host.log.info(logLine(message));
          } else host.log[level](logLine(message), annotation);
        },
        group: (title, work) => host.log.group(logLine(title), work),
      },
      clock: options.clock,
      comments: host.comments,
    });
    await publish(await capResponseOutput(result.outputs, host, redact));
    if (common.summary && result.summary) await host.writeSummary(redact(result.summary.toString()));
    const found = { details: detailsOf(result), redact };
    if (result.failure) {
      const failure = logLine(result.failure);
      host.log.error(failure, { title: logLine(result.failureTitle ?? `${operation} failed`) });
      return { exitCode: EXIT_CODES.failed, operation, outputs: published, failure, ...found };
    }
    return { exitCode: EXIT_CODES.done, operation, outputs: published, ...found };
  } catch (error) {
    const failure = logLine(messageOf(error));
    const exitCode = exitCodeOf(error);
    host.log.error(failure, { title: titleOf(error, operation) });
    if (summaryWanted) {
      await host.writeSummary(redact(failureSummary({ operation, failure, exitCode, error, runUrl })));
    }
    return { exitCode, operation, outputs: published, failure, redact };
  }
}

/** Outputs share GitHub's 1 MiB per job: a longer answer goes to a file, named by `response-file`. */
export const MAX_RESPONSE_OUTPUT_BYTES = 256 * 1024;

async function capResponseOutput(
  outputs: Record<string, OutputValue>,
  host: Pick<Host, 'tempDir'>,
  redact: Redact,
): Promise<Record<string, OutputValue>> {
  const response = outputs.response;
  if (typeof response !== 'string' || Buffer.byteLength(response) <= MAX_RESPONSE_OUTPUT_BYTES)
    return outputs;
  const responseFile = await writeStepFile({ tempDir: host.tempDir, redact }, 'response.txt', response);
  return { ...outputs, response: '', 'response-file': responseFile };
}

export interface PreparedOperation {
  operation: OperationName;
  row: RegisteredOperation;
  common: CommonSettings;
  /** The operation's own settings (typed by its row). */
  settings: unknown;
  /** Runs the operation with its settings, read and checked already. */
  start: (shared: SharedContext) => Promise<OperationResult>;
}

type InputSource = Pick<Host, 'input' | 'mask' | 'howToGive'> & { log: Pick<Host['log'], 'warning'> };

/** Reads and checks every input the operation uses, before anything is looked up or sent. */
export function prepareOperation(host: InputSource, redact: Redact = (text) => text): PreparedOperation {
  const operation = readOperation(host);
  const row: RegisteredOperation = OPERATIONS[operation];
  const input = new Inputs(
    (name) => host.input(name),
    new Set([...COMMON_INPUTS, ...row.inputs].map((spec) => spec.name)),
    (secret) => host.mask(secret),
  );
  const common = readCommonSettings(input);
  warnAboutUnusedInputs(host, operation, row, redact);
  requireInputs(host, operation, row);
  const { settings, start } = row.prepare(input, operation);
  if (!common.apiToken && !row.tokenOptional) {
    const how = host.howToGive?.('api-token') ?? '`api-token: ${{ secrets.TRUNK_API_TOKEN }}`';
    throw new InputError(
      'api-token',
      'is empty',
      `Pass your organization API token from a secret (${how}); a secret is empty in a job run for a fork or Dependabot PR.`,
    );
  }
  return { operation, row, common, settings, start };
}

function readOperation(host: InputSource): OperationName {
  const given = host.input('operation').trim();
  if (!given) {
    throw new InputError('operation', 'is empty', `Set it to one of: ${OPERATION_NAMES.join(', ')}.`);
  }
  const name = toKebabCase(given);
  if (isOperationName(name)) return name;
  const suggestions = closestMatches(name, OPERATION_NAMES, 3);
  const hint = suggestions.length ? `Did you mean ${suggestions.join(' or ')}?` : '';
  throw new InputError(
    'operation',
    `${quoted(given)} is not an operation`,
    `${hint} Valid operations: ${OPERATION_NAMES.join(', ')}.`.trim(),
  );
}

/** An input the operation does not read is ignored, and the user is told so: it is most often a mistake. */
function warnAboutUnusedInputs(
  host: InputSource,
  operation: OperationName,
  row: RegisteredOperation,
  redact: Redact,
): void {
  const used = new Set(row.inputs.map((input) => input.name));
  for (const name of ALL_INPUT_NAMES) {
    if (!used.has(name) && host.input(name).trim()) {
      host.log.warning(
        oneLine(redact(`Input "${name}" is not used by operation ${operation}; it was ignored.`)),
        {
          title: operation,
        },
      );
    }
  }
}

function requireInputs(host: InputSource, operation: OperationName, row: RegisteredOperation): void {
  for (const input of row.inputs) {
    if (input.required && !host.input(input.name).trim()) {
      throw new InputError(
        input.name,
        `is required by operation ${operation}`,
        `Set ${input.name} (${input.description.replace(/\.$/, '')}).`,
      );
    }
  }
}

/** On a merge-queue test run every operation says which PRs it tests; a failure to ask is only a warning. */
async function mergeQueueRunFacts(
  shared: Parameters<typeof readMergeQueueRun>[0],
  warn: (message: string) => void,
): Promise<Record<string, OutputValue>> {
  try {
    return mergeQueueRunOutputs(await readMergeQueueRun(shared));
  } catch (error) {
    warn(`The merge-queue test run could not be described: ${messageOf(error)}`);
    return { 'is-merge-queue-run': true };
  }
}

function exitCodeOf(error: unknown): ExitCode {
  if (error instanceof InputError || error instanceof ContextError) return EXIT_CODES.badInput;
  if (error instanceof ApiError) {
    const refused =
      error.kind === 'redirect' ||
      (error.kind === 'http' && error.status !== undefined && error.status < 500 && error.status !== 429);
    return refused ? EXIT_CODES.refused : EXIT_CODES.unreachable;
  }
  return EXIT_CODES.failed;
}

function titleOf(error: unknown, operation: OperationName | undefined): string {
  if (error instanceof InputError) return `Input ${error.input}`;
  const what = operation ?? 'merge-queue-action';
  if (error instanceof ApiError) return `${what} failed: ${apiFailureHeadline(error)}`;
  return `${what} failed`;
}

/** What went wrong with the service, in the words a person acts on (the endpoint is in the message). */
function apiFailureHeadline(error: ApiError): string {
  if (error.kind === 'network') return 'the service could not be reached';
  if (error.kind === 'timeout') return 'the service did not answer in time';
  if (error.kind !== 'http' || error.status === undefined)
    return 'the service sent an answer that could not be read';
  if (error.status === 401 || error.status === 403) return 'the API token was refused';
  if (error.status === 404) return 'the service does not know what was asked for';
  if (error.status === 429) return 'the service asked to slow down';
  if (error.status >= 500) return `the service failed (HTTP ${error.status})`;
  return `the service refused the request (HTTP ${error.status})`;
}

/** The message of any thrown value, blanks around line breaks folded. */
function messageOf(error: unknown): string {
  const message =
    error instanceof ApiError ? error.toString() : error instanceof Error ? error.message : String(error);
  return message.replace(/\s*\n\s*/g, ' ').trim() || 'The run failed for an unknown reason.';
}

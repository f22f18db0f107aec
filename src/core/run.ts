// run(host): the operation's registry row -> its inputs -> the context -> the operation -> outputs and a
// summary. The one error boundary: whatever fails ends as one line and a summary that says what to do,
// never a stack trace, never a token, and an exit code that says what kind of failure it was.
import type { ClientOptions, ServiceClient } from './api/client.js';
import { apiBaseFor } from './api/base-url.js';
import type { CommonSettings } from './common-inputs.js';
import { checkResolvedContext, hasRepo, isMergeQueueRun, type ResolvedContext } from './context.js';
import type { Clock } from './clock.js';
import { labelledServiceText } from './api/errors.js';
import {
  EXIT_CODES,
  SERVICE_TEXT_APART,
  exitCodeOf,
  failureOf,
  titleOf,
  wordsOf,
  type ExitCode,
} from './failure.js';
import { failureSummary } from './failure-summary.js';
import type { Host } from './host.js';
import { prepareOperation, type PreparedOperation } from './prepare.js';
import {
  isOperationName,
  toKebabCase,
  type OperationName,
  type SharedContext,
} from './operations/registry.js';
import { writeStepFile } from './operations/step-file.js';
import { detailsOf, type OperationDetails } from './operations/details.js';
import type { OperationResult, OutputValue } from './operations/types.js';
import { LOG_LINE_CHARS, clip } from './report/clip.js';
import { oneLine, showControls } from './report/control-syntax.js';
import { SecretSet, type Redact } from './report/redact.js';
import { ACTION_WORDING, say, words, type Words, type Wording } from './words.js';
import { isFailure, unreachable } from './errors.js';

export interface RunResult {
  exitCode: ExitCode;
  operation?: OperationName;
  /** Every output as published (secrets hidden). */
  outputs: Record<string, string>;
  /** The same outputs with their types kept (numbers, booleans), for a program's JSON. */
  values?: Record<string, OutputValue>;
  /** The one line the run failed with, when it did. */
  failure?: string;
  /**
   * With `serviceTextApart`: the service's own text about the failure (secrets hidden), which `failure`
   * then only points at, so that a host can hand it on as data.
   */
  serviceSaid?: string;
  /** What the operation found, as data (not yet redacted: show it through `redact`). */
  details?: OperationDetails;
  /** Hides the run's secrets in text made from `details` or `outputs`. */
  redact?: Redact;
}

export interface RunOptions {
  /** Real time unless given (tests give the emulator's virtual clock). */
  clock?: Clock;
  /**
   * Whether the log says where the repository, PR and branch came from, and the result in a line (true
   * unless given): a CI log keeps them, a terminal that shows the result itself leaves them out.
   */
  contextNotes?: boolean;
  /** Calls the run off (an agent gave up on it): no request is sent or waited for after it. */
  signal?: AbortSignal;
  /** Hears each progress line as the log gets it (an MCP tool turns them into progress notifications). */
  onProgress?: (line: string) => void;
  /**
   * The service's text is given apart as `serviceSaid`, the failure line only pointing at it: for a host
   * whose reader must never take the service's words for ours (an agent). Else the line ends with it,
   * labelled and escaped.
   */
  serviceTextApart?: boolean;
}

/** What every step of a run writes through: its secrets hidden, its outputs gathered as published. */
interface RunScope {
  host: Host;
  redact: Redact;
  /**
   * Every line core writes to the log: in the host's words, secrets hidden, one line however the text was
   * made, cut to read.
   */
  logLine: (message: string | Words) => string;
  published: Record<string, string>;
  /** The published outputs with their types kept. */
  values: Record<string, OutputValue>;
  publish: (outputs: Record<string, OutputValue>) => Promise<void>;
  mask: (secret: string) => void;
}

export async function run(host: Host, options: RunOptions = {}): Promise<RunResult> {
  const scope = runScope(host);
  let operation: OperationName | undefined;
  let summaryWanted = true;
  let runUrl: string | undefined;
  try {
    // Known before the other inputs are read, so that a failure of theirs names the operation.
    const named = toKebabCase(host.input('operation').trim());
    if (isOperationName(named)) operation = named;
    const prepared = prepareOperation(
      { input: (name) => host.input(name), mask: scope.mask, log: host.log, wording: host.wording },
      scope.redact,
    );
    operation = prepared.operation;
    summaryWanted = prepared.common.summary;
    const context = await resolveContext(scope, prepared, options);
    runUrl = context.runUrl;
    const result = await runOperation(scope, prepared, context, options);
    return await finish(scope, prepared, result, options);
  } catch (error) {
    const { failure, serviceSaid } = failureLine(scope, failureOf(error, wordingOf(host)), options);
    const exitCode = exitCodeOf(error);
    host.log.error(failure, { title: titleOf(error, operation) });
    if (summaryWanted) {
      const summary = failureSummary({ operation, failure, exitCode, error, runUrl }, wordingOf(host));
      await host.writeSummary(showControls(scope.redact(summary)));
    }
    return {
      exitCode,
      operation,
      outputs: scope.published,
      values: scope.values,
      failure,
      ...(serviceSaid ? { serviceSaid } : {}),
      redact: scope.redact,
    };
  }
}

function wordingOf(host: Host): Wording {
  return host.wording ?? ACTION_WORDING;
}

/**
 * The failure line as the log shows it, and the service's text about it: given apart when the host
 * wants it so (the line then points at it), else labelled at the line's end.
 */
function failureLine(
  scope: RunScope,
  { line, said }: { line: string; said: string },
  options: RunOptions,
): { failure: string; serviceSaid?: string } {
  if (options.serviceTextApart && said) {
    return { failure: scope.logLine(`${line} ${SERVICE_TEXT_APART}`), serviceSaid: scope.redact(said) };
  }
  return { failure: scope.logLine(`${line}${labelledServiceText(scope.redact(said))}`) };
}

function runScope(host: Host): RunScope {
  // Every secret read (the tokens, and a webhook URL as its operation reads it) is hidden from all the run
  // writes from then on; each is masked once, however many readers meet it.
  const secrets = new SecretSet();
  const masked = new Set<string>();
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
  const published: Record<string, string> = {};
  const typed: Record<string, OutputValue> = {};
  return {
    host,
    redact,
    mask,
    logLine: (message) => clip(oneLine(redact(say(message, wordingOf(host)))), LOG_LINE_CHARS),
    published,
    values: typed,
    async publish(outputs) {
      const values = Object.fromEntries(
        Object.entries(outputs).map(([name, value]) => [name, redact(String(value))]),
      );
      Object.assign(published, values);
      // A number or boolean keeps its type unless hiding a secret changed how it reads.
      for (const [name, value] of Object.entries(outputs)) {
        typed[name] = typeof value !== 'string' && values[name] === String(value) ? value : values[name]!;
      }
      await host.setOutputs(values);
    },
  };
}

/** The pipeline's context, checked, its notes logged and its facts published. */
async function resolveContext(
  scope: RunScope,
  { operation, common, row }: PreparedOperation,
  options: RunOptions,
): Promise<ResolvedContext> {
  const { host, logLine } = scope;
  const context = await host.resolveContext({
    overrides: common.context,
    needs: row.needs,
    githubToken: common.githubToken,
  });
  if (options.contextNotes !== false) for (const note of context.notes) host.log.info(logLine(note));
  for (const warning of context.warnings) host.log.warning(logLine(warning), { title: operation });
  checkResolvedContext(context);
  await scope.publish({
    repo: hasRepo(context) ? `${context.repo.owner}/${context.repo.name}` : '',
    'pr-number': context.prNumber ?? '',
    'target-branch': context.targetBranch ?? '',
    'is-merge-queue-test-run': context.isMergeQueueTestRun,
  });
  return context;
}

async function runOperation(
  scope: RunScope,
  prepared: PreparedOperation,
  context: ResolvedContext,
  options: RunOptions,
): Promise<OperationResult> {
  const { host, logLine } = scope;
  const { operation, common, row } = prepared;
  const clientOptions: ClientOptions = {
    // v1's base, whichever version the run speaks: a fork PR's upload and the v1-only endpoints go there.
    baseUrl: apiBaseFor('v1', common.apiUrl),
    token: common.apiToken,
    deadlineMs: common.timeoutMs,
    // A retry's message quotes what the service said, which may echo a secret back.
    onRetry: (message) => host.log.info(logLine(message)),
    redact: scope.redact,
    proxy: host.proxy,
    signal: options.signal,
  };
  if (common.apiVersionNote) host.log.info(logLine(common.apiVersionNote));
  const factsWanted = !row.describesMergeQueueRun && isMergeQueueRun(context);
  // An operation that works from files and git alone loads no API client (nor node:http): a quicker start.
  const service =
    row.api === 'none' && !factsWanted
      ? { client: NO_SERVICE, clientOptions }
      : await loadService(common, clientOptions, context);
  if (factsWanted) {
    const warn = (message: Words) => host.log.warning(logLine(message), { title: operation });
    await scope.publish(await mergeQueueRunFacts({ client: service.client, context }, warn));
  }
  const shared: SharedContext = {
    operation,
    common,
    context,
    ...service,
    // Read only when a file is written: a host may make its directory on first use.
    get tempDir() {
      return host.tempDir;
    },
    workingDirectory: host.workingDirectory,
    stdin: host.stdin,
    redact: scope.redact,
    log: operationLog(scope, operation, options),
    clock: options.clock,
    comments: host.comments,
    signal: options.signal,
    wording: host.wording,
  };
  return prepared.start(shared);
}

/** The operation's log: every line through the run's `logLine`, annotations titled. */
function operationLog(scope: RunScope, operation: OperationName, options: RunOptions): SharedContext['log'] {
  const { host, logLine } = scope;
  const logShowsResult = options.contextNotes !== false;
  return {
    info: (message) => host.log.info(logLine(message)),
    progress: (message) => {
      const line = logLine(message);
      options.onProgress?.(line);
      (host.log.progress ?? host.log.info)(line);
    },
    // A terminal shows the result as a page, whose first line says it: the log would say it twice.
    outcome: (message) => {
      if (logShowsResult) host.log.info(logLine(message));
    },
    warning: (message) => host.log.warning(logLine(message), { title: operation }),
    annotate: (level, message, at) => {
      const annotation = { ...at, title: logLine(at.title ?? operation) };
      if (level === 'notice') {
        if (host.log.notice) host.log.notice(logLine(message), annotation);
        else host.log.info(logLine(message));
      } else host.log[level](logLine(message), annotation);
    },
    group: (title, work) => host.log.group(logLine(title), work),
  };
}

/** Outputs and summary published; the run's result from the operation's outcome. */
async function finish(
  scope: RunScope,
  { operation, common }: PreparedOperation,
  result: OperationResult,
  options: RunOptions,
): Promise<RunResult> {
  const { host, redact } = scope;
  await scope.publish(await capResponseOutput(result.outputs, host, redact));
  if (common.summary && result.summary) {
    await host.writeSummary(showControls(redact(result.summary.toString())));
  }
  const found = { details: detailsOf(result), redact };
  if (result.failure) {
    const cause = result.failureCause;
    const said = isFailure(cause) ? cause.serviceSaid : '';
    const line = say(result.failure, wordingOf(host));
    const { failure, serviceSaid } = failureLine(scope, { line, said }, options);
    const title = scope.logLine(result.failureTitle ?? `${operation} failed`);
    host.log[result.failureLevel ?? 'error'](failure, { title });
    const exitCode = cause === undefined ? EXIT_CODES.failed : exitCodeOf(cause);
    return {
      exitCode,
      operation,
      ...outputsOf(scope),
      failure,
      ...(serviceSaid ? { serviceSaid } : {}),
      ...found,
    };
  }
  return { exitCode: EXIT_CODES.done, operation, ...outputsOf(scope), ...found };
}

function outputsOf(scope: RunScope): Pick<RunResult, 'outputs' | 'values'> {
  return { outputs: scope.published, values: scope.values };
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

/** The run's API client, with one retry budget for every client of the run. */
async function loadService(
  common: CommonSettings,
  options: ClientOptions,
  context: ResolvedContext,
): Promise<{ client: ServiceClient; clientOptions: ClientOptions }> {
  const { RetryBudget, serviceClientFor } = await import('./api/service-client.js');
  const clientOptions = { ...options, retryBudget: new RetryBudget() };
  return { client: await serviceClientFor(common, clientOptions, context), clientOptions };
}

/** The client of an operation that works from files and git alone (`api: 'none'`): it sends nothing. */
const NO_SERVICE: ServiceClient = {
  call: async (endpoint) =>
    unreachable(`${endpoint} called by an operation whose registry row says it sends nothing`),
};

/** On a merge-queue test run every operation says which PRs it tests; a failure to ask is only a warning. */
async function mergeQueueRunFacts(
  shared: { client: ServiceClient; context: ResolvedContext },
  warn: (message: Words) => void,
): Promise<Record<string, OutputValue>> {
  try {
    const { mergeQueueRunOutputs, readMergeQueueRun } =
      await import('./operations/merge-queue-run/describe.js');
    return mergeQueueRunOutputs(await readMergeQueueRun(shared));
  } catch (error) {
    warn(words`The merge-queue test run could not be described: ${wordsOf(error)}`);
    return { 'is-merge-queue-run': true };
  }
}

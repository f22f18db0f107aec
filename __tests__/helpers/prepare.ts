// Reads an operation's inputs from a plain map, as run() reads them from a host, for tests that run an
// operation in-process or check how inputs are read.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { redactor } from '../../src/core/report/redact.js';
import { ApiClient, type ClientOptions } from '../../src/core/api/client.js';
import type { ResolvedContext } from '../../src/core/context.js';
import type { Annotation } from '../../src/core/host.js';
import type { OperationResult } from '../../src/core/operations/types.js';
import { OPERATIONS, type OperationName } from '../../src/core/operations/registry.js';
import { prepareOperation, type PreparedOperation } from '../../src/core/prepare.js';
import { say } from '../../src/core/words.js';

export function prepareFrom(inputs: Record<string, string>, warnings: string[] = []): PreparedOperation {
  return prepareOperation({
    input: (name) => inputs[name] ?? '',
    mask: () => undefined,
    log: { warning: (message) => warnings.push(message) },
  });
}

/** The operation's own settings, typed as the test expects them. */
export function settingsFrom<S>(inputs: Record<string, string>): S {
  return prepareFrom(inputs).settings as S;
}

export function contextOf(overrides: Partial<ResolvedContext>): ResolvedContext {
  return {
    repo: { host: 'github.com', owner: 'octo-org', name: 'octo-repo' },
    isFork: false,
    isMergeQueueTestRun: false,
    trigger: 'workflow_dispatch',
    notes: [],
    warnings: [],
    ...overrides,
  };
}

export interface InProcessRun extends Omit<OperationResult, 'failure'> {
  /** The failure line in the action's words. */
  failure?: string;
  infos: string[];
  warnings: string[];
  annotations: RecordedAnnotation[];
}

export interface RecordedAnnotation extends Annotation {
  level: 'error' | 'warning' | 'notice';
  message: string;
}

/** Runs a prepared operation in this process against `clientOptions.baseUrl`. */
export async function startPrepared(
  prepared: PreparedOperation,
  context: ResolvedContext,
  clientOptions: ClientOptions,
): Promise<InProcessRun> {
  const infos: string[] = [];
  const warnings: string[] = [];
  const annotations: RecordedAnnotation[] = [];
  const result = await prepared.start({
    operation: prepared.operation,
    common: prepared.common,
    context,
    client: new ApiClient(clientOptions),
    clientOptions,
    tempDir: mkdtempSync(join(tmpdir(), 'mqa-op-')),
    workingDirectory: process.cwd(),
    redact: redactor([clientOptions.token]),
    log: {
      info: (line) => infos.push(say(line)),
      warning: (line) => warnings.push(say(line)),
      annotate: (level, message, at) => annotations.push({ level, message, ...at }),
    },
  });
  const failure = result.failure === undefined ? undefined : say(result.failure);
  return { ...result, failure, infos, warnings, annotations };
}

export interface OperationRun extends InProcessRun {
  summaryText: string;
}

/**
 * Runs one operation in this process against an emulator over HTTP, as run() would with a host: settings
 * from `inputs` (api-url and api-token are the emulator's, org-url-slug is the context's owner for the
 * operations that take it), the context of contextOf(`where`), retries that wait milliseconds.
 */
export async function runOperation(
  emulator: { url: string; token: string },
  operation: OperationName,
  inputs: Record<string, string>,
  where: Partial<ResolvedContext> = {},
): Promise<OperationRun> {
  const context = contextOf({ targetBranch: 'main', ...where });
  const takesOrg = OPERATIONS[operation].inputs.some((input) => input.name === 'org-url-slug');
  const given: Record<string, string> = {
    operation,
    'api-url': emulator.url,
    'api-token': emulator.token,
    ...(takesOrg ? { 'org-url-slug': context.repo.owner } : {}),
    ...inputs,
  };
  const inputWarnings: string[] = [];
  const prepared = prepareFrom(given, inputWarnings);
  const result = await startPrepared(prepared, context, {
    baseUrl: prepared.common.apiUrl,
    token: prepared.common.apiToken,
    deadlineMs: prepared.common.timeoutMs,
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
  });
  return {
    ...result,
    warnings: [...inputWarnings, ...result.warnings],
    summaryText: result.summary?.toString() ?? '',
  };
}

/** The error an operation (or any call) fails with; the test fails when it succeeds. */
export async function errorOf(work: Promise<unknown>): Promise<Error> {
  try {
    await work;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the operation to fail');
}

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
import { prepareOperation, type PreparedOperation } from '../../src/core/run.js';

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

export interface InProcessRun extends OperationResult {
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
    redact: redactor([clientOptions.token]),
    log: {
      info: (line) => infos.push(line),
      warning: (line) => warnings.push(line),
      annotate: (level, message, at) => annotations.push({ level, message, ...at }),
    },
  });
  return { ...result, infos, warnings, annotations };
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

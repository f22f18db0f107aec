// Runs one operation in this process against a real emulator over HTTP: settings from an inputs map,
// a resolved workflow_dispatch context, a client on the emulator's URL. Used by the queue-* and metrics
// tests.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient } from '../../src/core/api/client.js';
import type { Repo } from '../../src/wire/index.js';
import type { ResolvedContext } from '../../src/hosts/github-actions/context.js';
import type { Emulator } from '../../emulator/server.js';
import type { OperationName } from '../../src/core/operations/catalog.js';
import { OPERATION_HANDLERS } from '../../src/core/operations/handlers.js';
import type { OperationResult } from '../../src/core/operations/types.js';
import { readSettings } from '../../src/core/inputs.js';

export const REPO: Repo = { host: 'github.com', owner: 'acme', name: 'web' };

export interface OperationRun extends OperationResult {
  summaryText: string;
  infos: string[];
  warnings: string[];
}

export async function runOperation(
  emulator: Emulator,
  operation: OperationName,
  inputs: Record<string, string>,
  where: { repo?: Repo; targetBranch?: string } = {},
): Promise<OperationRun> {
  const given: Record<string, string> = { operation, 'api-token': emulator.token, ...inputs };
  const settings = readSettings((name) => given[name] ?? '');
  const context: ResolvedContext = {
    repo: where.repo ?? REPO,
    targetBranch: where.targetBranch ?? 'main',
    isFork: false,
    isMergeQueueTestRun: false,
    eventName: 'workflow_dispatch',
    notes: [],
    warnings: [],
  };
  const clientOptions = { baseUrl: emulator.url, token: emulator.token, deadlineMs: 10_000 };
  const infos: string[] = [];
  const warnings: string[] = [];
  const result = await OPERATION_HANDLERS[operation]({
    settings,
    context,
    client: new ApiClient(clientOptions),
    clientOptions,
    env: { RUNNER_TEMP: mkdtempSync(join(tmpdir(), 'mqa-queue-')) },
    log: { info: (line) => infos.push(line), warning: (line) => warnings.push(line) },
  });
  return { ...result, summaryText: result.summary?.toString() ?? '', infos, warnings };
}

/** A client for arranging the emulator's state through the public API. */
export function apiClient(emulator: Emulator): ApiClient {
  return new ApiClient({ baseUrl: emulator.url, token: emulator.token, deadlineMs: 10_000 });
}

/** POSTs to the emulator's control surface (not part of the public API). */
export async function control(emulator: Emulator, path: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${emulator.origin}/_emulator/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-token': emulator.token },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`control ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

// Runs one operation in this process against a real emulator over HTTP: settings from an inputs map,
// a resolved workflow_dispatch context, a client on the emulator's URL. Used by the queue-* and metrics
// tests.
import { ApiClient } from '../../src/core/api/client.js';
import type { Repo } from '../../src/wire/index.js';
import type { Emulator } from '../../emulator/server.js';
import type { OperationName } from '../../src/core/operations/registry.js';
import type { OperationResult } from '../../src/core/operations/types.js';
import { contextOf, prepareFrom, startPrepared } from './prepare.js';

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
  const clientOptions = { baseUrl: emulator.url, token: emulator.token, deadlineMs: 10_000 };
  const context = contextOf({ repo: where.repo ?? REPO, targetBranch: where.targetBranch ?? 'main' });
  const inputWarnings: string[] = [];
  const result = await startPrepared(prepareFrom(given, inputWarnings), context, clientOptions);
  return {
    ...result,
    warnings: [...inputWarnings, ...result.warnings],
    summaryText: result.summary?.toString() ?? '',
  };
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

// For the queue-* and metrics tests, which run operations with prepare.ts's runOperation: the repository
// they act on, a client to arrange the emulator's state through the public API, and its control surface.
import { ApiClient } from '../../src/core/api/client.js';
import type { Repo } from '../../src/wire/index.js';
import type { Emulator } from '../../emulator/server.js';
import { contextOf } from './prepare.js';

export const REPO: Repo = contextOf({}).repo;

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

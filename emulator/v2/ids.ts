// Stable opaque ids, derived from what the engine keys its records by: the same repository, queue or
// pull request has the same id across requests and restarts with the same data. Queue entries and
// verification runs keep the engine's own ids (v1's submission id and test run id).
import { createHash } from 'node:crypto';
import type { Repo } from '../../src/wire/index.js';
import { queueKeyOf, repoKeyOf } from '../../src/queue-model/index.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** A version-4 shaped uuid made from a digest. */
function uuidOf(text: string): string {
  const hex = digest(text).toString('hex').slice(0, 32).split('');
  hex[12] = '4';
  hex[16] = '89ab'[parseInt(hex[16]!, 16) & 3]!;
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

export function repositoryIdOf(repo: Repo): string {
  return uuidOf(`repository:${repoKeyOf(repo)}`);
}

/** Eight letters and digits, like the service's queue and test collection ids. */
export function shortIdOf(text: string): string {
  const bytes = digest(text);
  let id = '';
  for (let i = 0; i < 8; i++) id += BASE62[bytes[i]! % BASE62.length];
  return id;
}

export function queueIdOf(repo: Repo, branch: string): string {
  return shortIdOf(`queue:${queueKeyOf(repo, branch)}`);
}

export function pullRequestIdOf(repo: Repo, number: number): string {
  return uuidOf(`pull-request:${repoKeyOf(repo)}#${number}`);
}

/** A short hash of text, for cursors tied to what produced them. */
export function fingerprint(text: string): string {
  return digest(text).toString('base64url').slice(0, 12);
}
